"""Questions as readers write them: a colleague's name, a customer, a town beside the subject.

The gate sets the reader's situation aside and refuses what the articles never mention; where it
is unsure, the chat model decides (its refusal is the model's), or, without one, the passages are
shown with a plain note. Real embedded model and store; the chat model is the LM Studio emulator.
"""

from __future__ import annotations

import json

import pytest

from rag.answer.gate import UNSURE, GateParams, decide_verdict, gate, resolve_params
from rag.answer.gate_words import Signals, TermStat, signals_from
from rag.answer.engine import answer_passages, ask
from rag.answer.prompts import refusal_sentence
from rag.answer.retrieve import retrieve
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.ingest.run import ingest
from rag.store.store import Store
from rag.store.terms import question_keys, question_words

DEMO_QUESTIONS = [
    "Sur la Surface de Paul, quelle commande purge les tickets Kerberos ?",
    "Chez Airbus à Toulouse, comment purger les tickets Kerberos d'un utilisateur ?",
    "Comment faire une capture réseau avec netsh sur le serveur de Gérard ?",
]


def _demo_ask(demo_index, question, **options):
    settings = demo_index.settings()
    return ask(question, settings, collection=demo_index.collection, with_llm=False, **options)


@pytest.mark.parametrize("question", DEMO_QUESTIONS)
def test_a_colleague_a_customer_or_a_town_beside_the_subject_does_not_refuse_it(demo_index, question):
    result = _demo_ask(demo_index, question)
    assert not result.refused, result.refusal_reason
    assert result.gate["verdict"] in ("answer", "unsure")
    texts = " ".join(p.text for p in result.passages)
    assert "klist purge" in texts or "netsh trace" in texts


@pytest.mark.parametrize("question, unknown", [
    ("Comment mettre en place le SSO SAML entre Okta et SAP S/4HANA ?", "S/4HANA"),
    ("Comment lister les conteneurs arrêtés avec podman ?", "podman"),
])
def test_what_no_article_mentions_is_still_refused_by_name(demo_index, question, unknown):
    result = _demo_ask(demo_index, question)
    assert result.refused and result.to_json()["outcome"] == "refused_gate"
    assert result.gate["verdict"] == "refuse"
    assert unknown in result.refusal_reason


THREE = {
    "klist": ("Purger les tickets Kerberos",
              "La commande klist purge supprime les tickets Kerberos de la session : l'utilisateur en obtient "
              "de nouveaux à la prochaine connexion à un service."),
    "gpo": ("Stratégies de groupe non appliquées",
            "Si une GPO ne s'applique pas, lancez gpresult /r et vérifiez le filtrage de sécurité."),
    "ldaps": ("Activer LDAPS", "Installez un certificat serveur sur le contrôleur de domaine ; le port 636 doit être ouvert."),
}


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    store = Store(Settings(data_dir=tmp_path_factory.mktemp("three") / "data"))
    embedder = EmbeddedEmbedder(threads=1)
    docs = [Document(url=f"{k}.md", title=title, markdown=body) for k, (title, body) in THREE.items()]
    assert ingest(docs, store, embedder, "three").ok
    yield store, embedder
    store.close()


@pytest.mark.parametrize("question", [
    "Mon collègue Karim voudrait savoir quelle commande vide les tickets Kerberos de sa session ?",
    "Chez Airbus, comment purger les tickets Kerberos d'un utilisateur ?",
])
def test_a_three_article_collection_answers_what_its_passage_holds(three, question):
    store, embedder = three
    info = store.collection_info("three")
    passages = retrieve(question, store, embedder, "three", top_k=3)
    decision = gate(question, passages, resolve_params(None, info, embedder.model_id), store, "three", None, info,
                    "fr", embedder)
    assert decision.answer, (decision.reason, decision.signals.missing)
    assert passages[0].url == "klist.md"


def test_dotted_and_snake_case_identifiers_are_one_word_and_a_name():
    words = {w.text: w for w in question_words("Comment augmenter max_connections dans nginx.conf ?")}
    assert words["nginx.conf"].parts == ("nginx.conf",) and words["nginx.conf"].named
    assert words["max_connections"].parts == ("max_connections",) and words["max_connections"].named
    keys = question_keys(list(words.values()))
    assert "nginx" not in keys and "conf" not in keys and "max" not in keys
    # A collection that writes "nginx" and "conf" apart does not know nginx.conf.
    df = {"augmen": 3, "nginx": 2, "conf": 5, "max": 4, "connections": 1}
    signals = signals_from("Comment augmenter max_connections dans nginx.conf ?", [_P()], df, 40)
    assert set(signals.unknown_subject) == {"max_connections", "nginx.conf"}
    assert decide_verdict(signals, GateParams(0.5))[0] == "refuse"


class _P:
    score = 0.9
    text = ""
    id = ""


def _unsure_decision():
    signals = Signals(cosine=0.9, coverage=0.55, passage_coverage=0.55, core_coverage=0.55,
                      core_passage_coverage=0.55, missing=["diférence"], chunks=10,
                      terms=[TermStat("diférence", ["difere"], 0, 3.0, False)])
    params = GateParams(0.83)
    verdict, reason = decide_verdict(signals, params)
    assert verdict == UNSURE
    from rag.answer.gate import Decision

    return Decision(True, reason, signals, params, None, verdict)


