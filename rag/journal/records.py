"""The journal's records: one question and its answer (`Entry`), a reader's vote on it (`Feedback`),
a reader's conversation (`Conversation`). Plain dataclasses; `rag.journal.store` reads and writes them."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

OUTCOMES = ("answered", "refused_gate", "refused_model", "passages_only", "failed", "stopped")
ORIGINS = ("ask", "cli")


def new_id() -> str:
    """32 hex digits, like uuid4().hex, that sort in the order they were made (time first)."""
    return f"{time.time_ns():016x}{secrets.token_hex(8)}"[-32:]


@dataclass
class Feedback:
    """A reader's vote on an entry: +1 (useful) or -1 (not useful), with an optional comment."""

    entry_id: str
    reader: str
    rating: int
    comment: str = ""
    time: str = ""


@dataclass
class Entry:
    """One question asked and what the product did with it.

    `passages` is a list of {n, title, section, url, doc_id, score, text}; `citations` the numbers
    the answer cites (sources only those of them in `checks["sent_passages"]`);
    `unknown_terms` what the question asks that no article mentions
    (rag.journal.answers.unknown_terms).
    `id` and `time` are filled by `Journal.record` when empty; `turn` too, inside a conversation.
    `feedback` is read back from the feedback table (it is not a column of the entry).
    """

    question: str
    outcome: str
    collection: str = ""
    reader: str = ""
    origin: str = "cli"
    answer: str = ""
    verdict: str = ""
    refusal_reason: str = ""  # the sentence of older entries; `refusal` says it now
    unknown_terms: list[str] = field(default_factory=list)
    passages: list[dict[str, Any]] = field(default_factory=list)
    citations: list[int] = field(default_factory=list)
    model: str = ""
    threshold: float | None = None
    language: str = ""
    standalone_question: str = ""
    conversation_id: str | None = None
    turn: int | None = None
    id: str = ""
    time: str = ""
    feedback: list[Feedback] = field(default_factory=list)
    # Why it was refused, as data (rag.answer.refusal): said again in the reader's language.
    refusal: dict[str, Any] = field(default_factory=dict)
    # What the reader was shown about the answer's trust: {sent_passages, accepted,
    # invalid_citations, uncited, answer_urls, dropped_passages, warnings}.
    checks: dict[str, Any] = field(default_factory=dict)
    small_talk: str = ""  # greeting | thanks | goodbye (rag.answer.small_talk): a word back, nothing asked

    @property
    def refused(self) -> bool:
        return self.outcome in ("refused_gate", "refused_model")

    @property
    def searched(self) -> str:
        """The question as it was searched: a follow-up's standalone form ("et sur Windows ?" means
        nothing out of its conversation), else the question as asked."""
        return self.standalone_question or self.question

    @property
    def rating(self) -> int:
        """The sum of the readers' votes (0 without any)."""
        return sum(f.rating for f in self.feedback)


@dataclass
class Conversation:
    """A reader's thread of questions; its entries are its turns (`Journal.turns`)."""

    id: str
    reader: str = ""
    collection: str = ""
    title: str = ""
    created: str = ""
    updated: str = ""
