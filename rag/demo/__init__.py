"""The demo corpus shipped with the product: French security articles and a question set about them.

Ingest DEMO_DIR as a folder and evaluate with QUESTIONS_PATH to try the workbench without a blog.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

DEMO_DIR: Path = Path(__file__).resolve().parent / "articles"
QUESTIONS_PATH: Path = Path(__file__).resolve().parent / "questions.jsonl"
# Its own collection: a later WordPress ingest into the default one does not mix with it.
DEMO_COLLECTION = "demo"


def calibrate(store: Any, embedder: Any, collection: str = DEMO_COLLECTION) -> float | None:
    """Replay the shipped questions (retrieval only) on the demo collection and save the
    suggested threshold, so the first questions asked are judged by a measured threshold. The
    replay is `rag eval`'s (rag.evaluate.session): the retrieval readers get, with the settings'
    context options, so that the floor saved is the one a run on the Evaluate page suggests."""
    from rag.evaluate.questions import load_questions
    from rag.evaluate.results import Results
    from rag.evaluate.saving import save_suggestion
    from rag.evaluate.session import EvalSession

    session = EvalSession(store.settings, store, load_questions(QUESTIONS_PATH), question_set="demo",
                          embedder_for=lambda info: embedder)
    summary = Results.of(session.run(collection)).summary
    return save_suggestion(store, collection, summary, "rag/demo/questions.jsonl")[1]


@dataclass
class DemoLoad:
    """What loading the demo did: the ingestion report, the threshold saved, and how many
    vectors came from the shipped file (`replayed`) or from the model (`embedded`)."""

    report: Any
    threshold: float | None
    replayed: int = 0
    embedded: int = 0

    def counts(self) -> dict[str, int]:
        return {"replayed": self.replayed, "embedded": self.embedded}


def demo_embedder(embedder: Any) -> Any:
    """`embedder` answering from the shipped vectors (rag.demo.vectors) where they fit."""
    from rag.chunking import DEFAULT_STRATEGY, default_settings
    from rag.demo.vectors import replaying

    return replaying(embedder, DEFAULT_STRATEGY, default_settings(DEFAULT_STRATEGY))


def load_demo(store: Any, embedder: Any, *, use_shipped: bool = True, progress: Callable[[Any], None] | None = None,
              items: Sequence[Any] | None = None, collection: str = DEMO_COLLECTION) -> DemoLoad:
    """Index the demo articles (`items`: others in their place) with the default strategy and
    calibrate the collection; with `use_shipped`, the shipped vectors stand in for the model's
    wherever model, strategy, settings and text are the same."""
    from rag.chunking import DEFAULT_STRATEGY
    from rag.enrich import DEFAULT_MODE, make_enricher
    from rag.ingest.run import ingest
    from rag.sources.files import iter_folder

    used = demo_embedder(embedder) if use_shipped else embedder
    documents = list(iter_folder(DEMO_DIR)) if items is None else list(items)
    # The enrichment a user's new collection gets.
    report = ingest(documents, store, used, collection, strategy=DEFAULT_STRATEGY, progress=progress,
                    enricher=make_enricher(DEFAULT_MODE))
    threshold = calibrate(store, used, collection) if report.ok else None
    return DemoLoad(report, threshold, getattr(used, "replayed", 0), getattr(used, "embedded", 0))


__all__ = ["DEMO_COLLECTION", "DEMO_DIR", "QUESTIONS_PATH", "DemoLoad", "calibrate", "demo_embedder", "load_demo"]
