"""Contextual enrichment: a short context prepended to each chunk before it is embedded.

The context goes into the embedded text and the BM25 text, never into the cited body: the
payload's `text` stays the chunk's exact slice of the document, and the context is kept apart
(payload key `context`). A collection is built with one mode, recorded in its metadata like the
strategy: re-runs follow it, and another mode needs --full.

Modes: `auto`, the default of a new collection (rag.enrich.auto: `lead` for each document that
has sections, nothing for one that has none); `none`; `lead` (the heading trail and the article's
lead paragraph, no model); `llm` (one or two sentences from the chat model that situate the chunk
in its article); `questions` (the questions the chunk answers and its keywords, from the chat
model).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable

from rag.i18n import t
from rag.i18n.numbers import duration, integer
from rag.chunking.base import Chunk
from rag.config import Settings
from rag.documents import Document
from rag.enrich.auto import AUTO, has_sections
from rag.enrich.cache import ContextCache
from rag.enrich.lead import lead_context, lead_paragraph
from rag.enrich.model import ModelContexts
from rag.errors import ConfigError, LLMError

NONE, LEAD, LLM, QUESTIONS = "none", "lead", "llm", "questions"
MODES = (AUTO, NONE, LEAD, LLM, QUESTIONS)
MODEL_MODES = (LLM, QUESTIONS)
# Of a new collection built by the command line, the Ingest page or the demo. Measured with the
# retrieval's defaults (six articles, then the top articles' own passages; benchmarks/README.md
# 4c): `auto` (lead for the documents in sections) is ahead on one docs-fr set and behind on the
# other, never tuned to (4 answers of 40 fewer in the context), and costs the demo one question:
# `none`. `auto` stays one choice away.
DEFAULT_MODE = NONE

__all__ = [
    "MODES", "MODEL_MODES", "NONE", "LEAD", "LLM", "QUESTIONS", "DEFAULT_MODE", "EnrichStats",
    "Enricher", "enrichment_summary", "make_enricher", "resolve_enrichment", "enriched_text", "built_mode",
    "enrichment_words", "prepare_enricher", "fit_context",
]


@dataclass
class EnrichStats:
    """What enrichment cost in a run: contexts generated or read from the cache, tokens, time."""

    mode: str
    model: str | None = None
    chunks: int = 0
    cached: int = 0
    generated: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    documents: int = 0  # auto: the documents it saw, and those with sections (given lead)
    sectioned: int = 0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        return data

    def summary(self) -> str:
        return enrichment_summary(self.to_dict())


def enrichment_summary(stats: dict[str, Any]) -> str:
    """One line for the CLI: how many contexts, and what the chat model's cost."""
    if stats.get("mode") == AUTO:
        return t("enrich.summary_auto", k=stats.get("sectioned", 0), n=stats.get("documents", 0),
                 chunks=stats.get("chunks", 0))
    if stats.get("mode") not in MODEL_MODES:
        return t("enrich.summary", mode=stats.get("mode"), n=stats.get("chunks", 0))
    return t("enrich.summary_model", mode=stats["mode"], model=stats.get("model"), n=stats.get("chunks", 0),
             cached=stats.get("cached", 0), generated=stats.get("generated", 0),
             prompt=integer(stats.get("prompt_tokens", 0)), answer=integer(stats.get("completion_tokens", 0)),
             time=duration(stats.get("seconds", 0), 1))


def enriched_text(chunk: Chunk, context: str) -> str:
    """What is embedded and indexed for BM25: the chunk's header, its context, then its body."""
    parts = [part for part in (chunk.header, context, chunk.text) if part]
    return "\n\n".join(parts)


def fit_context(chunk: Chunk, context: str, count: Callable[[str], int], window: int | None) -> str:
    """`context`, shortened from its end so that the embedded text stays within the model's
    `window` (tokens by `count`): the body is what is cited and is embedded whole; the context,
    a help to find it, yields. The chunks were already cut to the window without it."""
    if not context or not window or count(enriched_text(chunk, context)) <= window:
        return context
    words = context.split(" ")
    kept, over = 0, len(words)  # the most words that fit, by halving
    while over - kept > 1:
        middle = (kept + over) // 2
        if count(enriched_text(chunk, " ".join(words[:middle]))) <= window:
            kept = middle
        else:
            over = middle
    return " ".join(words[:kept]).rstrip()


