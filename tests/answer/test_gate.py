"""The answerability gate as a reader meets it: a refusal names the rare word no article holds and
calls no model, a word only in a document the reader may not see counts as absent for every
signal, a reader's own detail on an answerable question is not refused outright, and the
evaluation counts the live decision. Real embedded model and store.

How well the gate separates answerable from off-topic questions is measured on labelled sets by
benchmarks/gate_fit.py (benchmarks/README.md, "The answerability gate"), not pinned here.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import replace

import pytest

from rag.answer.engine import ask
from rag.answer.gate import REFUSE, explain, gate, resolve_params, save_calibration
from rag.answer.gate_signals import EVERYDAY_ZIPF, zipf
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.errors import EmbeddingError
from rag.evaluate.calibration import row_answers, row_decision
from rag.evaluate.questions import load_questions
from rag.evaluate.runner import run_eval
from rag.ingest.run import ingest
from rag.journal.answers import unknown_terms
from rag.store.store import Store
from rag.store.terms import without_words

ARTICLES = {
    "ldaps": ("Activer LDAPS sur un contrôleur de domaine",
              "Pour chiffrer LDAP, installez un certificat serveur sur le contrôleur de domaine. Le port 636 doit "
              "être ouvert. Si la liaison échoue avec le code 0x80090308, le certificat ne contient pas le nom DNS "
              "complet du serveur."),
    "kerberos-rc4": ("Désactiver RC4 pour Kerberos",
                     "RC4 est obsolète. L'attribut msDS-SupportedEncryptionTypes d'un compte indique les types de "
                     "chiffrement acceptés. Mettez la valeur 24 pour AES uniquement."),
    "kerberos-general": ("Comprendre les erreurs Kerberos",
                         "Les erreurs d'authentification Kerberos viennent souvent d'un décalage horaire, d'un SPN "
                         "dupliqué ou d'un type de chiffrement non pris en charge par le compte de service."),
    "gpo": ("Stratégies de groupe non appliquées",
            "Si une GPO ne s'applique pas, lancez gpresult /r et vérifiez le filtrage de sécurité et le lien sur "
            "l'unité d'organisation."),
    "sso-interne": ("Procédure interne : fédération Keycloak",
                    "Réservé à l'équipe : notre fédération Keycloak délègue l'authentification Kerberos au "
                    "contrôleur de domaine ; le secret du client est renouvelé chaque trimestre."),
}
STAFF = "sso-interne.md"
KEYCLOAK = "Comment la fédération Keycloak délègue-t-elle l'authentification Kerberos ?"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    settings = Settings(data_dir=tmp_path_factory.mktemp("gate") / "data")
    store = Store(settings)
    embedder = EmbeddedEmbedder(threads=1)
    docs = [Document(url=f"{slug}.md", title=title, markdown=body,
                     access=["staff"] if f"{slug}.md" == STAFF else ["public"])
            for slug, (title, body) in ARTICLES.items()]
    report = ingest(docs, store, embedder, "kb")
    assert report.ok and report.new == len(ARTICLES)
    yield store, embedder, settings
    store.close()


def _decision(kb, question, groups):
    from rag.answer.retrieve import retrieve

    store, embedder, _ = kb
    info = store.collection_info("kb")
    passages = retrieve(question, store, embedder, "kb", top_k=4, groups=groups)
    return gate(question, passages, resolve_params(None, info, embedder.model_id), store, "kb", groups, info, "fr",
                embedder)


def test_a_refusal_names_the_rare_missing_word_and_calls_no_model(kb, lmstudio):
    store, embedder, settings = kb
    settings = replace(settings, llm_url=lmstudio.url)
    result = ask("Comment configurer l'authentification unique entre Okta et SAP S/4HANA ?", settings,
                 store=store, embedder=embedder, collection="kb", groups=["public"])
    assert result.refused and lmstudio.chat_calls == 0
    assert result.refusal_reason.startswith("aucun article ne parle de :")
    assert "Okta" in result.refusal_reason
    named = result.to_json()["gate"]["signals"]["subject_words"]
    # Never an everyday word, never a word an article holds ("authentification").
    assert "Okta" in named and all(zipf(w) < EVERYDAY_ZIPF for w in named)
    assert "authentification" not in named


def test_a_word_only_in_a_hidden_document_counts_as_absent_for_every_signal(kb):
    public = _decision(kb, KEYCLOAK, ["public"])
    staff = _decision(kb, KEYCLOAK, ["public", "staff"])
    assert "Keycloak" in public.signals.missing and "Keycloak" in public.signals.subject_words
    assert "Keycloak" not in staff.signals.missing
    assert public.signals.unknown > staff.signals.unknown and public.signals.held < staff.signals.held
    assert public.signals.coverage < staff.signals.coverage
    assert public.signals.rare_unknown > staff.signals.rare_unknown
    assert public.signals.rare_held < staff.signals.rare_held
    # The question's background is the median cosine of the chunks this reader may see, never the
    # staff one: searched with the reader's filter, it is not the unfiltered one.
    store, embedder, _ = kb
    vector = embedder.embed_query(KEYCLOAK)
    assert public.signals.background == pytest.approx(
        statistics.median(h.score for h in store.search_dense("kb", vector, 40, groups=["public"])))
    assert public.signals.background != pytest.approx(
        statistics.median(h.score for h in store.search_dense("kb", vector, 40)))
    assert public.score < staff.score
    # The public reader's statistics are those of a collection without the staff document.
    assert public.signals.chunks == staff.signals.chunks - 1
    text = json.dumps(public.to_dict()) + (explain(public, "fr") or "")
    assert STAFF not in text and "staff" not in text and "trimestre" not in text


class Recording:
    """The embedded model, recording what it embeds; `fail_after` embeddings, it raises as a server
    that went away does."""

    def __init__(self, inner, fail_after=None):
        self.inner, self.model_id, self.texts, self.fail_after = inner, inner.model_id, [], fail_after

    def embed_query(self, text):
        if self.fail_after is not None and len(self.texts) >= self.fail_after:
            raise EmbeddingError("the embeddings server went away")
        self.texts.append(text)
        return self.inner.embed_query(text)


def test_the_meaning_the_missing_words_carry_is_measured_by_the_collections_embedder(kb):
    from rag.answer.retrieve import retrieve

    store, embedder, _ = kb
    info = store.collection_info("kb")
    params = resolve_params(None, info, embedder.model_id)
    question = "Mon collègue Karim voit le code 0x80090308 : pourquoi la liaison LDAPS échoue ?"
    passages = retrieve(question, store, embedder, "kb", top_k=4, groups=["public"])
    recording = Recording(embedder)
    decision = gate(question, passages, params, store, "kb", ["public"], info, "fr", recording)
    # The question without its rare missing word, embedded once more by the same model.
    assert "Karim" in decision.signals.subject_words and recording.texts == [without_words(question, ["Karim"])]
    q, rest = embedder.embed_query(question), embedder.embed_query(recording.texts[0])
    cosine = sum(a * b for a, b in zip(q, rest)) / math.sqrt(sum(a * a for a in q) * sum(b * b for b in rest))
    assert decision.signals.drift == pytest.approx(1 - cosine, abs=1e-6) and 0 < decision.signals.drift < 1
    assert decision.to_dict()["signals"]["drift"] == round(decision.signals.drift, 4)
    # A question every word of which some article holds costs no second embedding.
    plain = "Pourquoi une GPO ne s'applique pas ?"
    recording = Recording(embedder)
    decision = gate(plain, retrieve(plain, store, embedder, "kb", top_k=4), params, store, "kb", None, info, "fr",
                    recording)
    assert recording.texts == [] and decision.signals.drift == 0.0
    # The server gone between the search and the gate: the question is still decided, on the rest.
    failing = Recording(embedder, fail_after=0)
    decision = gate(question, passages, params, store, "kb", ["public"], info, "fr", failing)
    assert decision.signals.drift is None and decision.verdict in ("answer", "unsure", "refuse")


@pytest.mark.parametrize("question", [
    "Mon collègue Karim voit le code 0x80090308 sur le serveur SRV-AD-02 : pourquoi la liaison LDAPS échoue ?",
    "Chez Dupont Logistique, quelle valeur de msDS-SupportedEncryptionTypes met AES uniquement ?",
    "Sur le portable Lenovo de Sandrine à Grenoble, pourquoi la GPO ne s'applique pas ?",
])
def test_a_readers_detail_on_an_answerable_question_is_not_refused_outright(kb, question):
    decision = _decision(kb, question, ["public"])
    assert decision.verdict != REFUSE, decision.to_dict()


QUESTIONS = [
    {"id": "i1", "question": "Quel code d'erreur donne une liaison LDAPS sans le nom DNS complet ?",
     "expected_source": "ldaps.md", "in_base": True},
    {"id": "i2", "question": "Quelle valeur de msDS-SupportedEncryptionTypes pour AES uniquement ?",
     "expected_source": "kerberos-rc4.md", "in_base": True},
    {"id": "i3", "question": "Pourquoi une GPO ne s'applique pas ?", "expected_source": "gpo.md", "in_base": True},
    {"id": "i4", "question": "D'où viennent les erreurs Kerberos ?", "expected_source": "kerberos-general.md",
     "in_base": True},
    {"id": "o1", "question": "Quelle est la recette de la tarte Tatin ?", "expected_source": None, "in_base": False},
    {"id": "o2", "question": "Comment configurer Okta avec Salesforce ?", "expected_source": None, "in_base": False},
    {"id": "o3", "question": "Comment installer un serveur DHCP sur Linux ?", "expected_source": None,
     "in_base": False},
]


def test_the_evaluation_counts_and_the_saved_calibration_are_the_live_decision(kb, tmp_path):
    store, embedder, _ = kb
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in QUESTIONS), encoding="utf-8")
    questions = load_questions(path)
    first = run_eval(questions, store, embedder, "kb", top_k=4, groups=["public"])
    gate_summary = first["summary"]["gate"]
    inside = [r for r in first["questions"] if r["in_base"]]
    outside = [r for r in first["questions"] if not r["in_base"]]
    assert gate_summary["at_current"]["in_base_answered_count"] == sum(not r["refused"] for r in inside)
    assert gate_summary["at_current"]["off_topic_refused_count"] == sum(r["refused"] for r in outside)
    # Each row replays to the live decision, its score with it: every signal the gate read (the
    # missing words' drift among them) is in the row.
    params = resolve_params(None, store.collection_info("kb"), embedder.model_id)
    assert any(r["drift"] for r in outside)
    for row in first["questions"]:
        verdict, score = row_decision(row, params.min_cosine, source=params.source)
        assert verdict == row["verdict"] and score == pytest.approx(row["gate_score"]), row["id"]
    suggested = gate_summary["calibration"]["suggested"]
    saved = save_calibration(store, "kb", suggested, path.name)
    try:
        info = store.collection_info("kb")
        assert info["gate"]["question_set"] == "set.jsonl" and info["gate"]["date"]
        params = resolve_params(None, info, embedder.model_id)
        assert (params.min_cosine, params.source) == (saved["min_cosine"], "collection")
        again = run_eval(questions, store, embedder, "kb", top_k=4, groups=["public"])
        expected = {r["id"]: r for r in first["questions"]}
        for row in again["questions"]:
            assert row["refused"] is (not row_answers(expected[row["id"]], suggested["min_cosine"])), row["id"]
        assert again["summary"]["gate"]["in_base_answered"] == suggested["in_base_answered"]
        assert again["summary"]["gate"]["off_topic_refused"] == suggested["off_topic_refused"]
    finally:
        store.update_metadata("kb", threshold=None, gate=None)


def test_a_collection_built_before_the_gate_still_answers_with_a_note(kb, lmstudio):
    store, embedder, settings = kb
    settings = replace(settings, llm_url=lmstudio.url)
    version = store.collection_info("kb")["terms_version"]
    store.update_metadata("kb", terms_version=None)  # what a collection built before term keys records
    try:
        result = ask("Quelle valeur de msDS-SupportedEncryptionTypes pour AES uniquement ?", settings,
                     store=store, embedder=embedder, collection="kb", groups=["public"])
        assert not result.refused and result.llm_error is None and result.answer
        assert any("--full" in w for w in result.warnings)
        assert result.to_json()["gate"]["signals"]["coverage"] is None
    finally:
        store.update_metadata("kb", terms_version=version)


ENGLISH = {
    "zones": ("Copper zones", "A copper zone fills an area of the board with copper. To keep pads easy to solder "
              "by hand, set the zone's pad connection to thermal reliefs: the zone then reaches each pad through "
              "a few thin spokes instead of touching it all around."),
    "tracks": ("Routing tracks", "The router draws tracks at 45 degree angles by default. Hold the modifier key "
               "to route free-angle tracks, and press the hotkey V to insert a via in the middle of a track."),
    "plot": ("Plotting", "Gerber files are written from the Plot dialog. Check each copper layer and the board "
             "outline, then generate the drill files from the same dialog."),
}


@pytest.fixture(scope="module")
def english_kb(tmp_path_factory):
    store = Store(Settings(data_dir=tmp_path_factory.mktemp("gate-en") / "data"))
    docs = [Document(url=f"{slug}.md", title=title, markdown=body) for slug, (title, body) in ENGLISH.items()]
    assert ingest(docs, store, EmbeddedEmbedder(threads=1), "en").ok
    yield store, EmbeddedEmbedder(threads=1)
    store.close()


def test_a_question_in_another_language_than_the_articles_is_not_refused_for_its_words(english_kb):
    """Pages in English, a reader asking in French: none of the question's French words is in an
    article, which says nothing about its subject. The word shares are not compared; the passages'
    closeness decides, and a far question is still refused."""
    from rag.answer.retrieve import retrieve

    store, embedder = english_kb
    info = store.collection_info("en")

    def decide(question):
        passages = retrieve(question, store, embedder, "en", top_k=3)
        return gate(question, passages, resolve_params(None, info, embedder.model_id), store, "en", None, info, "fr")

    asked = decide("Comment insérer un via au milieu d'une piste ?")  # refused when its words were weighed
    assert asked.signals.other_language and asked.signals.rare_held is None and asked.signals.rare_unknown is None
    assert asked.verdict != REFUSE, asked.to_dict()
    detailed = decide("Comment éviter que la zone de cuivre colle direct aux pastilles, pour les souder au fer ?")
    assert detailed.verdict != REFUSE and "pastilles" in detailed.signals.missing  # reported, never weighed
    far = decide("Combien de temps faut-il cuire un gigot d'agneau au four ?")
    assert far.verdict == REFUSE, far.to_dict()
    # Its refusal says the passages are too far, never "no article speaks of: gigot, agneau" (the
    # English pages were not searched for French words), and the journal proposes no subject.
    assert "gigot" not in explain(far, "fr") and "proche" in explain(far, "fr")
    assert unknown_terms(far.to_dict()) == []
    same = decide("How do I keep a copper zone from touching the pads all around?")
    assert not same.signals.other_language and same.signals.rare_held is not None
