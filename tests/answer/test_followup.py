"""Follow-up questions made standalone: detection, the rewrite on the LM Studio emulator (prompt,
timeout, limits), and the fallback without a model."""

from __future__ import annotations

import pytest

from rag.answer import followup
from rag.answer.followup import MODEL, TERMS, Turn, is_follow_up, understand
from rag.servers.chat import LLMClient

KERBEROS = Turn("Quelle valeur de msDS-SupportedEncryptionTypes n'autorise que AES ?",
                "La valeur 0x18 (24) n'autorise que AES128 et AES256 [1].")
REWRITTEN = "Quelle valeur de msDS-SupportedEncryptionTypes mettre sur un compte de service pour n'autoriser que AES ?"


@pytest.mark.parametrize("question", [
    "Et pour un compte de service ?", "Comment je le modifie ?", "Quelle est sa valeur par défaut ?",
    "Et data 775 ?", "Comment la diagnostiquer quand elle échoue ?", "What about data 533?",
    "How do I use it in a scheduled task?",
])
def test_a_question_that_leans_on_the_conversation_is_a_follow_up(question):
    assert is_follow_up(question)


@pytest.mark.parametrize("question", [
    "Que signifie KRB_AP_ERR_MODIFIED ?", "Avec setspn -X, à quoi sert l'option -F ?",
    "Dans quel attribut Windows LAPS stocke-t-il le mot de passe quand le chiffrement est activé ?",
    "Mon connecteur LDAP renvoie 80090308 avec data 775, qu'est-ce que ça veut dire ?",
    "Comment convertir le fichier .etl d'une capture netsh trace pour l'ouvrir dans Wireshark ?",
])
def test_a_question_that_names_its_subject_stands_alone(question):
    assert not is_follow_up(question)


def test_without_a_model_the_previous_questions_terms_are_appended():
    understood = understand("Et pour un compte de service ?", [KERBEROS], llm=None)
    assert understood.method == TERMS and understood.rewritten
    assert "msDS-SupportedEncryptionTypes" in understood.terms and "AES" in understood.terms
    assert understood.standalone.startswith("Et pour un compte de service ?")
    assert "valeur" in understood.standalone and "autorise" in understood.standalone
    # A standalone question after a turn, or a first question, is searched as asked.
    for asked, turns in (("Que signifie KRB_AP_ERR_MODIFIED ?", [KERBEROS]), ("Et pour un compte de service ?", [])):
        plain = understand(asked, turns, llm=None)
        assert plain.standalone == asked and not plain.rewritten


def test_the_model_rewrites_a_follow_up_with_its_own_prompt(lmstudio):
    lmstudio.answer = f"Question autonome : « {REWRITTEN} »\n"
    with LLMClient(lmstudio.url) as llm:
        understood = understand("Et pour un compte de service ?", [KERBEROS], llm)
    assert understood.method == MODEL and understood.standalone == REWRITTEN
    body = [r["body"] for r in lmstudio.requests if r["path"].endswith("/chat/completions")][-1]
    assert body["stream"] is False and body["max_tokens"] == followup.REWRITE_MAX_TOKENS
    system, user = body["messages"]
    assert followup.is_rewrite_request(body["messages"])
    assert "question autonome" in system["content"] and "Ne réponds pas" in system["content"]
    assert KERBEROS.question in user["content"] and "0x18" in user["content"]
    assert user["content"].rstrip().endswith("Question autonome :")
    assert "Dernière question : Et pour un compte de service ?" in user["content"]


def test_an_english_follow_up_gets_the_english_prompt(lmstudio):
    lmstudio.answer = "How do I purge the Kerberos tickets of my session with klist?"
    with LLMClient(lmstudio.url) as llm:
        understood = understand("And how do I purge them?", [Turn("How do I show the Kerberos tickets of my session?")],
                                llm)
    assert understood.standalone == "How do I purge the Kerberos tickets of my session with klist?"
    system, user = lmstudio.last_messages()
    assert "standalone question" in system["content"] and user["content"].rstrip().endswith("Standalone question:")


def test_only_the_last_turns_go_to_the_rewrite_each_cut(lmstudio):
    lmstudio.answer = REWRITTEN
    long_answer = "x" * 5000
    turns = [Turn(f"Question ancienne {i} ?", long_answer) for i in range(5)] + [KERBEROS]
    with LLMClient(lmstudio.url) as llm:
        understand("Et pour un compte de service ?", turns, llm)
    user = lmstudio.last_messages()[1]["content"]
    assert "Question ancienne 3" not in user and "Question ancienne 4" in user
    assert len(user) < 2 * (followup.MAX_TURNS * followup.MAX_TURN_CHARS) + 500


def test_a_slow_or_unusable_rewrite_falls_back_to_the_terms(lmstudio):
    lmstudio.delay = 1.5
    lmstudio.answer = REWRITTEN
    with LLMClient(lmstudio.url) as llm:
        slow = understand("Et pour un compte de service ?", [KERBEROS], llm, timeout=0.3)
    assert slow.method == TERMS and "msDS-SupportedEncryptionTypes" in slow.standalone
    assert "0.3 s" in slow.error  # the rewrite's own timeout, not the answer's
    lmstudio.delay = 0
    for bad in ("", "Voici une réponse.\n" * 5, "Q" * (followup.MAX_QUESTION_CHARS + 1)):
        lmstudio.answer = bad
        with LLMClient(lmstudio.url) as llm:
            assert understand("Et pour un compte de service ?", [KERBEROS], llm).method == TERMS, bad[:20]
    lmstudio.down()
    with LLMClient(lmstudio.url) as llm:
        down = understand("Et pour un compte de service ?", [KERBEROS], llm)
    assert down.method == TERMS and down.error


def test_a_server_stalling_on_its_model_list_holds_the_rewrite_for_its_own_timeout_only(lmstudio):
    lmstudio.answer, lmstudio.models_delay = REWRITTEN, 3.0
    with LLMClient(lmstudio.url, timeout=60) as llm:  # no model configured: the list is read first
        stalled = understand("Et pour un compte de service ?", [KERBEROS], llm, timeout=0.3)
    assert stalled.method == TERMS and "msDS-SupportedEncryptionTypes" in stalled.standalone
    assert "0.3 s" in stalled.error and lmstudio.chat_calls == 0


def test_a_standalone_question_costs_no_rewrite_call(lmstudio):
    with LLMClient(lmstudio.url) as llm:
        understood = understand("Que signifie KRB_AP_ERR_MODIFIED ?", [KERBEROS], llm)
    assert not understood.rewritten and lmstudio.chat_calls == 0
