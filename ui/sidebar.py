"""The shared sidebar: is LM Studio answering, which Qdrant, which collection, session overrides."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag.config import DEFAULT_LLM_URL, normalize_base_url
from rag.embeddings.embedded import MODEL_ID as EMBEDDED_MODEL_ID
from rag.embeddings.resolve import EMBEDDED
from rag.errors import ConfigError
from rag.redact import strip_userinfo
from rag.store.collection_size import embedded_size_note
from rag.answer.retrieve import RETRIEVAL_MODES
from ui.present.safe_markdown import escape_link_text
from rag.store.store import Store
from rag.answer.threshold import default_threshold
from ui import lang
from ui import resources
from rag.i18n.numbers import read_decimal, threshold_text
from ui.i18n import formatter, t, tn
from ui.kept import kept


def questions_model(info: dict[str, Any] | None, settings: Any, llm: dict[str, Any]) -> str | None:
    """The embedding model the questions on the collection are searched with: the one that built
    it, else the one a new collection gets (RAG_EMBED_MODEL; unset, LM Studio's embedding model
    when it serves one, else the bundled one). None: a server at another address decides."""
    built = (info or {}).get("embedding_model")
    if built:
        return str(built)
    choice = (settings.embed_model or "").strip()
    if choice.lower() == EMBEDDED:
        return EMBEDDED_MODEL_ID
    if choice:
        return choice
    if settings.embed_url != settings.llm_url:
        return None
    return llm.get("embedding_pick") or EMBEDDED_MODEL_ID  # LM Studio down or without one: the bundled model


def needs_lmstudio_embeddings(model: str | None, settings: Any) -> bool:
    """Whether the questions' embedding model is LM Studio's (the chat server's): then its
    embedding models, and LM Studio answering at all, decide whether questions can be searched."""
    return model is not None and model != EMBEDDED_MODEL_ID and settings.embed_url == settings.llm_url


def _model_captions(label: str, group: list[dict[str, Any]]) -> None:
    if not group:
        st.caption(t("side.no_model", what=label))
    for m in group:
        ctx = f" · {t('side.context', n=m['context_length'])}" if m.get("context_length") else ""
        st.caption(f"{label} · `{m['id']}`{ctx}")


def _embedding_lines(llm: dict[str, Any], model: str | None, server_needed: bool) -> None:
    """Which model the questions are embedded with. The bundled one runs here: LM Studio's
    embedding models are then beside the point ("none loaded" read as a fault)."""
    if model == EMBEDDED_MODEL_ID:
        st.caption(t("side.embed_bundled", model=f"`{EMBEDDED_MODEL_ID.split(':', 1)[1]}`"))
        return
    group = llm["embedding_models"]
    _model_captions(t("side.embeddings"), group)
    if not server_needed or model in {m["id"] for m in group}:
        return
    shown = f"`{model}`"
    if model not in {m["id"] for m in llm.get("embedding_not_loaded") or []}:
        st.caption(f":orange-badge[:material/warning:] {t('side.embed_missing', model=shown)}")
    elif llm.get("loads_on_demand"):
        # Downloaded, not loaded: LM Studio's Just-In-Time loading loads it for the first question.
        st.caption(t("side.embed_on_demand", model=shown))
    elif llm.get("loads_on_demand") is False:
        st.caption(f":orange-badge[:material/warning:] {t('side.embed_not_loaded', model=shown, id=model)}")
    else:
        st.caption(t("side.embed_maybe_on_demand", model=shown, id=model))


def _llm_lines(llm: dict[str, Any], editor: bool, model: str | None = None, server_needed: bool = False) -> None:
    """Is the chat model answering; its address, its models and how to start it for editors only
    (a reader can do nothing with them). `model`: the questions' embedding model; `server_needed`:
    it is LM Studio's, so without LM Studio questions cannot even be searched."""
    where = f" `{strip_userinfo(llm['url'])}`" if editor else ""
    if not llm["reachable"]:
        st.markdown(f":red-badge[:material/error: {t('side.llm_down')}] **LM Studio**{where}")
        st.caption(t("side.llm_down_search" if server_needed else "side.llm_down_short"))
        if editor:
            with st.expander(t("side.help")):
                st.markdown(lmstudio_steps(strip_userinfo(llm["url"])))
                if llm.get("error"):
                    st.caption(t("side.help_error"))
                    st.caption(llm["error"])
        return
    st.markdown(f":green-badge[:material/check_circle: {t('side.llm_up')}] **LM Studio**{where}")
    if not editor:
        return
    _model_captions(t("side.chat"), llm["chat_models"])
    _embedding_lines(llm, model, server_needed)


def lmstudio_steps(url: str) -> str:
    """The steps that get LM Studio answering at `url`, as a numbered list (Markdown)."""
    # The default address is named only when another one is expected: said twice, it read as two.
    address = "side.step_address" if url.rstrip("/") == DEFAULT_LLM_URL else "side.step_address_other"
    return "\n".join(f"{i}. {t(key, url=url, default=DEFAULT_LLM_URL)}" for i, key in
                      enumerate(("side.step_load", "side.step_server", address), start=1))


def threshold_line(info: dict[str, Any], session_threshold: float | None) -> str:
    """Which threshold questions on this collection use now, and where it comes from."""
    if session_threshold is not None:
        return t("side.threshold_session", value=threshold_text(session_threshold))
    if info.get("threshold") is not None:
        return t("side.threshold_calibrated", value=threshold_text(info["threshold"]))
    return t("side.threshold_default", value=threshold_text(default_threshold(info.get("embedding_model"))))


def _collection_lines(info: dict[str, Any] | None, name: str, embedded: bool, editor: bool) -> None:
    if not info:
        st.caption(t("side.no_collection", name=escape_link_text(name)) if editor
                   else t("side.nothing_to_read", name=escape_link_text(name)))
        return
    points = tn("count.passages", int(info.get("points") or 0))
    if not editor:  # how it was cut, its threshold and its model are the editors' business
        st.caption(points)
        return
    st.caption(t("side.points", points=points, strategy=info.get("strategy")) + " · "
               + threshold_line(info, st.session_state.get(resources.THRESHOLD)))
    st.caption(t("side.model", model=f"`{info.get('embedding_model')}`", dims=info.get("dimension")))
    note = embedded_size_note(int(info.get("points") or 0)) if embedded else None
    if note:
        st.caption(f":orange-badge[:material/speed:] {note[0].upper()}{note[1:]}.")


def collection_to_open(current: str, configured: str, infos: dict[str, dict[str, Any]]) -> str:
    """The session's collection: the one it names when that exists; else (a fresh session whose
    configured collection was never made, an address naming a deleted one) the configured one if
    it holds documents, else the one holding the most. When none holds any, the one it names:
    where the first source goes (the Ingest page offers to create it)."""
    if current in infos:
        return current
    if (infos.get(configured) or {}).get("points"):
        return configured
    full = [c for c in infos.values() if c.get("points")]
    return min(full, key=lambda c: (-int(c["points"]), c["name"]))["name"] if full else current


def _synced(widget: Any, label: str, name: str, **kwargs: Any) -> Any:
    """A widget editing the session value `name` (see ui.kept)."""
    return kept(widget, label, name, f"sidebar_{name}", **kwargs)


def _url_field() -> None:
    """The LM Studio URL, shown without a password typed into it; the password is kept unless
    the editor types another URL."""
    key = f"sidebar_{resources.LLM_URL}"
    st.session_state[key] = strip_userinfo(st.session_state[resources.LLM_URL] or "")

    def copy() -> None:
        typed = st.session_state[key]
        if typed != strip_userinfo(st.session_state[resources.LLM_URL] or ""):
            st.session_state[resources.LLM_URL] = typed

    st.text_input(t("side.llm_url"), key=key, on_change=copy, help=t("side.llm_url_help"))
    try:
        normalize_base_url(st.session_state[resources.LLM_URL])
    except ConfigError as exc:
        st.error(strip_userinfo(str(exc)))


_TYPED_THRESHOLD = "sidebar_threshold_typed"  # what was typed and could not be read, kept to correct
# Streamlit writes "Press Enter to apply" under a field being typed in, in English whatever the
# page's language; the field's help says it in the reader's (Enter, or leaving the field, applies).
_NO_ENGLISH_HINT = ("<style>.st-key-sidebar_threshold [data-testid='InputInstructions'] {display: none;}</style>")


def _threshold_field() -> None:
    """The session's score threshold, typed as the reader writes a decimal: 0,85 or 0.85. A number
    input took the comma for nothing ("0,85" became "085") and told why in English only. Text that
    is not a threshold is kept on screen with a sentence saying what to type; the threshold in use
    is unchanged until it is."""
    key = f"sidebar_{resources.THRESHOLD}"
    typed = st.session_state.get(_TYPED_THRESHOLD)
    if typed is None:
        value = st.session_state.get(resources.THRESHOLD)
        st.session_state[key] = "" if value is None else threshold_text(value)
    else:
        st.session_state[key] = typed

    def read() -> None:
        text = st.session_state[key]
        try:
            value = read_decimal(text)
        except ValueError:
            value = -1.0
        if value is not None and not 0.0 <= value <= 1.0:
            st.session_state[_TYPED_THRESHOLD] = text
            return
        st.session_state[_TYPED_THRESHOLD] = None
        st.session_state[resources.THRESHOLD] = value

    st.html(_NO_ENGLISH_HINT)  # style only: Streamlit adds it without taking room
    st.text_input(t("side.threshold"), key=key, on_change=read, placeholder=t("side.threshold_placeholder"),
                  help=t("side.threshold_help"))
    if typed is not None:
        st.error(t("side.threshold_bad", typed=typed, example=threshold_text(0.85)))


def render(settings: Any, store: Store | None, caption: str, warning: str | None = None) -> None:
    status = resources.status(settings, store)
    editor = resources.can_edit()
    with st.sidebar:
        lang.switch()
        st.caption(escape_link_text(caption))
        if warning:
            st.warning(warning, icon=":material/warning:")
        q = status["qdrant"]
        # A reader sees the collections they can read something in, counted as they see them.
        collections = resources.readable_collections(settings, store, q.get("collections") or [], resources.groups())
        infos = {c["name"]: c for c in collections}
        current_name = collection_to_open(st.session_state[resources.COLLECTION],
                                          resources.base_settings().collection, infos)
        st.session_state[resources.COLLECTION] = current_name
        # Only collections that exist, but while none holds documents the one to create first.
        names = sorted(set(infos) | {current_name})
        here = next((c for c in q.get("collections") or [] if c["name"] == current_name), None)
        model = questions_model(here, settings, status["llm"])
        _llm_lines(status["llm"], editor, model, needs_lmstudio_embeddings(model, settings))
        where = t("side.embedded") if q["backend"] == "embedded" else t("side.server")
        badge = (f":green-badge[:material/check_circle: {t('side.qdrant_open')}]" if q["reachable"]
                 else f":red-badge[:material/error: {t('side.qdrant_down')}]")
        # The folder or server address is the editors'; a reader only needs to know it works.
        st.markdown(f"{badge} **Qdrant** {where} `{q['location']}`" if editor else f"{badge} **Qdrant**")
        if q.get("error") and editor:
            with st.expander(t("details")):
                st.caption(q["error"])
        _synced(st.selectbox, t("side.collection"), resources.COLLECTION, options=names, placeholder=t("select.choose"))
        _collection_lines(infos.get(st.session_state[resources.COLLECTION]), st.session_state[resources.COLLECTION],
                          q["backend"] == "embedded", editor)
        if not editor:
            return
        with st.expander(t("side.settings")):
            _url_field()
            _synced(st.number_input, t("side.top_k"), resources.TOP_K, min_value=1, max_value=30, step=1)
            _threshold_field()
            _synced(st.selectbox, t("side.mode"), resources.MODE, options=list(RETRIEVAL_MODES),
                    format_func=formatter(RETRIEVAL_MODES, lambda m: f"mode.{m}"), help=t("side.mode_help"),
                    placeholder=t("select.choose"))
