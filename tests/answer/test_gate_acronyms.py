"""An acronym the articles write in full, and a titled name: what readers type, answered.

"ma CNI" when the article says "carte nationale d'identité"; "le docteur Martin" beside what is
asked. An acronym no passage spells, or one spelled only where the reader may not look, is still
unknown. Real embedded model and store.
"""

from __future__ import annotations

import pytest

from rag.answer.acronyms import spelled
from rag.answer.gate import gate, resolve_params
from rag.answer.gate_words import signals_from
from rag.answer.retrieve import retrieve
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.ingest.run import ingest
from rag.store.store import Store

ARTICLES = {
    "cheque": ("Payer par chèque chez un commerçant",
               "Le commerçant qui accepte un chèque peut vous demander de présenter un justificatif d'identité "
               "avec photo : la carte nationale d'identité, le passeport ou le permis de conduire."),
    "medecin": ("Ce que le médecin voit de vos remboursements",
                "Avec la carte Vitale et votre accord, le médecin peut accéder à l'historique de vos remboursements : "
                "consultations, médicaments, hospitalisations, arrêts de travail. Il n'accède à aucun résultat "
                "d'examen ni aux informations liées à la contraception."),
    "cookies": ("Bandeau de cookies",
                "Un site doit recueillir le consentement avant de déposer des traceurs publicitaires ; vous pouvez "
                "notamment refuser aussi simplement qu'accepter. Les informations personnelles collectées sans "
                "accord doivent être effacées."),
}
STAFF = ("Procédure de caisse (interne)",
         "Réservé au personnel : à la caisse, vérifiez la carte nationale d'identité du client qui paie par chèque.")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """Three public articles; a fourth, staff-only, the only one to spell the acronym, in a second
    collection whose public chèque article writes "pièce d'identité"."""
    store = Store(Settings(data_dir=tmp_path_factory.mktemp("acronyms") / "data"))
    embedder = EmbeddedEmbedder(threads=1)
    docs = [Document(url=f"{k}.md", title=t, markdown=b, access=["public"]) for k, (t, b) in ARTICLES.items()]
    assert ingest(docs, store, embedder, "small").ok
    public_cheque = Document(url="cheque.md", title=ARTICLES["cheque"][0], access=["public"],
                             markdown="Le commerçant qui accepte un chèque peut vous demander de présenter une "
                                      "pièce d'identité avec photo.")
    staff = Document(url="caisse.md", title=STAFF[0], markdown=STAFF[1], access=["staff"])
    assert ingest([public_cheque, staff] + docs[1:], store, embedder, "access").ok
    yield store, embedder
    store.close()


def _decide(small, question, collection="small", groups=None):
    store, embedder = small
    info = store.collection_info(collection)
    passages = retrieve(question, store, embedder, collection, top_k=3, groups=groups)
    return gate(question, passages, resolve_params(None, info, embedder.model_id), store, collection, groups, info,
                "fr", embedder), passages


def test_the_initials_of_a_phrase_spell_its_acronym_and_small_words_are_skipped():
    texts = ["Retrait de la carte nationale d'identité ou du passeport.",
             "Le règlement général sur la protection des données (RGPD) s'applique.",
             "La Commission nationale de l'informatique et des libertés contrôle."]
    assert spelled(["CNI", "RGPD", "CNIL"], texts) == {
        "CNI": "carte nationale d'identité", "RGPD": "règlement général sur la protection des données",
        "CNIL": "Commission nationale de l'informatique et des libertés"}
    # Punctuation, a pronoun or "pour" ends the phrase; two letters need capitals.
    assert spelled(["CNI", "VPN", "CSR", "IP"], [
        "la carte. Nationale identité", "vous pouvez notamment", "la commande suivante pour rechercher",
        "les informations personnelles"]) == {}
    assert spelled(["AD"], ["Active Directory"]) == {"AD": "Active Directory"}


def test_an_acronym_a_retrieved_passage_spells_out_is_not_an_unknown_word(small):
    question = "Dois-je présenter ma CNI pour payer par chèque ?"
    decision, passages = _decide(small, question)
    assert passages[0].url == "cheque.md"
    s = decision.signals
    assert "CNI" not in s.missing and "CNI" not in s.unknown_names
    assert [t.spelled for t in s.terms if t.word == "CNI"] == ["carte nationale d'identité"]
    assert decision.answer, (decision.reason, s.missing)


def test_an_acronym_spelled_only_in_a_document_the_reader_may_not_see_stays_unknown(small):
    question = "Dois-je présenter ma CNI pour payer par chèque ?"
    public, passages = _decide(small, question, "access", ["public"])
    assert all(p.url != "caisse.md" for p in passages)
    assert "CNI" in public.signals.missing and "CNI" in public.signals.unknown_subject
    assert not any(t.spelled for t in public.signals.terms)
    staff, passages = _decide(small, question, "access", ["public", "staff"])
    assert any(p.url == "caisse.md" for p in passages)
    assert "CNI" not in staff.signals.missing


def test_a_titled_name_beside_the_question_is_answered_on_a_small_collection(small):
    decision, passages = _decide(small, "À quelles informations mon médecin, le docteur Martin, peut-il accéder ?")
    assert passages[0].url == "medecin.md"
    assert {"docteur", "Martin"} <= set(decision.signals.context_words)
    assert decision.answer, (decision.reason, decision.signals.missing)


@pytest.mark.parametrize("question, acronym", [
    ("Comment installer un tunnel VPN WireGuard sur un serveur Debian ?", "VPN"),
    ("Comment anonymiser les adresses IP des visiteurs dans Matomo ?", "IP"),
])
def test_an_off_topic_acronym_stays_refused(small, question, acronym):
    decision, passages = _decide(small, question)
    assert any("vous pouvez notamment" in p.text or "informations personnelles" in p.text for p in passages)
    assert not decision.answer
    assert acronym in decision.signals.missing


def test_a_passage_that_does_not_spell_it_leaves_the_acronym_unknown():
    class P:
        score, id = 0.9, ""
        text = "Le commerçant peut demander une pièce d'identité avec photo pour un paiement par chèque."

    signals = signals_from("Dois-je présenter ma CNI pour payer par chèque ?", [P()],
                           {"commer": 1, "cheque": 1, "presen": 1, "payer": 1}, 10)
    assert "CNI" in signals.unknown_subject
