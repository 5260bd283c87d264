"""Per-process resources (store, embedders, chat client) and per-session settings.

Clients and models are built once per process (st.cache_resource); the status shown in the
sidebar is cached for a few seconds (st.cache_data) so reruns stay cheap. The sidebar's
per-session overrides live in st.session_state under the keys below.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag.auth import access
from rag.answer.engine import AnswerEngine
from rag.journal.recorder import journal_recorder
from rag.config import Settings, normalize_base_url
from rag.embeddings.resolve import embedder_for_collection, resolve_embedder
from rag.errors import ConfigError, RagError, StoreError
from rag.servers.chat import LLMClient
from rag import status as rag_status
from rag.status import gather_status
from rag.store.store import Store
from ui import lang
from rag.i18n import current
from ui.i18n import t

# Session keys of the sidebar's overrides (widget keys too).
LLM_URL, COLLECTION, TOP_K, THRESHOLD, MODE, GROUPS = "llm_url", "collection", "top_k", "threshold", "mode", "groups"
ROLE = "role"  # set by the access gate on every run: "reader" or "editor"
# Set by a page to select a collection on the next run (a widget's key cannot change after it is drawn).
NEXT_COLLECTION = "next_collection"
STATUS_TTL = 10  # seconds


def base_settings() -> Settings:
    try:
        return Settings.from_env()
    except ConfigError as exc:
        lang.error(t("setting.error"), str(exc))
        st.stop()
        raise  # unreachable: st.stop() ends the run


def init_session(base: Settings) -> None:
    """Defaults for the overrides, from the environment, the first time a session runs."""
    defaults: dict[str, Any] = {
        # A reload keeps the collection the page's address names (the sidebar offers only readable ones).
        LLM_URL: base.llm_url, COLLECTION: st.query_params.get("collection") or base.collection, TOP_K: base.top_k,
        THRESHOLD: base.threshold, MODE: "auto",
    }
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    pending = st.session_state.pop(NEXT_COLLECTION, None)
    if pending:
        st.session_state[COLLECTION] = pending


def settings() -> Settings:
    """The environment's settings with this session's overrides applied: an editor's overrides
    only. A reader's session keeps the environment's servers, top k, threshold and mode, whatever
    its state holds; only the collection is theirs to choose."""
    base = base_settings()
    init_session(base)
    state = st.session_state
    if not can_edit():
        return base.replace(collection=state[COLLECTION] or base.collection)
    llm_url = base.llm_url
    try:
        llm_url = normalize_base_url(state[LLM_URL] or base.llm_url)
    except ConfigError:
        pass  # the sidebar shows the error next to the field; keep the environment's URL meanwhile
    embed_url = llm_url if base.embed_url == base.llm_url else base.embed_url
    return base.replace(
        llm_url=llm_url, embed_url=embed_url, collection=state[COLLECTION] or base.collection,
        top_k=int(state[TOP_K] or base.top_k), threshold=state[THRESHOLD],
    )


def role() -> str | None:
    return st.session_state.get(ROLE)


def can_edit() -> bool:
    """Whether this session may change settings (the editor role)."""
    return access.can(role(), access.SETTINGS)


def mode() -> str:
    return (st.session_state.get(MODE) if can_edit() else None) or "auto"


def groups() -> list[str] | None:
    """The signed-in user's access groups (set by the gate); the retrieval filter. None (no
    filter) for an editor only; a session the gate has not seen reads "public" only."""
    if ROLE not in st.session_state:
        return [access.PUBLIC]
    return st.session_state.get(GROUPS)


def _store_key(s: Settings) -> tuple:
    return (str(s.qdrant_path.resolve()), s.qdrant_url, s.qdrant_api_key, s.timeout)


@st.cache_resource(show_spinner=False)
def _store(key: tuple, _settings: Settings) -> Store:
    return Store(_settings)


def store(s: Settings) -> Store:
    """The process's store; a clear stop when the embedded folder is held by another process."""
    try:
        return _store(_store_key(s), s)
    except StoreError as exc:
        lang.error(t("store.error"), str(exc))
        if not s.qdrant_url:
            st.info(t("store.locked_help"))
        st.stop()
        raise


