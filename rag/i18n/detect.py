"""Which language a question is written in: French or English, from its accents and common words.

Below every stage: enrichment (a context in the chunk's language) and answering (the prompt and the
refusal in the question's) both use it.
"""

from __future__ import annotations

import re

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
    lowered = text.lower()
    fr = sum(2 for ch in lowered if ch in _FR_CHARS)
    words = re.findall(r"[a-zà-ÿœæ]+", lowered.replace("’", "'"))
    fr += sum(1 for w in words if w in _FR_WORDS)
    en = sum(1 for w in words if w in _EN_WORDS)
    return "en" if en > fr else "fr"
