"""Which language a question is written in: French or English, from its accents and common words.

Below every stage: enrichment (a context in the chunk's language) and answering (the prompt and the
refusal in the question's) both use it.
"""

from __future__ import annotations

import re
from typing import Sequence

_FR_WORDS = set(
    "le la les des du de un une est sont et en que qui quoi quel quelle quels quelles comment pourquoi "
    "où ou dans pour avec sur ne pas je tu il elle nous vous ils on ce cette ces au aux se sa son ses "
    "faut peut-on peut puis-je dois-je est-ce qu c l d j n s mon ma mes leur lorsque quand".split()
)
_EN_WORDS = set(
    "the is are what how why which where who whom does do did can could should would to of in with for "
    "on a an and not i you it this that these those my your from by be was were when there my "
    "its into get set use using".split()
)
_FR_CHARS = set("éèêëàâçùûüôîïœæ«»")


def detect_language(text: str) -> str:
    """"fr" or "en", from accents and common words; French when unsure (the corpus's language)."""
    return evident_language(text) or "fr"


def evident_language(text: str) -> str | None:
    """"fr" or "en" when the text's accents and common words say so; None when they do not (a few
    keywords, a command, a tie)."""
    lowered = text.lower()
    fr = sum(2 for ch in lowered if ch in _FR_CHARS)
    words = re.findall(r"[a-zà-ÿœæ]+", lowered.replace("’", "'"))
    fr += sum(1 for w in words if w in _FR_WORDS)
    en = sum(1 for w in words if w in _EN_WORDS)
    return None if en == fr else "en" if en > fr else "fr"


def mostly_other_language(text: str, others: Sequence[str]) -> bool:
    """Whether most of `others` are plainly written in another language than `text`, itself plainly
    in one (a few keywords are in none)."""
    own = evident_language(text)
    return own is not None and 2 * sum(evident_language(o) not in (None, own) for o in others) > len(others)
