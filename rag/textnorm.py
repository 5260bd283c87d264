"""Text normalisation for comparing an expected answer span with a document or a passage.

The question-set contract compares spans after NFKC, typographic dashes and quotes mapped to
ASCII, whitespace collapsed and case folded: a span copied from a rendered page (curly
apostrophes, non-breaking spaces, en dashes) must still match the Markdown it came from.
"""

from __future__ import annotations

import re
import unicodedata

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

