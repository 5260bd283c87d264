"""One evaluation session, for `rag eval` and the Evaluate page alike: a question set replayed on
one collection, or on two at one cosine floor, with the settings `rag ask` and the Ask page use.

    session = EvalSession(settings, store, questions, question_set="demo", with_llm=False)
    shared = session.shared_floor(["blog", "blog-v2"])    # None for one collection
    results = session.run("blog", shared)                  # {"summary": ..., "questions": [...]}

The gate's boundary is resolved once here, as the answer engine resolves it (RAG_THRESHOLD,
RAG_MIN_COVERAGE, else the collection's calibration, else the model's defaults); two compared
collections share one cosine floor (rag.evaluate.compare.shared_threshold), each with its own words.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from rag.evaluate.questions import Question
from rag.evaluate.compare import shared_threshold
from rag.evaluate.runner import ProgressFn, run_eval


@dataclass
class EvalSession:
    settings: Any
    store: Any
    questions: Sequence[Question]
    question_set: str | None = None
    with_llm: bool = False
    llm: Any = None  # the chat client (else the settings' server)
    top_k: int | None = None
    mode: str = "auto"
    groups: Sequence[str] | None = None
    # The embedder that queries a collection, from its info (the dashboard's cached one); else the
    # model that built it, and `on_embedder` hears the sentence that says which.
    embedder_for: Callable[[dict], Any] | None = None
    on_embedder: Callable[[str], None] | None = None

    def info(self, collection: str) -> dict:
        info = self.store.collection_info(collection)
        if info is None:
            raise self.store.no_collection(collection)
        return info

    def shared_floor(self, collections: Sequence[str]) -> tuple[float, str] | None:
        """The one cosine floor two compared collections are measured at (None for one)."""
        if len(collections) != 2:
            return None
        return shared_threshold(self.settings.threshold, self.store.collection_info(collections[0]),
                                self.store.collection_info(collections[1]))

    def gate_params(self, info: dict, shared: tuple[float, str] | None = None) -> Any:
        from rag.answer.gate import resolve_params

        params = resolve_params(shared[0] if shared else self.settings.threshold, info, info.get("embedding_model"),
                                self.settings.min_coverage)
        return replace(params, source=shared[1]) if shared else params

    def run(self, collection: str, shared: tuple[float, str] | None = None,
            progress: ProgressFn | None = None) -> dict[str, Any]:
        from rag.answer.retrieve import retrieve_options

        info = self.info(collection)
        if self.embedder_for is not None:
            embedder = self.embedder_for(info)
        else:
            # The model that built the collection, whatever RAG_EMBED_MODEL says: two collections
            # built with two models are compared with one embedder each.
            from rag.embeddings.resolve import embedder_for_collection

            embedder, sentence = embedder_for_collection(self.settings, info, follow_collection=True)
            if self.on_embedder is not None:
                self.on_embedder(sentence)
        return run_eval(
            self.questions, self.store, embedder, collection, top_k=self.top_k or self.settings.top_k,
            mode=self.mode, with_llm=self.with_llm, llm=self.llm, settings=self.settings, progress=progress,
            groups=self.groups, question_set=self.question_set, gate_params=self.gate_params(info, shared),
            retrieve_options=retrieve_options(self.settings),
        )
