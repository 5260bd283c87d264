"""What a walk through the Ask page on the demo collection tripped on, through the gate's word checks.

A customer named after "chez le client" is the reader's situation, in French and in English; the
refusal names what the reader asked about (the distinctive words no article holds), never a verb
form or an everyday adverb, and the journal's subjects are the same words.
"""

from __future__ import annotations

import pytest

from rag.answer.gate import ANSWER, REFUSE, UNKNOWN_NAMES, Decision, GateParams, decide_verdict, explain
from rag.answer.gate_words import signals_from
from rag.answer.question_roles import roles
from rag.journal.answers import unknown_terms
from rag.store.terms import question_words

PARAMS = GateParams(0.83, 0.6, True, "model default")


class _P:
    score = 0.85
    text = ""
    id = ""


def _signals(question: str, absent: set[str], n: int = 97, score: float = 0.85):
    """The signals of `question` on a collection whose chunks hold every word but `absent`."""
    df: dict[str, int] = {}
    for w in question_words(question):
        for key in (*w.parts, *w.forms, *([w.exact] if w.exact else []), *([w.whole] if w.whole else [])):
            df[key] = 0 if w.text in absent else 7
    passage = _P()
    passage.score = score
    return signals_from(question, [passage], df, n, exact=True)


@pytest.mark.parametrize("question", [
    "Comment installer Okta chez le client Airbus ?",
    "Comment installer Okta auprès du client Airbus ?",
    "How do I install Okta at the customer Airbus?",
])
def test_the_customer_after_where_someone_is_and_their_role_is_the_situation(question):
    assert "Airbus" in roles(question)[0]
    signals = _signals(question, {"Airbus"})
    assert signals.context_words == ["Airbus"] and signals.unknown_subject == []
    assert decide_verdict(signals, PARAMS)[0] != REFUSE


@pytest.mark.parametrize("question", [
    "Comment installer le client Okta ?",  # Okta's client software
    "Chez le client, Okta convient-il ?",  # across a comma, Okta is what is asked about
])
def test_the_product_stays_the_subject(question):
    assert "Okta" not in roles(question)[0]
    signals = _signals(question, {"Okta"})
    assert signals.unknown_subject == ["Okta"]
    assert decide_verdict(signals, PARAMS) == (REFUSE, UNKNOWN_NAMES)


def _refusal(question: str, absent: set[str], score: float, passage_text: str = "", language: str = "fr"):
    df: dict[str, int] = {}
    for w in question_words(question):
        for key in (*w.parts, *w.forms, *([w.exact] if w.exact else []), *([w.whole] if w.whole else [])):
            df[key] = 0 if w.text in absent else 7
    passage = _P()
    passage.score, passage.text = score, passage_text
    signals = signals_from(question, [passage], df, 97, exact=True)
    verdict, reason = decide_verdict(signals, PARAMS)
    decision = Decision(verdict != REFUSE, reason, signals, PARAMS, verdict=verdict)
    return decision, explain(decision, language)


def test_the_refusal_names_what_was_asked_about_not_an_everyday_verb():
    decision, why = _refusal("How do I make pancakes?", {"make", "pancakes"}, 0.788, language="en")
    assert decision.verdict == REFUSE
    assert "pancakes" in why and "make" not in why
    assert decision.signals.subject_words == ["pancakes"]


def test_only_everyday_words_and_details_missing_the_refusal_says_the_passages_are_far():
    question = "Quel temps fera-t-il demain à Lyon ?"
    decision, why = _refusal(question, {"fera", "demain", "Lyon"}, 0.772)
    assert decision.verdict == REFUSE  # still refused
    assert not {"fera", "demain", "Lyon"} & set(why.replace(",", " ").split())
    assert "0,772" in why  # the passages' distance is the reason said


def test_the_rarest_missing_words_come_first():
    decision, why = _refusal("Quel est le meilleur moment pour tailler une glycine ?", {"meilleur", "glycine"}, 0.835)
    assert decision.verdict == REFUSE and why.endswith("glycine")


ENGLISH = "My colleague Jean-Marc Rousseau asks how to purj kerberos tikets without loging off"


def test_english_details_and_everyday_words_are_not_named_by_the_refusal():
    question = ENGLISH.replace("purj", "kdestroy")  # a program no article names
    absent = {"colleague", "Jean-Marc", "Rousseau", "asks", "kdestroy", "tikets", "without", "loging", "off"}
    decision, why = _refusal(question, absent, 0.852, "Purger les tickets Kerberos (login) : klist purge", "en")
    assert decision.reason == UNKNOWN_NAMES and why == "no article mentions: kdestroy"
    assert {"colleague", "Jean-Marc", "Rousseau"} <= set(decision.signals.context_words)
    assert unknown_terms(decision.to_dict()) == ["kdestroy"]  # the journal's subject, without "asks", "off"


