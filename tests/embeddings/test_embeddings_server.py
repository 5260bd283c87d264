"""OpenAIEmbedder against a local server that misbehaves the way real servers do."""

import pytest

from rag.embeddings.remote import OpenAIEmbedder
from rag.errors import EmbeddingError
from tests.fixtures.embeddings_server import fake_vector, free_port

MODEL = "text-embedding-fake-embed"


def test_vectors_come_back_with_float_requested_and_dimension_measured(fake_embeddings_server):
    server = fake_embeddings_server(dimension=12)
    embedder = OpenAIEmbedder(server.url + "/embeddings/", batch_size=2)  # a pasted endpoint path
    assert embedder.model_id == MODEL  # the loaded embeddings model, not the chat model
    vectors = embedder.embed_documents(["a", "b", "c"], labels=["x#0", "x#1", "x#2"])
    assert vectors == [pytest.approx(fake_vector(t, 12), abs=1e-6) for t in ["a", "b", "c"]]
    assert embedder.dimension == 12
    bodies = server.embedding_requests
    assert [len(b["input"]) for b in bodies] == [2, 1]  # batched
    assert all(b["encoding_format"] == "float" and b["model"] == MODEL for b in bodies)
    assert MODEL in embedder.describe() and "LM Studio" in embedder.describe()


def test_base64_answers_are_decoded(fake_embeddings_server):
    server = fake_embeddings_server(mode="base64", dimension=6)
    embedder = OpenAIEmbedder(server.url)
    assert embedder.embed_documents(["bonjour"]) == [pytest.approx(fake_vector("bonjour", 6), abs=1e-6)]


def test_shuffled_answers_are_put_back_in_index_order(fake_embeddings_server):
    server = fake_embeddings_server(mode="shuffled")
    texts = ["un", "deux", "trois", "quatre"]
    vectors = OpenAIEmbedder(server.url, MODEL).embed_documents(texts)
    assert vectors == [pytest.approx(fake_vector(t, 8), abs=1e-6) for t in texts]


@pytest.mark.parametrize(
    "mode, words",
    [
        ("zeros", "all-zero vector"),
        ("nan", "NaN"),
        ("wrong_count", "returned 1 vectors for 2 texts"),
    ],
)
def test_unusable_vectors_are_refused_naming_model_and_chunk(fake_embeddings_server, mode, words):
    server = fake_embeddings_server(mode=mode)
    embedder = OpenAIEmbedder(server.url, MODEL)
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_documents(["premier", "second"], labels=["post/kerberos#0", "post/kerberos#1"])
    message = str(caught.value)
    assert words in message and MODEL in message and "post/kerberos#0" in message


def test_a_zero_vector_mid_batch_names_the_chunk_it_belongs_to(fake_embeddings_server):
    server = fake_embeddings_server(mode="zeros", trigger="CASSE")
    embedder = OpenAIEmbedder(server.url, MODEL)
    with pytest.raises(EmbeddingError, match=r"all-zero vector for post#2"):
        embedder.embed_documents(["a", "b", "CASSE", "d"], labels=[f"post#{i}" for i in range(4)])


def test_a_dimension_change_between_calls_is_refused(fake_embeddings_server):
    server = fake_embeddings_server(mode="dimension_change")
    embedder = OpenAIEmbedder(server.url, MODEL)
    assert embedder.dimension == 8
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_documents(["texte"], labels=["doc.md#5"])
    assert "from 8 to 9" in str(caught.value) and "doc.md#5" in str(caught.value)


def test_a_dimension_other_than_the_collection_one_is_refused(fake_embeddings_server):
    server = fake_embeddings_server(dimension=8)
    embedder = OpenAIEmbedder(server.url, MODEL, expected_dimension=384)
    with pytest.raises(EmbeddingError, match=r"returned 8 dimensions for doc.md#0.*expects 384"):
        embedder.embed_documents(["texte"], labels=["doc.md#0"])


