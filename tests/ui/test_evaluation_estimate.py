"""The Evaluate page's time estimate before a run: honest the first time (it said "about 10 s" for
a run of 50.7 s, five times too low), this machine's pace once a run was timed, and the chat
model's part said apart."""

from __future__ import annotations

from types import SimpleNamespace

import rag.i18n
from ui import eval_view
from ui.present import evaluation

RETRIEVAL_RUN = {"llm": False, "questions": 68, "seconds": 50.7}
ANSWER_RUN = {"llm": True, "questions": 10, "seconds": 57.5}  # 0.75 s retrieval + 5 s an answer


def test_the_first_estimate_is_within_reach_of_the_run_it_announces_and_says_it_is_a_guess():
    first = evaluation.estimate_seconds([], 68, 1, with_llm=False)
    assert not first.learnt and first.chat_seconds is None
    assert 0.5 * 50.7 <= first.seconds <= 2 * 50.7  # the measured run: 50.7 s (the old guess: 10 s)


def test_after_a_run_the_estimate_follows_this_machines_pace():
    learnt = evaluation.estimate_seconds([RETRIEVAL_RUN], 68, 1, with_llm=False)
    assert learnt.learnt and round(learnt.seconds, 1) == 50.7
    assert round(evaluation.estimate_seconds([RETRIEVAL_RUN], 34, 2, with_llm=False).seconds, 1) == 50.7


def test_with_answers_the_chat_models_part_is_said_apart():
    guess = evaluation.estimate_seconds([], 10, 1, with_llm=True)
    assert not guess.learnt and guess.chat_seconds == 10 * evaluation.ANSWER_SECONDS
    timed = evaluation.estimate_seconds([ANSWER_RUN, RETRIEVAL_RUN], 10, 1, with_llm=True)
    assert timed.learnt and round(timed.seconds, 1) == 57.5 and round(timed.chat_seconds, 1) == 50.0


def test_the_sentence_says_whether_the_pace_is_known(monkeypatch):
    monkeypatch.setattr(eval_view, "list_runs", lambda settings: [])
    with rag.i18n.language("fr"):
        first = eval_view.estimate(68, 1, False, SimpleNamespace())
        monkeypatch.setattr(eval_view, "list_runs", lambda settings: [ANSWER_RUN, RETRIEVAL_RUN])
        timed = eval_view.estimate(10, 1, True, SimpleNamespace())
    assert first.startswith("68 questions sur 1 collection : environ 51 s. C'est une estimation grossière")
    assert timed == ("10 questions sur 1 collection : environ 58 s. Dont environ 50 s pour les réponses du modèle "
                     "de chat. Au rythme de la dernière évaluation de ce type sur cette machine.")


def test_when_the_search_itself_asks_the_chat_model_the_estimate_says_so(monkeypatch):
    monkeypatch.setattr(eval_view, "list_runs", lambda settings: [RETRIEVAL_RUN])
    with rag.i18n.language("fr"):
        plain = eval_view.estimate(68, 1, False, SimpleNamespace(query_rewrite="off", llm_rerank=False))
        levers = eval_view.estimate(68, 1, False, SimpleNamespace(query_rewrite="rewrite", llm_rerank=False))
    assert "modèle de chat" not in plain
    assert "RAG_LLM_RERANK) : cette part va au rythme du modèle de chat." in levers
