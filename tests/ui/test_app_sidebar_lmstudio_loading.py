"""The sidebar tells a missing LM Studio embedding model from one merely not loaded. LM Studio
lists the models it has downloaded (`/api/v0/models`: state `not-loaded`) and, with its
Just-In-Time loading on (its default), loads one at the first request that names it; the OpenAI
`/v1/models` then lists every downloaded model, with JIT off only the loaded ones. The sidebar
warned "LM Studio does not serve it" for a model that the first question would load."""

from __future__ import annotations

import streamlit as st

from tests.fixtures.apptest import open_page

ASK = "app_pages/1_Ask.py"
SERVER_MODEL = "text-embedding-nomic-embed-text-v1.5"


def _sidebar(at) -> str:
    return "\n".join([c.value for c in at.sidebar.caption] + [m.value for m in at.sidebar.markdown])


def _side() -> str:
    st.cache_data.clear()
    return _sidebar(open_page(ASK))


def test_a_downloaded_model_with_jit_on_is_loaded_at_the_first_question(app_env_empty, lmstudio, monkeypatch):
    monkeypatch.setenv("RAG_EMBED_MODEL", SERVER_MODEL)
    lmstudio.download(SERVER_MODEL, type="embeddings")
    side = _side()
    assert "does not have" not in side and "cannot be searched" not in side
    assert (f"questions on this collection are embedded by `{SERVER_MODEL}`, downloaded in LM Studio but not "
            "loaded: LM Studio loads it at the first question (Just-In-Time loading)") in side

    monkeypatch.setenv("RAG_UI_LANG", "fr")
    side = _side()
    assert "téléchargé dans LM Studio mais pas chargé : LM Studio le charge à la première question" in side
    assert "n'a pas :" not in side


def test_a_downloaded_model_with_jit_off_must_be_loaded_by_hand(app_env_empty, lmstudio, monkeypatch):
    monkeypatch.setenv("RAG_EMBED_MODEL", SERVER_MODEL)
    lmstudio.download(SERVER_MODEL, type="embeddings")
    lmstudio.jit = False
    side = _side()
    assert "does not have" not in side
    assert (f"downloaded in LM Studio but not loaded, and LM Studio does not load models on demand "
            f"(Just-In-Time loading is off): load it (`lms load {SERVER_MODEL}`) or turn Just-In-Time loading on, "
            "or they cannot be searched") in side


def test_a_model_lm_studio_does_not_have_is_still_said_missing(app_env_empty, lmstudio, monkeypatch):
    monkeypatch.setenv("RAG_EMBED_MODEL", SERVER_MODEL)
    lmstudio.download("text-embedding-other", type="embeddings")  # another one on disk
    side = _side()
    assert f"embedded by `{SERVER_MODEL}`, which this LM Studio does not have: download it" in side
    assert "downloaded in LM Studio" not in side


def test_a_loaded_model_gets_no_note(app_env_empty, lmstudio, monkeypatch):
    monkeypatch.setenv("RAG_EMBED_MODEL", SERVER_MODEL)
    lmstudio.load(SERVER_MODEL, type="embeddings", context_length=2048)
    side = _side()
    assert f"embedding model · `{SERVER_MODEL}`" in side
    assert "downloaded in LM Studio" not in side and "does not have" not in side
