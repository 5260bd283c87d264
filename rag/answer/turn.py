"""One conversation turn, as the engine plays it (rag.answer.engine.AnswerEngine.chat): what was
said, what was searched, the gate's decision, the answer as it streams, how it ended.

    turn = engine.chat("Et pour un compte de service ?", history)
    for piece in turn:        # the model's text, as it streams (nothing without a model call)
        show(turn.text)
    turn.outcome              # an Outcome: answered, refused_gate, ..., stopped, small_talk
    turn.result               # the checked answer (AskResult), its passages and sources

The Ask page renders a Turn, `rag chat` writes it as JSON, the evaluation replays follow-ups
through it: one turn, wherever a conversation is held.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from rag.answer import followup
from rag.answer.pipeline import AskResult, Outcome


@dataclass
class Turn:
    """A question (or a greeting) and what the engine did with it.

    `understood`: what the gate and the retrieval saw (the question as asked, the model's rewrite
    of a follow-up, or the previous question's subject terms appended). `judged_as_asked`: a
    follow-up refused as it was asked, before any rewrite, for naming what no article holds.
    `small_talk`: GREETING, THANKS or GOODBYE (rag.answer.small_talk); nothing was searched.
    """

    question: str
    understood: followup.Understood
    response: Any = None  # rag.answer.engine.Response; None for small talk
    small_talk: str | None = None
    judged_as_asked: bool = False
    small_talk_result: AskResult | None = None  # small talk as the engine recorded it (no response)

    def __iter__(self) -> Iterator[str]:
        return iter(self.response) if self.response is not None else iter(())

    @property
    def streams(self) -> bool:
        return self.response is not None and self.response.streams

    @property
    def text(self) -> str:
        return self.response.text if self.response is not None else ""

    @property
    def decision(self) -> Any:
        """The gate's decision (rag.answer.gate.Decision), None for small talk."""
        return self.response.decision if self.response is not None else None

    @property
    def result(self) -> AskResult:
        """The checked answer (iterating to the end first if needed)."""
        if self.response is None:
            if self.small_talk_result is None:
                self.small_talk_result = AskResult(question=self.question, answer=None, refused=False, passages=[],
                                      outcome=Outcome.SMALL_TALK, small_talk=self.small_talk)
            return self.small_talk_result
        return self.response.result

    def stop(self) -> AskResult:
        """The reader stopped the answer: what streamed so far is the answer, recorded as stopped."""
        if self.response is None:
            return self.result
        return self.response.stop()

    @property
    def outcome(self) -> Outcome:
        return Outcome(self.result.outcome)

    def said(self) -> followup.Turn:
        """This turn as the next follow-up's rewrite reads it: the question searched, the answer."""
        result = self.result
        answered = result.outcome in (Outcome.ANSWERED, Outcome.STOPPED)
        return followup.Turn(self.understood.standalone, (result.raw_answer or "") if answered else "")

    def to_json(self) -> dict[str, Any]:
        """`rag ask --json`'s keys, plus `question` (as asked), `understood` and `small_talk`."""
        return {**self.result.to_json(), "question": self.question, "understood": self.understood.to_dict(),
                "small_talk": self.small_talk}


def earlier(history: Sequence[Turn | followup.Turn]) -> list[followup.Turn]:
    """The turns a follow-up may lean on, as the rewrite reads them (small talk leaves none)."""
    said = [h.said() if isinstance(h, Turn) else h for h in history
            if not (isinstance(h, Turn) and h.small_talk)]
    return said[-followup.MAX_TURNS:]
