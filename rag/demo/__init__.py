"""The demo corpus shipped with the product: French security articles and a question set about them.

Ingest DEMO_DIR as a folder and evaluate with QUESTIONS_PATH to try the workbench without a blog.
"""

from __future__ import annotations

from pathlib import Path

DEMO_DIR: Path = Path(__file__).resolve().parent / "articles"
QUESTIONS_PATH: Path = Path(__file__).resolve().parent / "questions.jsonl"

__all__ = ["DEMO_DIR", "QUESTIONS_PATH"]
