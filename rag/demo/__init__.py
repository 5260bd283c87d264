"""The demo corpus shipped with the product: French security articles and a question set about them.

Ingest DEMO_DIR as a folder and evaluate with QUESTIONS_PATH to try the workbench without a blog.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

DEMO_DIR: Path = Path(__file__).resolve().parent / "articles"
QUESTIONS_PATH: Path = Path(__file__).resolve().parent / "questions.jsonl"
# Its own collection: a later WordPress ingest into the default one does not mix with it.
DEMO_COLLECTION = "demo"


def calibrate(store: Any, embedder: Any, collection: str = DEMO_COLLECTION) -> float | None:
    """Replay the shipped questions (retrieval only) on the demo collection and save the
    suggested threshold, so the first questions asked are judged by a measured threshold."""
    from rag.evaluate.questions import load_questions
    from rag.evaluate.runner import run_eval

    from rag.answer.gate import save_calibration

    results = run_eval(load_questions(QUESTIONS_PATH), store, embedder, collection, question_set="demo")
    gate = ((results["summary"].get("gate") or {}).get("calibration") or {}).get("suggested")
    if gate:  # the answerability gate's settings, the cosine floor among them
        return save_calibration(store, collection, gate, "rag/demo/questions.jsonl")["min_cosine"]
    suggested = results["summary"].get("suggested_threshold")
    if suggested is not None:
        store.set_threshold(collection, suggested)
    return suggested


__all__ = ["DEMO_COLLECTION", "DEMO_DIR", "QUESTIONS_PATH", "calibrate"]
