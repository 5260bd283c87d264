"""An acronym the passages spell out is not a word they lack.

Readers write "ma CNI", "le RGPD"; articles often write "carte nationale d'identité", "règlement
général sur la protection des données". The question's acronym is then absent from the
collection's vocabulary while the passages hold what it means. An all-capitals word of
MIN_LETTERS to MAX_LETTERS letters is spelled by a passage when the initials of consecutive
content words of one phrase are its letters, accents folded: the articles and prepositions of
LINKS are skipped, while punctuation, digits and any other stop word ("vous", "pour", "un") end
the phrase. Short acronyms meet ordinary phrases by chance ("IP": "informations personnelles"),
so one of two letters needs words that open with a capital ("Active Directory"). Pure
functions, one pass over each passage's tokens (linear time).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from rag.store.sparse import _fold as _fold_word
from rag.store.sparse import _keep

MIN_LETTERS, MAX_LETTERS = 2, 6
# Articles, prepositions and conjunctions an acronym leaves out: "Commission nationale de
# l'informatique et des libertés" is CNIL, "analyse d'impact sur la protection des données" AIPD.
# Only these: each more skipped word lets more ordinary phrases spell an acronym by chance.
LINKS = frozenset("de d du des la le l les et sur of the and".split())
CAPITALS_BELOW = 3  # an acronym shorter than this is spelled only by capitalised words
# A word of letters, or a mark that ends a phrase (digits and other marks end it too).
_TOKEN = re.compile(r"[^\W\d_]+|[^\w\s'’-]|\d+")


def _fold(letter: str) -> str:
    return unicodedata.normalize("NFKD", letter)[:1].upper()


def is_acronym(word: str) -> bool:
    """All capitals, letters only, MIN_LETTERS to MAX_LETTERS of them ("CNI", "RGPD")."""
    return MIN_LETTERS <= len(word) <= MAX_LETTERS and word.isalpha() and word.isupper()


def _phrases(text: str) -> list[list[re.Match[str]]]:
    """The runs of content words of a text, each broken at punctuation and digits."""
    runs: list[list[re.Match[str]]] = [[]]
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        if not token[0].isalpha():
            if runs[-1]:
                runs.append([])
            continue
        if token.lower() in LINKS:
            continue
        if not _keep(_fold_word(token)):
            if runs[-1]:
                runs.append([])
            continue
        runs[-1].append(m)
    return [r for r in runs if r]


def spelled(acronyms: Iterable[str], texts: Iterable[str]) -> dict[str, str]:
    """{acronym: the phrase that spells it, as written} for the acronyms some text spells out.
    Each text is read once; every window of MIN_LETTERS to MAX_LETTERS content words is looked
    up in a set, so the work grows with the texts' length times MAX_LETTERS."""
    wanted = {a.upper() for a in acronyms if is_acronym(a)}
    found: dict[str, str] = {}
    for text in texts:
        if len(found) == len(wanted):
            break
        for run in _phrases(text or ""):
            initials = [_fold(m.group(0)[0]) for m in run]
            for i in range(len(run)):
                key = ""
                for k in range(i, min(len(run), i + MAX_LETTERS)):
                    key += initials[k]
                    if k > i and key in wanted and key not in found and (
                            len(key) >= CAPITALS_BELOW or all(m.group(0)[0].isupper() for m in run[i:k + 1])):
                        found[key] = text[run[i].start():run[k].end()]
    return found


__all__ = ["LINKS", "MAX_LETTERS", "MIN_LETTERS", "is_acronym", "spelled"]