@st.cache_resource(show_spinner=False, ttl=600)
def _collection_embedder(key: tuple, _settings: Settings, _info: dict) -> Any:
    return embedder_for_collection(_settings, _info, follow_collection=True)[0]  # the model that built it


@st.cache_resource(show_spinner=False, ttl=60)
def _new_embedder(key: tuple, _settings: Settings) -> tuple[Any, str]:
    # ttl: in auto mode the answer depends on whether LM Studio runs right now.
    return resolve_embedder(_settings)


def embedder_for(s: Settings, info: dict | None) -> Any:
    """The embedder that can query `info`'s collection (its own model), or the configured one
    for a new collection. Raises RagError when that model is not available."""
    if info and info.get("embedding_model"):
        key = (info.get("embedding_model"), info.get("dimension"), s.embed_url, s.embed_threads)
        return _collection_embedder(key, s, info)
    return new_embedder(s)[0]


def new_embedder(s: Settings) -> tuple[Any, str]:
    return _new_embedder((s.embed_model, s.embed_url, s.embed_threads, s.llm_api_key), s)


@st.cache_resource(show_spinner=False)
def _llm(url: str, model: str | None, api_key: str | None, timeout: float, setting: str) -> LLMClient:
    return LLMClient(url, model=model, api_key=api_key, timeout=timeout, address_setting=setting)


def llm(s: Settings) -> LLMClient:
    # The key only for the server it was configured for: a session's URL never gets it.
    # An address typed in the sidebar is named as such when it does not answer, not RAG_LLM_URL.
    from_sidebar = s.llm_url != base_settings().llm_url
    setting = t("side.url_setting", field=t("side.llm_url")) if from_sidebar else "RAG_LLM_URL"
    return _llm(s.llm_url, s.llm_model, s.api_key_for(s.llm_url), s.timeout, setting)


def answer_engine(s: Settings, st_store: Store, info: dict | None, reader: str = "",
                  recorders: list | None = None) -> AnswerEngine:
    """The answer engine for this session: its collection, embedder, chat model, retrieval mode and
    the reader's groups. Raises RagError when the collection's model is not available."""
    return AnswerEngine(s, st_store, collection=s.collection, info=info or {}, embedder=embedder_for(s, info),
                        llm=llm(s), groups=groups(), mode=mode(), origin="ask",
                        recorders=[journal_recorder(s, reader)] if recorders is None else recorders)


@st.cache_data(ttl=STATUS_TTL, show_spinner=False)
def _status(key: tuple, _settings: Settings, _store: Store | None) -> dict:
    return gather_status(_settings, _store)


def status(s: Settings, st_store: Store | None) -> dict:
    """LM Studio and Qdrant status, at most STATUS_TTL seconds old, its errors in the reader's
    language (the cache is shared by every session: one entry a language)."""
    return _status((s.llm_url, s.llm_model, s.embed_url, s.embed_model) + _store_key(s) + (current(),), s, st_store)


@st.cache_data(ttl=STATUS_TTL, show_spinner=False)
def _readable(key: tuple, groups: tuple[str, ...] | None, _store: Store, _collections: list[dict]) -> list[dict]:
    return rag_status.readable_collections(_store, _collections, list(groups) if groups is not None else None)


def readable_collections(s: Settings, st_store: Store | None, collections: list[dict],
                         groups: list[str] | None) -> list[dict]:
    """The collections `groups` can read something in, with their visible points (cached)."""
    if groups is None or st_store is None:
        return collections
    key = _store_key(s) + tuple(sorted((c["name"], c.get("points"), c.get("updated")) for c in collections))
    return _readable(key, tuple(groups), st_store, collections)


def refresh_status() -> None:
    """After indexing or saving a threshold: the sidebar must show the new numbers now."""
    _status.clear()
    _readable.clear()


def collection_info(st_store: Store, name: str) -> dict | None:
    try:
        return st_store.collection_info(name)
    except RagError as exc:
        lang.error(t("store.error"), str(exc))
        st.stop()
        raise
