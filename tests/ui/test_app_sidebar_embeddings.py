"""The sidebar says which embedding model the questions are searched with. The bundled model
runs in the workbench: "embedding model: none loaded" under LM Studio read as a fault while
nothing was missing. LM Studio's embedding models are said where they matter: when the
questions' model is LM Studio's."""

from __future__ import annotations

import streamlit as st

from tests.fixtures.apptest import one_document_collection, open_page

ASK = "app_pages/1_Ask.py"
SERVER_MODEL = "text-embedding-nomic-embed-text-v1.5"


def _sidebar(at) -> str:
    return "\n".join([c.value for c in at.sidebar.caption] + [m.value for m in at.sidebar.markdown])


def test_a_collection_of_the_bundled_model_says_so_and_no_missing_lm_studio_model(app_env_empty, monkeypatch):
    one_document_collection()
    monkeypatch.delenv("RAG_EMBED_MODEL")  # auto, as a user starts it: LM Studio serves no embedding model
    side = _sidebar(open_page(ASK))
    assert "embedding model: none loaded" not in side
    assert ("questions are embedded by the bundled model `multilingual-e5-small`, which runs in the workbench: "
            "LM Studio's embedding model is not needed") in side
    assert "chat model · `qwen2.5-7b-instruct`" in side  # LM Studio's chat model is still said

    monkeypatch.setenv("RAG_UI_LANG", "fr")
    st.cache_data.clear()
    side = _sidebar(open_page(ASK))
    assert "aucun chargé" not in side
    assert "vectorisées par le modèle intégré `multilingual-e5-small`" in side
    assert "le modèle d'embeddings de LM Studio n'est pas nécessaire" in side


def test_an_empty_collection_in_auto_mode_says_the_bundled_model_a_new_one_gets(app_env_empty, monkeypatch):
    monkeypatch.delenv("RAG_EMBED_MODEL")
    side = _sidebar(open_page(ASK))
    assert "embedding model: none loaded" not in side and "bundled model `multilingual-e5-small`" in side


def test_lm_studio_s_embedding_model_is_said_when_the_questions_need_it(app_env_empty, lmstudio, monkeypatch):
    monkeypatch.setenv("RAG_EMBED_MODEL", SERVER_MODEL)  # the configured embedder is the server's
    side = _sidebar(open_page(ASK))
    assert "bundled model" not in side
    assert "embedding model: none loaded" in side
    assert (f"questions on this collection are embedded by `{SERVER_MODEL}`, which this LM Studio does not have: "
            "download it in LM Studio (the Discover tab, or `lms get` in a terminal) and load it, or they cannot "
            "be searched") in side

    lmstudio.load(SERVER_MODEL, type="embeddings", context_length=2048)
    st.cache_data.clear()
    side = _sidebar(open_page(ASK))
    assert f"embedding model · `{SERVER_MODEL}`" in side
    assert "none loaded" not in side and "does not have" not in side


def test_lm_studio_down_says_what_is_lost_with_the_questions_model(app_env_empty, lmstudio, monkeypatch):
    lmstudio.down()
    side = _sidebar(open_page(ASK))  # the bundled model: the passages come without LM Studio
    assert "questions get their passages, without a written answer" in side

    monkeypatch.setenv("RAG_EMBED_MODEL", SERVER_MODEL)
    st.cache_data.clear()
    side = _sidebar(open_page(ASK))
    assert "questions get their passages" not in side
    assert "questions on this collection cannot be searched until it does" in side
