"""One conversation turn, owned by the engine (AnswerEngine.chat): a follow-up is gated like any
question, a refusal never calls the chat model for the answer, the gate is an object given to the
engine, a stopped answer ends as stopped, small talk searches nothing. Over the demo articles, with
the LM Studio stand-in counting the chat calls."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rag.answer import followup
from rag.answer.engine import AnswerEngine
from rag.answer.gate import REFUSE, Decision, GateParams
from rag.answer.pipeline import Outcome
from rag.answer.small_talk import THANKS
from rag.servers.chat import LLMClient
from rag.store.store import Store

IN_BASE = "Comment purger les tickets Kerberos ?"
OFF_TOPIC_AFTER = "Et avec keepalived ?"


@pytest.fixture
def store(demo_index):
    store = Store(demo_index.settings())
    yield store
    store.close()


def _engine(demo_index, store, lmstudio=None, **options):
    llm = LLMClient(lmstudio.url) if lmstudio is not None else None
    return AnswerEngine(demo_index.settings(), store, collection=demo_index.collection, llm=llm,
                        with_llm=lmstudio is not None, **options)


def _cite_first(messages):
    return "Purgez le cache avec klist purge [1]."


def test_an_off_topic_question_after_an_in_base_one_is_refused_without_an_answer_call(demo_index, store, lmstudio):
    lmstudio.answer = _cite_first
    engine = _engine(demo_index, store, lmstudio)
    first = engine.chat(IN_BASE)
    assert first.outcome == Outcome.ANSWERED
    calls = lmstudio.chat_calls
    second = engine.chat(OFF_TOPIC_AFTER, [first])
    assert second.outcome == Outcome.REFUSED_GATE
    assert second.judged_as_asked and second.understood.standalone == OFF_TOPIC_AFTER
    assert "keepalived" in (second.result.refusal_reason or "")
    assert lmstudio.chat_calls == calls  # neither a rewrite nor an answer


def test_a_follow_up_is_rewritten_then_gated_before_the_answer(demo_index, store, lmstudio):
    """The rewrite names a subject no article holds: the gate refuses it, the model is not asked
    for an answer (one call: the rewrite)."""
    def model(messages):
        if followup.is_rewrite_request(messages):
            return "Comment configurer keepalived et HAProxy sur un routeur ?"
        return _cite_first(messages)

    lmstudio.answer = model
    engine = _engine(demo_index, store, lmstudio)
    first = engine.chat(IN_BASE)
    assert first.outcome == Outcome.ANSWERED
    calls = lmstudio.chat_calls
    second = engine.chat("Et pour un compte de service ?", [first])
    assert second.understood.method == followup.MODEL
    assert second.outcome == Outcome.REFUSED_GATE
    assert lmstudio.chat_calls == calls + 1
    assert second.result.question == "Et pour un compte de service ?"
    assert second.result.standalone_question == second.understood.standalone


@dataclass
class NoSignals:
    def to_dict(self):
        return {}


def test_the_gate_is_an_object_given_to_the_engine(demo_index, store, lmstudio):
    seen = []

    def never(question, passages):
        seen.append(question)
        return Decision(answer=False, reason="no_passage", signals=NoSignals(),
                        params=GateParams(0.9, source="setting"), verdict=REFUSE)

    engine = _engine(demo_index, store, lmstudio, gate=never)
    turn = engine.chat(IN_BASE)
    assert seen == [IN_BASE]
    assert turn.outcome == Outcome.REFUSED_GATE and turn.result.refused
    assert lmstudio.chat_calls == 0


def test_a_stopped_answer_ends_as_stopped_with_what_came(demo_index, store, lmstudio):
    lmstudio.answer = "Purgez le cache avec klist purge [1]. Puis vérifiez avec klist [1]."
    lmstudio.stream_parts = 6
    recorded = []
    engine = _engine(demo_index, store, lmstudio, recorders=[lambda result, origin: recorded.append(result)])
    turn = engine.chat(IN_BASE)
    assert turn.streams
    pieces = iter(turn)
    next(pieces)
    result = turn.stop()
    assert result.outcome == Outcome.STOPPED == "stopped" and not result.refused
    assert result.raw_answer and result.raw_answer != lmstudio.answer
    assert recorded == [result]
    assert turn.to_json()["outcome"] == "stopped"


def test_small_talk_searches_nothing_and_is_recorded_like_any_turn(demo_index, store, lmstudio):
    recorded = []
    engine = _engine(demo_index, store, lmstudio, recorders=[lambda result, origin: recorded.append(result)])
    turn = engine.chat("Merci !")
    assert turn.small_talk == THANKS and turn.outcome == Outcome.SMALL_TALK
    assert lmstudio.chat_calls == 0 and not turn.result.passages
    assert recorded == [turn.result] and recorded[0].small_talk == THANKS


def test_without_a_model_only_the_previous_subject_carries_over(demo_index, store):
    """Not the reader's situation: a colleague's name is held by no article, an everyday word by many."""
    engine = _engine(demo_index, store)
    previous = "Mon collègue Julien Moreau demande comment purger les tickets Kerberos avec klist"
    first = engine.chat(previous)
    second = engine.chat("Et pour un compte de service ?", [first])
    assert second.understood.method == followup.TERMS
    terms = {t.casefold() for t in second.understood.terms}
    assert "klist" in terms
    assert not terms & {"julien", "moreau", "collègue", "demande"}
