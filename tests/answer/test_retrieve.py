"""Retrieval with the real embedded model on a small French corpus (dense, hybrid, access)."""

from __future__ import annotations

import pytest

from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.errors import StoreError
from rag.ingest.run import ingest
from rag.answer.retrieve import QuestionError, retrieve
from rag.store.store import Store

ARTICLES = {
    "tls-schannel": (
        "Erreurs TLS et Schannel",
        "Quand une connexion TLS échoue sur Windows, le journal système affiche des événements Schannel. "
        "Vérifiez la chaîne de certificats, les suites de chiffrement activées et la date du serveur.",
    ),
    "ldaps": (
        "Activer LDAPS sur un contrôleur de domaine",
        "Pour chiffrer LDAP, installez un certificat serveur sur le contrôleur de domaine. Le port 636 doit "
        "être ouvert. Si la liaison échoue avec le code 0x80090308, le certificat ne contient pas le nom DNS "
        "complet du serveur.",
    ),
    "kerberos-rc4": (
        "Désactiver RC4 pour Kerberos",
        "RC4 est obsolète. L'attribut msDS-SupportedEncryptionTypes d'un compte indique les types de "
        "chiffrement acceptés. Mettez la valeur 24 pour AES uniquement.",
    ),
    "kerberos-general": (
        "Comprendre les erreurs Kerberos",
        "Les erreurs d'authentification Kerberos viennent souvent d'un décalage horaire, d'un SPN dupliqué "
        "ou d'un type de chiffrement non pris en charge par le compte de service.",
    ),
    "certificats": (
        "Diagnostiquer un certificat invalide",
        "Un certificat expiré, révoqué ou émis pour un autre nom provoque des erreurs de connexion sécurisée. "
        "Utilisez certutil pour vérifier la chaîne et la liste de révocation.",
    ),
    "dns": (
        "Résolution DNS lente",
        "Une résolution DNS lente ralentit l'ouverture de session. Vérifiez les redirecteurs, le cache et "
        "les zones de recherche inversée.",
    ),
    "gpo": (
        "Stratégies de groupe non appliquées",
        "Si une GPO ne s'applique pas, lancez gpresult /r et vérifiez le filtrage de sécurité et le lien sur "
        "l'unité d'organisation.",
    ),
    "krbtgt-interne": (
        "Procédure interne de rotation krbtgt",
        "Procédure réservée à l'équipe : rotation du mot de passe du compte krbtgt deux fois, à dix heures "
        "d'intervalle, puis contrôle de la réplication.",
    ),
}
PRIVATE = "krbtgt-interne.md"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    store = Store(Settings(data_dir=tmp_path_factory.mktemp("retrieve")))
    embedder = EmbeddedEmbedder(threads=1)
    docs = [
        Document(url=f"{slug}.md", title=title, markdown=body,
                 access=["private"] if f"{slug}.md" == PRIVATE else ["public"])
        for slug, (title, body) in ARTICLES.items()
    ]
    report = ingest(docs, store, embedder, "kb")
    assert report.ok and report.new == len(ARTICLES)
    yield store, embedder
    store.close()


def test_hybrid_finds_an_exact_error_code_that_dense_ranks_lower(indexed):
    store, embedder = indexed
    question = "Que signifie l'erreur 0x80090308 ?"
    dense = retrieve(question, store, embedder, "kb", top_k=5, mode="dense")
    hybrid = retrieve(question, store, embedder, "kb", top_k=5)  # auto = hybrid here
    assert dense[0].url != "ldaps.md"
    assert hybrid[0].url == "ldaps.md"
    assert "0x80090308" in hybrid[0].text
    assert hybrid[0].rrf_score is not None and dense[0].rrf_score is None


def test_scores_are_dense_cosine_in_both_modes(indexed):
    store, embedder = indexed
    question = "Comment régler msDS-SupportedEncryptionTypes pour AES ?"
    dense = {p.url: p.score for p in retrieve(question, store, embedder, "kb", top_k=8, mode="dense")}
    hybrid = retrieve(question, store, embedder, "kb", top_k=8, mode="hybrid")
    assert hybrid[0].url == "kerberos-rc4.md"
    for p in hybrid:
        assert p.score == pytest.approx(dense[p.url], abs=1e-5)
        assert 0 < p.score <= 1
    assert [p.n for p in hybrid] == list(range(1, len(hybrid) + 1))
    top = hybrid[0]
    assert top.title == "Désactiver RC4 pour Kerberos" and top.header.startswith("Article:") and top.id


def test_private_passages_never_reach_a_public_reader(indexed):
    store, embedder = indexed
    question = "Comment faire la rotation du mot de passe krbtgt ?"
    for mode in ("dense", "hybrid"):
        public = retrieve(question, store, embedder, "kb", top_k=10, mode=mode, groups=["public"])
        assert PRIVATE not in {p.url for p in public}
        assert len(public) == len(ARTICLES) - 1
        team = retrieve(question, store, embedder, "kb", top_k=3, mode=mode, groups=["public", "private"])
        assert team[0].url == PRIVATE
    everything = retrieve(question, store, embedder, "kb", top_k=10)  # groups=None: no filter
    assert PRIVATE in {p.url for p in everything}


def test_empty_question_and_unknown_collection_are_clear_errors(indexed):
    store, embedder = indexed
    with pytest.raises(QuestionError, match="empty"):
        retrieve("   ", store, embedder, "kb")
    with pytest.raises(StoreError, match="does not exist"):
        retrieve("Kerberos", store, embedder, "nope")
    with pytest.raises(QuestionError, match="mode"):
        retrieve("Kerberos", store, embedder, "kb", mode="magic")