class Enricher:
    """Writes each chunk's context for one mode, and counts what it cost."""

    def __init__(self, mode: str, model_contexts: ModelContexts | None = None) -> None:
        if mode not in MODES:
            raise ConfigError(t("enrich.unknown", mode=repr(mode), modes=", ".join(MODES)))
        self.mode = mode
        self.model_contexts = model_contexts
        self.stats = EnrichStats(mode, model_contexts.model if model_contexts else None)

    @property
    def model(self) -> str | None:
        return self.model_contexts.model if self.model_contexts else None

    def contexts(
        self, doc: Document, chunks: list[Chunk], document_hash: str | None = None,
        progress: Callable[[], None] | None = None,
    ) -> list[str]:
        """One context per chunk ("" with mode none). EnrichmentError when the model fails.
        `progress` is called after each context the model wrote (a long article takes minutes)."""
        if self.mode == AUTO:
            self.stats.documents += 1
            if not has_sections(doc.markdown):
                return ["" for _ in chunks]
            self.stats.sectioned += 1
        if self.mode == NONE:
            return ["" for _ in chunks]
        self.stats.chunks += len(chunks)
        if self.mode in (LEAD, AUTO):
            lead = lead_paragraph(doc.markdown)
            return [lead_context(doc.title, doc.markdown, c, lead) for c in chunks]
        assert self.model_contexts is not None
        document_hash = document_hash or doc.content_hash
        out = []
        for chunk in chunks:
            got = self.model_contexts.context(doc, document_hash, chunk)
            if got.cached:
                self.stats.cached += 1
            else:
                self.stats.generated += 1
                self.stats.prompt_tokens += got.prompt_tokens
                self.stats.completion_tokens += got.completion_tokens
                self.stats.seconds += got.seconds
                if progress is not None:
                    progress()
            out.append(got.context)
        return out

    def close(self) -> None:
        """Release the chat client this enricher opened (a page makes one per run)."""
        if self.model_contexts is not None and self.model_contexts.owns_llm:
            self.model_contexts.llm.close()

    def metadata(self) -> dict[str, Any]:
        """What the collection records about its enrichment."""
        return {"mode": self.mode, "model": self.model}


def make_enricher(mode: str | None, settings: Any = None, llm: Any = None, language: str | None = None) -> Enricher:
    """The enricher for `mode`. The model modes need a chat model loaded now: without one this
    is a ConfigError that says so, before anything is read or written. Their prompt is in
    `language` ("fr" or "en"), else in each article's own (French when unsure)."""
    mode = mode or NONE
    if mode not in MODEL_MODES:
        return Enricher(mode)
    settings = settings if settings is not None else Settings.from_env()
    owns_llm = llm is None
    if llm is None:
        from rag.servers.chat import LLMClient

        llm = LLMClient.from_settings(settings)
    try:
        model, context_length = llm.model_and_context()
    except LLMError as exc:
        if owns_llm:
            llm.close()
        raise ConfigError(t("enrich.needs_model", mode=repr(mode), error=exc)) from exc
    cache = ContextCache(settings.data_dir / "cache" / "enrichment")
    contexts = ModelContexts(mode, llm, model, context_length, cache, language)
    contexts.owns_llm = owns_llm
    return Enricher(mode, contexts)


def built_mode(info: dict[str, Any] | None) -> str:
    """The enrichment a collection was built with (collections made before it existed: none)."""
    recorded = (info or {}).get("enrichment")
    mode = recorded.get("mode") if isinstance(recorded, dict) else recorded
    return mode if mode in MODES else NONE


def enrichment_words(mode: str) -> str:
    """", enrichment lead" for `rag status` and the run's first line, with what `auto` does; "" for none."""
    if mode == AUTO:
        return t("status.enrichment_auto")
    return "" if mode == NONE else t("status.enrichment", mode=mode)


def resolve_enrichment(info: dict[str, Any] | None, requested: str | None, full: bool) -> str:
    """The mode a run uses: the requested one, else the collection's own, else DEFAULT_MODE for a
    new collection (or a rebuild). A built collection keeps its mode: mixing contexts of two modes
    would make its record, and evaluations, lie."""
    if requested is not None and requested not in MODES:
        raise ConfigError(t("enrich.unknown", mode=repr(requested), modes=", ".join(MODES)))
    built = built_mode(info) if (info or {}).get("points") else None
    if requested is None:
        return built if built and not full else DEFAULT_MODE
    if built is not None and not full and built != requested:
        name = (info or {}).get("name") or t("enrich.the_collection")
        raise ConfigError(t("enrich.other", name=repr(name), built=built, requested=requested))
    return requested


def prepare_enricher(info: dict[str, Any] | None, enricher: Enricher | None, full: bool, collection: str) -> Enricher:
    """The enricher a run uses. No enricher: the collection's own mode, else none (a library
    caller, a benchmark measuring one mode, gets what it names; the command line, the Ingest page
    and the demo pass their own, DEFAULT_MODE for a new collection). ConfigError: another mode than the collection's
    without `full`, or a model mode without its enricher."""
    if enricher is not None:
        resolve_enrichment(info, enricher.mode, full)
        return enricher
    built = built_mode(info) if (info or {}).get("points") and not full else NONE
    if built in MODEL_MODES:
        raise ConfigError(t("ingest.needs_enricher", name=repr(collection), mode=built))
    return make_enricher(built)