def _passage():
    from rag.answer.retrieve import Passage

    return Passage(n=1, score=0.9, title="Les SPN", section="", url="spn.md",
                   text="setspn -S vérifie les doublons avant d'ajouter un SPN ; setspn -A ne vérifie rien.")


def test_unsure_goes_to_the_model_and_its_refusal_is_the_models(lmstudio):
    from rag.servers.chat import LLMClient

    lmstudio.answer = refusal_sentence("fr")
    result = answer_passages("Quelle diférence entre setspn -S et setspn -A ?", [_passage()], LLMClient(lmstudio.url),
                             0.83, decision=_unsure_decision())
    assert lmstudio.chat_calls == 1
    data = result.to_json()
    assert data["outcome"] == "refused_model" and data["gate"]["verdict"] == "unsure"
    assert data["gate"]["refused"] is False
    lmstudio.answer = "setspn -S vérifie les doublons [1]."
    answered = answer_passages("Quelle diférence entre setspn -S et setspn -A ?", [_passage()],
                               LLMClient(lmstudio.url), 0.83, decision=_unsure_decision())
    assert answered.to_json()["outcome"] == "answered" and not answered.refused


def test_unsure_without_a_chat_model_shows_the_passages_with_a_note(lmstudio):
    from rag.servers.chat import LLMClient

    lmstudio.unload_all()
    question = "Quelle diférence entre setspn -S et setspn -A ?"
    result = answer_passages(question, [_passage()], LLMClient(lmstudio.url), 0.83, decision=_unsure_decision())
    data = result.to_json()
    assert data["outcome"] == "passages_only" and not data["refused"] and data["passages"]
    assert any(note.startswith("Ces passages ne semblent pas répondre à « " + question) for note in data["notes"])
    assert lmstudio.chat_calls == 0
    english = answer_passages("What is the diference between setspn -S and setspn -A?", [_passage()],
                              LLMClient(lmstudio.url), 0.83, decision=_unsure_decision(), language="en")
    assert any(n.startswith("These passages do not seem to answer") for n in english.to_json()["notes"])


STAFF_DOCS = {
    "kerberos": ("Purger les tickets Kerberos", "La commande klist purge supprime les tickets Kerberos de la session."),
    "gpo": ("Stratégies de groupe", "Si une GPO ne s'applique pas, lancez gpresult /r."),
    "interne": ("Procédure interne Keycloak", "Réservé à l'équipe : le serveur Keycloak de Toulouse délègue "
                "l'authentification Kerberos ; purgez ses tickets avec klist purge."),
}


@pytest.fixture(scope="module")
def two_collections(tmp_path_factory):
    """The same articles with a staff-only one, and without it."""
    store = Store(Settings(data_dir=tmp_path_factory.mktemp("staff") / "data"))
    embedder = EmbeddedEmbedder(threads=1)
    docs = [Document(url=f"{k}.md", title=t, markdown=b, access=["staff"] if k == "interne" else ["public"])
            for k, (t, b) in STAFF_DOCS.items()]
    assert ingest(docs, store, embedder, "with").ok
    assert ingest([d for d in docs if d.url != "interne.md"], store, embedder, "without").ok
    yield store, embedder
    store.close()


@pytest.mark.parametrize("question", [
    "Sur le serveur Keycloak de Toulouse, comment purger les tickets Kerberos ?",
    "Chez Keycloak à Toulouse, quelle commande purge les tickets ?",
])
def test_a_word_only_a_staff_document_holds_is_absent_for_every_signal(two_collections, question):
    store, embedder = two_collections

    def decision(collection, groups):
        info = store.collection_info(collection)
        passages = retrieve(question, store, embedder, collection, top_k=3, groups=groups)
        return gate(question, passages, resolve_params(None, info, embedder.model_id), store, collection, groups,
                    info, "fr", embedder)

    public = decision("with", ["public"]).to_dict()
    alone = decision("without", ["public"]).to_dict()
    staff = decision("with", ["public", "staff"]).to_dict()
    for data in (public, alone):
        data["signals"].pop("margin")
    assert public["signals"] == alone["signals"] and public["verdict"] == alone["verdict"]
    assert "Keycloak" in public["signals"]["missing"] and "Keycloak" not in staff["signals"]["missing"]
    assert "interne" not in json.dumps(public)


def test_the_access_filter_holds_for_the_core_cosine(two_collections):
    """The core cosine is computed on the passages the reader may see, under their filter."""
    from rag.answer.gate import core_cosine

    store, embedder = two_collections
    passages = retrieve("Keycloak Toulouse klist purge", store, embedder, "with", top_k=3, groups=["staff"])
    staff_only = [p for p in passages if p.url == "interne.md"]
    assert staff_only
    assert core_cosine("Keycloak Toulouse klist purge", ["Toulouse"], staff_only, store, "with", embedder,
                       ["public"]) is None


def test_rag_ask_json_says_what_happened(demo_index):
    data = _demo_ask(demo_index, DEMO_QUESTIONS[0]).to_json()
    assert data["outcome"] == "passages_only" and data["gate"]["verdict"] in ("answer", "unsure")