def test_an_input_too_long_for_the_model_is_named(fake_embeddings_server):
    server = fake_embeddings_server(mode="too_long", max_chars=50)
    embedder = OpenAIEmbedder(server.url, MODEL, batch_size=8)
    texts = ["court", "x" * 80, "court aussi"]
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_documents(texts, labels=["doc#0", "doc#1", "doc#2"])
    message = str(caught.value)
    assert message.startswith("doc#1 is too long") and MODEL in message and "n_keep" in message


def test_no_model_loaded_says_to_load_one(fake_embeddings_server):
    server = fake_embeddings_server(mode="no_model")
    embedder = OpenAIEmbedder(server.url, MODEL)
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_query("question")
    message = str(caught.value)
    assert "no model loaded" in message and MODEL in message and "RAG_EMBED_MODEL=embedded" in message


def test_unknown_model_lists_the_available_embedding_models(fake_embeddings_server):
    server = fake_embeddings_server()
    embedder = OpenAIEmbedder(server.url, "text-embedding-absent")
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_documents(["texte"], labels=["doc#0"])
    message = str(caught.value)
    assert "text-embedding-absent" in message
    assert f"Available embedding models: {MODEL}." in message
    assert "qwen3-4b-chat" not in message  # the chat model is not an embedding model


def test_a_server_that_does_not_answer_in_time_is_reported(fake_embeddings_server):
    server = fake_embeddings_server(mode="slow", delay=3)
    embedder = OpenAIEmbedder(server.url, MODEL, timeout=0.5)
    with pytest.raises(EmbeddingError, match=r"did not answer within 0.5s"):
        embedder.embed_documents(["texte"], labels=["doc#0"])


def test_server_down_says_the_url_and_what_to_do():
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    embedder = OpenAIEmbedder(url, MODEL, timeout=2)
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_query("question")
    message = str(caught.value)
    assert url in message and "LM Studio" in message and "RAG_EMBED_MODEL=embedded" in message


def test_only_v1_models_uses_the_embed_heuristic(fake_embeddings_server):
    server = fake_embeddings_server(lmstudio_api=False, models=[
        {"id": "qwen3-4b-chat"}, {"id": "text-embedding-nomic-embed-text-v1.5"}])
    embedder = OpenAIEmbedder(server.url)
    assert embedder.model_id == "text-embedding-nomic-embed-text-v1.5"
    embedder.embed_query("kerberos")
    embedder.embed_documents(["kerberos"])
    inputs = [b["input"] for b in server.embedding_requests]
    assert inputs == [["search_query: kerberos"], ["search_document: kerberos"]]
    assert "input_type" not in server.embedding_requests[0]


def test_prefixes_can_be_overridden(fake_embeddings_server):
    server = fake_embeddings_server()
    embedder = OpenAIEmbedder(server.url, MODEL, query_prefix="Q> ", document_prefix="D> ")
    embedder.embed_query("a")
    embedder.embed_documents(["b"])
    assert [b["input"] for b in server.embedding_requests] == [["Q> a"], ["D> b"]]


def test_no_embedding_model_on_the_server_is_explained(fake_embeddings_server):
    server = fake_embeddings_server(models=[
        {"id": "qwen3-4b-chat", "type": "llm", "state": "loaded"}])
    with pytest.raises(EmbeddingError, match=r"offers no embedding model \(its models: qwen3-4b-chat\)"):
        OpenAIEmbedder(server.url).embed_query("a")



def test_a_zero_vector_for_the_question_is_named_in_the_readers_language(fake_embeddings_server):
    from rag.i18n import language

    server = fake_embeddings_server()
    embedder = OpenAIEmbedder(server.url, MODEL)
    embedder.embed_query("sonde")  # measures the dimension while the server behaves
    server.mode = "zeros"
    with language("fr"), pytest.raises(EmbeddingError) as caught:
        embedder.embed_query("question")
    assert "vecteur entièrement nul pour la question" in str(caught.value)
