"""Greetings, thanks and goodbyes typed into the chat ("Bonjour", "Merci !"): there is no question
to search, so there is no refusal either. Searched, "Bonjour" was refused naming "Bonjour" as a
subject no article covers, and the journal listed it among the articles to write.

`kind_of(message)` is GREETING, THANKS or GOODBYE when the whole message is one of these phrases
(case, accents, punctuation and emoji aside), else None: a question that opens with "Bonjour, "
is a question."""

from __future__ import annotations

import re

from rag.textnorm import fold

GREETING, THANKS, GOODBYE = "greeting", "thanks", "goodbye"
MAX_WORDS = 5  # longer than this, a message says something more than hello

_PHRASES = {
    GREETING: """bonjour|salut|bonsoir|coucou|hello|hi|hey|bonjour a tous|bonjour tout le monde|salut a tous
                 |good morning|good afternoon|good evening|hello there|hi there|re bonjour|rebonjour""",
    THANKS: """merci|merci beaucoup|merci bien|merci a toi|merci a vous|merci infiniment|super merci|parfait merci
               |ok merci|d accord merci|top merci|genial merci|thanks|thank you|thanks a lot|thank you very much|thx
               |great thanks|ok thanks|perfect thanks|many thanks""",
    GOODBYE: """au revoir|a plus|a bientot|bonne journee|bonne soiree|bonne fin de journee|bye|goodbye|bye bye
                |see you|have a nice day""",
}
_SETS = {kind: {" ".join(p.split()) for p in text.split("|")} for kind, text in _PHRASES.items()}
_NOT_WORD = re.compile(r"[^\w]+")  # punctuation, emoji, apostrophes: one space


def _fold(text: str) -> str:
    return " ".join(_NOT_WORD.sub(" ", fold(text)).split())


def kind_of(message: str) -> str | None:
    """GREETING, THANKS or GOODBYE for a message that is only that, else None."""
    folded = _fold(message or "")
    if not folded or len(folded.split()) > MAX_WORDS:
        return None
    return next((kind for kind, phrases in _SETS.items() if folded in phrases), None)
