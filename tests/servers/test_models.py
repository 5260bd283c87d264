"""One reading of the server's model list: chat, embeddings and the status agree on it."""

from __future__ import annotations

import pytest

from rag.servers.chat import LLMClient
from rag.config import Settings
from rag.embeddings.remote import embedding_server
from rag.errors import EmbeddingError, LLMError
from rag.servers.models import LMSTUDIO, OPENAI
from rag.status import llm_status
from tests.fixtures.lmstudio import DEFAULT_MODEL


@pytest.mark.parametrize("native_api", ["v0", "v1", None])
def test_chat_embeddings_and_status_read_the_same_models(lmstudio, data_dir, native_api):
    lmstudio.native_api = native_api
    lmstudio.load("text-embedding-nomic-embed-text-v1.5", context_length=2048, type="embeddings")
    chat = LLMClient(lmstudio.url).models()
    embeddings = embedding_server(lmstudio.url)
    status = llm_status(Settings(data_dir=data_dir, llm_url=lmstudio.url))
    assert chat == embeddings and chat.kind == (OPENAI if native_api is None else LMSTUDIO)
    assert [m["id"] for m in status["chat_models"]] == [m.id for m in chat.chat_models]
    assert DEFAULT_MODEL in [m.id for m in chat.chat_models]
    # Without LM Studio's native list, the embedding model is still told apart by its name.
    assert status["embedding_pick"] == embeddings.pick_embedding_model().id == "text-embedding-nomic-embed-text-v1.5"
    assert "text-embedding-nomic-embed-text-v1.5" not in [m.id for m in chat.chat_models]


def test_a_server_down_is_said_in_the_words_of_each_use(lmstudio, data_dir):
    url = lmstudio.url
    lmstudio.down()
    with pytest.raises(LLMError, match="RAG_LLM_URL"):
        LLMClient(url).models()
    with pytest.raises(EmbeddingError, match="RAG_EMBED_MODEL=embedded"):
        embedding_server(url)
    status = llm_status(Settings(data_dir=data_dir, llm_url=url))
    assert status["reachable"] is False and url in status["error"] and status["chat_models"] == []
