"""The ingest page's enrichment: which context goes before each chunk, a preview of it per
chunk before indexing, and what writing it cost."""

from __future__ import annotations

import hashlib
from typing import Any, Mapping, Sequence

import streamlit as st

from rag.chunking.base import Chunk
from rag.documents import Document
from rag.enrich.auto import AUTO
from rag.enrich import DEFAULT_MODE, MODEL_MODES, MODES, NONE, built_mode, fit_context, make_enricher
from rag.enrich.auto import has_sections, sectioned_count
from rag.errors import RagError
from ui import lang
from rag.i18n.numbers import duration, integer
from ui.i18n import formatter, t
from ui.present.safe_markdown import escape_link_text

MODE_KEY = "target_enrichment"
PREVIEW = "enrichment_preview"


def choose(info: Mapping[str, Any] | None, column: Any) -> str:
    """The mode to index with: the collection's own by default, DEFAULT_MODE for a new one."""
    default = built_mode(info) if info and info.get("points") else DEFAULT_MODE
    return column.selectbox(t("enr.mode"), MODES, index=MODES.index(default), key=MODE_KEY,
                            format_func=formatter(MODES, lambda m: f"enr.{m}"), help=t("enr.help"),
                            placeholder=t("select.choose"))


def plan(mode: str, items: Sequence[Any], column: Any) -> None:
    """With `auto`, which of these documents will get a context, said under the choice."""
    if mode == AUTO:
        sectioned, documents = sectioned_count(items)
        column.caption(t("enr.auto_plan", k=sectioned, n=documents))


def mismatch(info: Mapping[str, Any] | None, mode: str, name: str) -> bool:
    """True (and said) when a built collection has another enrichment: indexing needs a rebuild."""
    if not info or not info.get("points") or built_mode(info) == mode:
        return False
    st.warning(t("enr.mismatch", name=escape_link_text(name), built=t(f"enr.{built_mode(info)}"),
                 wanted=t(f"enr.{mode}")), icon=":material/warning:")
    return True


def _key(document: Document, chunks: Sequence[Chunk], mode: str) -> str:
    digest = hashlib.sha256(document.content_hash.encode())
    for chunk in chunks:
        digest.update(chunk.text.encode("utf-8"))
    return f"{mode}:{digest.hexdigest()}"


def preview(document: Document, chunks: Sequence[Chunk], mode: str, settings: Any,
            window: tuple[Any, int | None] | None = None) -> None:
    """Each chunk's context for `mode`; with the chat model only on request (it costs a call
    a chunk, cached for the indexing that follows)."""
    if mode == NONE or not chunks or (mode == AUTO and not has_sections(document.markdown)):
        return
    with st.expander(t("enr.preview", n=len(chunks), title=document.title)):
        if mode in MODEL_MODES:
            key = _key(document, chunks, mode)
            kept = st.session_state.get(PREVIEW)
            if not (kept and kept[0] == key):
                st.caption(t("enr.preview_cost"))
                if not st.button(t("enr.write", n=len(chunks)), key="enrich_preview"):
                    return
                try:
                    enricher = make_enricher(mode, settings)
                except RagError as exc:
                    lang.error(t("enr.failed"), str(exc))
                    return
                try:
                    with st.spinner(t("enr.writing")):
                        contexts = enricher.contexts(document, list(chunks))
                except RagError as exc:
                    lang.error(t("enr.failed"), str(exc))
                    return
                finally:
                    enricher.close()
                kept = st.session_state[PREVIEW] = (key, contexts, enricher.stats.to_dict())
            contexts, stats = kept[1], kept[2]
            st.caption(cost_line(stats))
        else:
            contexts = make_enricher(mode).contexts(document, list(chunks))
        if window is not None:  # as indexed: a context yields to the body at the model's window
            contexts = [fit_context(c, ctx, *window) for c, ctx in zip(chunks, contexts)]
        # Contexts are the model's (or the article's) text: shown in a table, never as Markdown.
        st.dataframe([{"#": c.index, t("enr.section"): c.section, t("enr.context"): ctx}
                      for c, ctx in zip(chunks, contexts)], hide_index=True, key="enrichment_contexts")


def cost_line(stats: Mapping[str, Any]) -> str:
    if stats.get("mode") not in MODEL_MODES:
        return t("enr.cost_free", n=stats.get("chunks", 0), mode=stats.get("mode"))
    return t("enr.cost", n=stats.get("chunks", 0), cached=stats.get("cached", 0),
             generated=stats.get("generated", 0), prompt=integer(stats.get("prompt_tokens", 0)),
             answer=integer(stats.get("completion_tokens", 0)), time=duration(stats.get("seconds", 0), 1),
             model=stats.get("model"))


def enricher_for(mode: str, settings: Any) -> Any:
    """The enricher for an indexing run, or None with the reason shown (no chat model)."""
    try:
        return make_enricher(mode, settings)
    except RagError as exc:
        lang.error(t("enr.no_model"), str(exc))
        return None
