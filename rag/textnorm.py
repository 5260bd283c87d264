"""Text normalisation: an expected answer span against a passage (`normalize_answer`), and the
one folding, elision and stemming of words that the gate, sparse retrieval and the journal share.

The question-set contract compares spans after NFKC, typographic dashes and quotes mapped to
ASCII, whitespace collapsed and case folded: a span copied from a rendered page (curly
apostrophes, non-breaking spaces, en dashes) must still match the Markdown it came from.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache

# NFKC leaves these alone: they are distinct characters, not compatibility forms.
_TRANSLATION = str.maketrans(
    {
        "\u2010": "-",  # hyphen
        "\u2011": "-",  # non-breaking hyphen
        "\u2012": "-",  # figure dash
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2015": "-",  # horizontal bar
        "\u2212": "-",  # minus sign
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u02bc": "'",  # modifier letter apostrophe
        "\u00b4": "'",  # acute accent used as an apostrophe
        "\u00ab": '"',
        "\u00bb": '"',
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2039": "'",
        "\u203a": "'",
    }
)

_WHITESPACE = re.compile(r"\s+")


def normalize_answer(text: str) -> str:
    """Normalise `text` for span comparison: NFKC, ASCII dashes and quotes, collapsed spaces, casefold."""
    # Mapped before NFKC, which would turn the acute accent into a space and a combining mark,
    # and after it, which turns compatibility forms (small or fullwidth dashes) into typographic ones.
    text = text.translate(_TRANSLATION)
    text = unicodedata.normalize("NFKC", text)
    text = text.translate(_TRANSLATION)
    text = _WHITESPACE.sub(" ", text).strip()
    return text.casefold()



# -- words: the one folding, elision and stemming the gate, sparse retrieval and the journal share --

APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'"})
# French elision: l'authentification -> authentification, d'un -> un, qu'il -> il.
ELISION = re.compile(r"(?i)\b(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu)'(?=\w)")
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "Œ": "oe", "Æ": "ae"})
_STEMMERS = {"fr": "french", "en": "english"}


def fold(text: str) -> str:
    """Lower case, NFKC, typographic apostrophes as ASCII, accents removed: "Sécurité" is "securite"."""
    text = unicodedata.normalize("NFKC", text or "").translate(APOSTROPHES).lower()
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def without_elision(text: str) -> str:
    """`text` with French elided articles and pronouns taken off ("l'outil" -> "outil")."""
    return ELISION.sub("", (text or "").translate(APOSTROPHES))


@lru_cache(maxsize=4)
def _stemmer(language: str) -> object | None:
    try:
        import Stemmer  # PyStemmer: Snowball's stemmers
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    return Stemmer.Stemmer(_STEMMERS.get(language, "french"))


def stem(word: str, language: str = "fr") -> str:
    """The Snowball stem of a folded word, ligatures spelled out ("calques" -> "calqu")."""
    word = word.translate(_LIGATURES)
    stemmer = _stemmer(language)
    return stemmer.stemWord(word) if stemmer is not None else word  # type: ignore[attr-defined]


def stems(word: str) -> frozenset[str]:
    """A folded word's French and English stems: articles mix both languages."""
    return frozenset(stem(word, lang) for lang in _STEMMERS)


def idf(df: int, n: int) -> float:
    """BM25's IDF, never negative; a term no chunk holds weighs the most."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))
