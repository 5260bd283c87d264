"""Finding a conversation again: every word typed must appear in its title or one of its questions,
whatever the case and accents ("kerberos delegation" finds "Délégation Kerberos ?")."""

from __future__ import annotations

from typing import Mapping, Sequence

from rag.journal.records import Conversation
from rag.textnorm import fold, normalize_answer


def _folded(text: str) -> str:
    return fold(normalize_answer(text or ""))


def matching(conversations: Sequence[Conversation], questions: Mapping[str, Sequence[str]],
             query: str) -> list[Conversation]:
    """The conversations, in their order, whose title or questions (`questions`: by conversation
    id) hold every word of `query`; all of them for an empty query."""
    words = _folded(query).split()
    if not words:
        return list(conversations)
    found = []
    for conversation in conversations:
        text = _folded(" ".join([conversation.title, *questions.get(conversation.id, ())]))
        if all(word in text for word in words):
            found.append(conversation)
    return found