def test_english_typos_read_as_the_english_words_the_passages_hold():
    question = ENGLISH.replace("purj", "purge")
    absent = {"colleague", "Jean-Marc", "Rousseau", "asks", "tikets", "without", "loging", "off"}
    decision, why = _refusal(question, absent, 0.86, "Purger les tickets Kerberos sans fermer la session (login)", "en")
    typos = {s.word: s.typo_of for s in decision.signals.terms if s.typo_of}
    assert typos == {"tikets": "tickets", "loging": "login"}
    # English on French passages: "asks", "without", "off" are words the articles cannot hold.
    assert decision.signals.other_language
    assert decision.verdict == ANSWER and why is None


def test_a_word_written_as_it_sounds_is_the_passages_word():
    absent = {"colleague", "Jean-Marc", "Rousseau", "asks", "purj", "tikets", "without", "loging", "off"}
    decision, _ = _refusal(ENGLISH, absent, 0.86, "Purger les tickets Kerberos (login) : klist purge", "en")
    assert {s.word: s.typo_of for s in decision.signals.terms}["purj"] == "purge"
    assert decision.verdict != REFUSE


def test_the_journal_keeps_a_product_set_aside_as_an_alternative_but_not_the_customer():
    decision, why = _refusal("Comment installer Okta chez le client Airbus ?", {"Okta", "Airbus"}, 0.85)
    assert decision.verdict == REFUSE and unknown_terms(decision.to_dict()) == ["Okta"]
    assert why == "aucun article ne parle de : Okta"  # the subject, not the customer
    decision, _ = _refusal("Faut-il OpenVPN ou WireGuard pour le télétravail ?", {"OpenVPN", "WireGuard"}, 0.8)
    assert set(unknown_terms(decision.to_dict())) == {"OpenVPN", "WireGuard"}


def test_journal_terms_of_signals_recorded_before_the_subject_words_key():
    old = {"signals": {"missing": ["colleague", "Karim", "asks", "keepalived"], "context_words": ["colleague", "Karim"],
                       "ordinary_words": ["asks"], "unknown_names": ["Karim", "keepalived"],
                       "unknown_subject": ["keepalived"]}}
    assert unknown_terms(old) == ["keepalived"]


def test_a_run_of_names_stops_at_a_colon_or_a_comma():
    context = roles("Nos mails partent en spam chez Gmail : SPF ou DKIM mal configuré ?")[0]
    assert "Gmail" in context and "SPF" not in context  # SPF is what is asked about
    assert roles("Chez Airbus, Okta convient-il ?")[0] == {"Airbus"}  # the product is not set aside
    assert roles("À Lyon, Okta est-il utilisé ?")[0] == {"Lyon"}
    assert roles("Sur SRV-BDX-07, Okta plante : pourquoi ?")[0] == {"SRV-BDX-07"}  # the machine is


def test_the_machine_before_a_comma_is_set_aside_and_what_follows_keeps_its_role():
    question = "Depuis WKS042, Excel refuse d'exécuter cette macro : comment l'autoriser ?"
    context = roles(question)[0]
    assert "WKS042" in context and "Excel" not in context
    signals = _signals(question, {"WKS042", "Excel"})
    assert signals.unknown_subject == ["Excel"]
    assert decide_verdict(signals, PARAMS) == (REFUSE, UNKNOWN_NAMES)  # refused by what it asks, not the machine


@pytest.mark.parametrize("question, details", [
    ("My colleague Jean-Marc Rousseau asks how to purge Kerberos tickets", {"colleague", "Jean-Marc", "Rousseau"}),
    ("Our customer Airbus asks how to purge Kerberos tickets", {"customer", "Airbus"}),
    ("How do I purge Kerberos tickets at Acme Ltd?", {"Acme", "Ltd"}),
    ("How do I purge Kerberos tickets for Globex Inc?", {"Globex", "Inc"}),
    ("How do I purge Kerberos tickets at Initech LLC?", {"Initech", "LLC"}),
])
def test_english_forms_of_the_situation_are_set_aside_as_the_french_ones(question, details):
    signals = _signals(question, details)
    assert set(signals.context_words) == details and signals.unknown_subject == []
    assert decide_verdict(signals, PARAMS)[0] != REFUSE
