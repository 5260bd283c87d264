"""Contextual enrichment: a short context prepended to each chunk before it is embedded.

The context goes into the embedded text and the BM25 text, never into the cited body: the
payload's `text` stays the chunk's exact slice of the document, and the context is kept apart
(payload key `context`). A collection is built with one mode, recorded in its metadata like the
strategy: re-runs follow it, and another mode needs --full.

New collections default to `auto` (rag.enrich.auto): `lead` or `none` decided on the first
documents of the first run and recorded like an explicit choice.

Modes: `none`; `lead` (the heading trail and the article's lead paragraph, no model); `llm`
(one or two sentences from the chat model that situate the chunk in its article); `questions`
(the questions the chunk answers and its keywords, from the chat model).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable

from rag.i18n import t
from rag.i18n.numbers import duration, integer
from rag.chunking.base import Chunk
from rag.config import Settings
from rag.documents import Document
from rag.enrich.auto import AUTO, AutoChoice, choose_from
from rag.enrich.cache import ContextCache
from rag.enrich.lead import lead_context, lead_paragraph
from rag.enrich.model import ModelContexts
from rag.errors import ConfigError, LLMError

NONE, LEAD, LLM, QUESTIONS = "none", "lead", "llm", "questions"
MODES = (NONE, LEAD, LLM, QUESTIONS)
MODEL_MODES = (LLM, QUESTIONS)
CHOICES = (AUTO, *MODES)  # what a user may ask for: a mode, or `auto` (decided by the documents)
DEFAULT_MODE = AUTO

__all__ = [
    "MODES", "MODEL_MODES", "NONE", "LEAD", "LLM", "QUESTIONS", "AUTO", "CHOICES", "DEFAULT_MODE", "EnrichStats",
    "Enricher", "enrichment_summary", "make_enricher", "resolve_enrichment", "enriched_text", "built_mode",
    "recorded_choice", "enrichment_words", "prepare_enricher", "choice_summary",
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

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        return data

    def summary(self) -> str:
        return enrichment_summary(self.to_dict())


def enrichment_summary(stats: dict[str, Any]) -> str:
    """One line for the CLI: how many contexts, and what the chat model's cost."""
    if stats.get("mode") not in MODEL_MODES:
        return t("enrich.summary", mode=stats.get("mode"), n=stats.get("chunks", 0))
    return t("enrich.summary_model", mode=stats["mode"], model=stats.get("model"), n=stats.get("chunks", 0),
             cached=stats.get("cached", 0), generated=stats.get("generated", 0),
             prompt=integer(stats.get("prompt_tokens", 0)), answer=integer(stats.get("completion_tokens", 0)),
             time=duration(stats.get("seconds", 0), 1))


def choice_summary(choice: dict[str, Any]) -> str:
    """One line for the run's report: the mode `auto` chose for a new collection, and why."""
    chosen = AutoChoice.from_dict(choice)
    return t("enrich.auto_summary", mode=chosen.mode, reason=chosen.reason()) if chosen else ""


def enriched_text(chunk: Chunk, context: str) -> str:
    """What is embedded and indexed for BM25: the chunk's header, its context, then its body."""
    parts = [part for part in (chunk.header, context, chunk.text) if part]
    return "\n\n".join(parts)


class Enricher:
    """Writes each chunk's context for one mode, and counts what it cost."""

    def __init__(self, mode: str, model_contexts: ModelContexts | None = None) -> None:
        if mode not in CHOICES:
            raise ConfigError(t("enrich.unknown", mode=repr(mode), modes=", ".join(CHOICES)))
        self.mode = mode  # AUTO: not decided yet; the run replaces it (prepare_enricher)
        self.model_contexts = model_contexts
        self.stats = EnrichStats(mode, model_contexts.model if model_contexts else None)
        self.choice: AutoChoice | None = None  # how `auto` decided, this run or the collection's first
        self.chosen_now = False

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
            raise ConfigError(t("enrich.undecided"))
        if self.mode == NONE:
            return ["" for _ in chunks]
        self.stats.chunks += len(chunks)
        if self.mode == LEAD:
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
        """What the collection records about its enrichment (and, when `auto` chose it, on what)."""
        recorded: dict[str, Any] = {"mode": self.mode, "model": self.model}
        if self.choice is not None:
            recorded["chosen"] = self.choice.to_dict()
        return recorded


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


def recorded_choice(info: dict[str, Any] | None) -> AutoChoice | None:
    """How `auto` chose a collection's mode, when it did (None: an explicit choice, or older)."""
    recorded = (info or {}).get("enrichment")
    return AutoChoice.from_dict(recorded.get("chosen")) if isinstance(recorded, dict) else None


def enrichment_words(info: dict[str, Any] | None) -> str:
    """", enrichment lead" for `rag status`, with why when `auto` chose it; "" for none chosen by hand."""
    mode, choice = built_mode(info), recorded_choice(info)
    if choice is not None and choice.mode == mode:
        return t("status.enrichment_auto", mode=mode, reason=choice.reason())
    return "" if mode == NONE else t("status.enrichment", mode=mode)


def resolve_enrichment(info: dict[str, Any] | None, requested: str | None, full: bool) -> str:
    """The mode a run uses: the requested one, else the collection's own, else AUTO for a new
    collection (or a rebuild). A built collection keeps its mode: mixing contexts of two modes
    would make its record, and evaluations, lie. Asking for `auto` is asking for the default."""
    if requested is not None and requested not in CHOICES:
        raise ConfigError(t("enrich.unknown", mode=repr(requested), modes=", ".join(CHOICES)))
    built = built_mode(info) if (info or {}).get("points") else None
    if requested is None or requested == AUTO:
        return built if built and not full else DEFAULT_MODE
    if built is not None and not full and built != requested:
        name = (info or {}).get("name") or t("enrich.the_collection")
        raise ConfigError(t("enrich.other", name=repr(name), built=built, requested=requested))
    return requested


def prepare_enricher(info: dict[str, Any] | None, enricher: Enricher | None, items: Any, full: bool,
                     collection: str) -> tuple[Any, Enricher]:
    """The items and the enricher a run uses. `auto` reads the first documents of `items` and
    decides (they come back whole); a collection that `auto` built keeps its record, so that its
    later runs, and `rag status`, still say why. No enricher: the collection's own mode, else
    none (a library caller, a benchmark measuring one mode, gets what it names; the command
    line, the Ingest page and the demo ask for `auto`). ConfigError: another mode than the
    collection's without `full`, or a model mode without its enricher."""
    mode = resolve_enrichment(info, enricher.mode if enricher is not None else None, full)
    if mode == AUTO and enricher is None:
        mode = NONE
    choice, chosen_now = None, False
    if mode == AUTO:
        items, choice = choose_from(items)
        mode, chosen_now = choice.mode, True
    elif not full and built_mode(info) == mode:
        choice = recorded_choice(info)
    if enricher is None or enricher.mode != mode:
        if mode in MODEL_MODES:
            raise ConfigError(t("ingest.needs_enricher", name=repr(collection), mode=mode))
        enricher = make_enricher(mode)
    enricher.choice, enricher.chosen_now = choice, chosen_now
    return items, enricher
