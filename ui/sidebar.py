"""The shared sidebar: is LM Studio answering, which Qdrant, which collection, session overrides."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag.config import normalize_base_url
from rag.errors import ConfigError
from rag.index.ingest import embedded_size_note
from rag.answer.retrieve import RETRIEVAL_MODES
from ui.present.safe_markdown import escape_link_text
from rag.index.store import Store
from rag.answer.threshold import default_threshold
from ui import resources


def _llm_lines(llm: dict[str, Any]) -> None:
    if not llm["reachable"]:
        st.markdown(f":red-badge[:material/error: not answering] **LM Studio** at `{llm['url']}`")
        if llm.get("error"):
            st.caption(llm["error"])
        return
    st.markdown(f":green-badge[:material/check_circle: answering] **LM Studio** at `{llm['url']}`")
    for label, group in (("chat", llm["chat_models"]), ("embeddings", llm["embedding_models"])):
        if not group:
            st.caption(f"{label}: no model loaded")
        for m in group:
            ctx = f", context {m['context_length']}" if m.get("context_length") else ""
            st.caption(f"{label}: `{m['id']}`{ctx}")


def _collection_lines(info: dict[str, Any] | None, name: str, embedded: bool) -> None:
    if not info:
        st.caption(f"`{name}` does not exist yet: load the demo corpus or ingest a source.")
        return
    threshold = info.get("threshold")
    shown = (f"{threshold:.3f} (calibrated)" if threshold is not None
             else f"{default_threshold(info.get('embedding_model')):.3f} (model default)")
    st.caption(
        f"{info.get('points', 0)} points · model `{info.get('embedding_model')}` "
        f"({info.get('dimension')} dims) · strategy `{info.get('strategy')}` · threshold {shown}"
    )
    note = embedded_size_note(int(info.get("points") or 0)) if embedded else None
    if note:
        st.caption(f":orange-badge[large] {note[0].upper()}{note[1:]}.")


def _synced(widget: Any, label: str, name: str, **kwargs: Any) -> Any:
    """A widget editing the session value `name`.

    The value lives under its own session key, not the widget's: Streamlit drops a widget-owned
    value in any run that does not draw the widget, and forbids changing it once the widget is
    drawn. The widget is set from that value before it is drawn, so a page may change the value
    (a new collection).
    """
    key = f"sidebar_{name}"
    st.session_state[key] = st.session_state[name]

    def copy() -> None:
        st.session_state[name] = st.session_state[key]

    return widget(label, key=key, on_change=copy, **kwargs)


def render(settings: Any, store: Store | None, caption: str) -> None:
    status = resources.status(settings, store)
    with st.sidebar:
        st.caption(escape_link_text(caption))
        _llm_lines(status["llm"])
        q = status["qdrant"]
        where = "embedded" if q["backend"] == "embedded" else "server"
        badge = ":green-badge[:material/check_circle: open]" if q["reachable"] else ":red-badge[:material/error: unavailable]"
        st.markdown(f"{badge} **Qdrant** {where}: `{q['location']}`")
        if q.get("error"):
            st.caption(q["error"])
        infos = {c["name"]: c for c in q.get("collections") or []}
        current = st.session_state[resources.COLLECTION]
        names = sorted(set(infos) | {current})
        _synced(st.selectbox, "Collection", resources.COLLECTION, options=names)
        _collection_lines(infos.get(st.session_state[resources.COLLECTION]), st.session_state[resources.COLLECTION],
                          q["backend"] == "embedded")
        with st.expander("Session settings"):
            _synced(st.text_input, "LM Studio URL", resources.LLM_URL, help="with or without /v1; this session only")
            try:
                normalize_base_url(st.session_state[resources.LLM_URL])
            except ConfigError as exc:
                st.error(str(exc))
            _synced(st.number_input, "Passages retrieved (top k)", resources.TOP_K, min_value=1, max_value=30, step=1)
            _synced(
                st.number_input, "Score threshold", resources.THRESHOLD, min_value=0.0, max_value=1.0, step=0.01,
                format="%.3f", placeholder="the collection's",
                help="empty: the collection's calibrated value, else the model's default",
            )
            _synced(st.selectbox, "Retrieval", resources.MODE, options=list(RETRIEVAL_MODES),
                    help="auto = hybrid (dense + BM25) when the collection has BM25 vectors")
