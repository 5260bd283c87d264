"""BM25 sparse vectors computed here (no fastembed, no download); Qdrant applies the IDF.

Documents get BM25 term weights (saturation k1, length normalisation b); queries get weight 1
per unique term. Terms are hashed with blake2b into [0, 2**31): stable across processes and
machines, unlike Python's salted hash().

A collection's sparse vectors only compare with queries tokenized the same way, so a collection
records the tokenizer version it was built with (`sparse_version` in its metadata; none recorded
means 1, the tokenization every collection before the field had). A version this code does not
know (a collection built by a newer rag) is refused with a plain message, never searched with
other terms. Change SPARSE_VERSION whenever `tokenize` changes what it returns for some text.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rag.errors import StoreError
from rag.i18n import t
from rag.textnorm import ELISION, fold

SPARSE_VERSION = 1  # what this code's tokenizer makes, recorded by every new collection
SPARSE_VERSIONS = (1,)  # what it can search
DEFAULT_AVG_LEN = 120.0  # tokens in a typical ~1000-character chunk after stop words
INDEX_SPACE = 2**31

_STOP_WORDS_FR = """
a au aux avec ce ces cet cette dans de des du elle elles en est et etre eu il ils je la le les
leur leurs lui ma mais me meme mes moi mon ne nos notre nous on ou par pas pour qu que qui sa se
ses son sont sur ta te tes toi ton tu un une vos votre vous y ete etait sont sera ont avait
comme aussi plus tres si sans sous entre dont ni car donc or cela ceci ca tout tous toute toutes
fait faire peut peuvent doit afin alors ainsi lorsque quand puis deja encore
"""
_STOP_WORDS_EN = """
a an and are as at be been but by can could did do does for from had has have he her his how i
if in into is it its me my no not of on or our she so than that the their them then there these
they this those to too us was we were what when where which while who why will with would you
your about after all also any because before being both each few more most other over same should
some such only own very just
"""
STOP_WORDS: frozenset[str] = frozenset((_STOP_WORDS_FR + _STOP_WORDS_EN).split())

# A compound: letter/digit runs joined by - _ . : / \ @ (msDS-SupportedEncryptionTypes,
# C:\Windows\System32, krb5.conf, user@domain). Trailing punctuation is not part of it.
_ALNUM = r"[^\W_]+"
COMPOUND = re.compile(rf"{_ALNUM}(?:[-_.:/\\@]+{_ALNUM})*")
PART = re.compile(_ALNUM)


def keep(token: str) -> bool:
    """Whether a folded term counts: not a stop word, and a digit or more than one letter."""
    if token in STOP_WORDS:
        return False
    return len(token) > 1 or token.isdigit()


def tokenize(text: str) -> list[str]:
    """Terms of a text, in order, repeated as often as they occur.

    A compound identifier gives its whole form and its parts, so both
    "msDS-SupportedEncryptionTypes" and "SupportedEncryptionTypes" find it.
    """
    folded = ELISION.sub("", fold(text or ""))
    tokens: list[str] = []
    for match in COMPOUND.finditer(folded):
        whole = match.group(0)
        parts = PART.findall(whole)
        if len(parts) > 1:
            tokens.append(whole)
        tokens.extend(p for p in parts if keep(p))
    return tokens


def check_sparse_version(info: Mapping[str, Any] | None) -> int:
    """The tokenizer version of a collection's sparse vectors (1 when none is recorded), or a
    StoreError saying what to do when this code cannot make the same terms."""
    info = info or {}
    raw = info.get("sparse_version")
    version = 1 if raw is None else raw
    if version not in SPARSE_VERSIONS:
        name = info.get("name")
        raise StoreError(t("store.sparse_newer", name=repr(name), id=name, version=version, known=SPARSE_VERSION))
    return int(version)


def term_index(term: str) -> int:
    digest = hashlib.blake2b(term.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little") % INDEX_SPACE


def _to_vector(weights: dict[str, float]) -> tuple[list[int], list[float]]:
    merged: dict[int, float] = {}
    for term, weight in weights.items():
        index = term_index(term)
        merged[index] = merged.get(index, 0.0) + weight  # two terms on one index: rare, summed
    indices = sorted(merged)
    return indices, [merged[i] for i in indices]


def sparse_vector(
    text: str, k1: float = 1.2, b: float = 0.75, avg_len: float = DEFAULT_AVG_LEN
) -> tuple[list[int], list[float]]:
    """Document side: BM25 term-frequency weights (without IDF, which Qdrant adds)."""
    tokens = tokenize(text)
    if not tokens:
        return [], []
    norm = k1 * (1.0 - b + b * len(tokens) / max(avg_len, 1.0))
    counts = Counter(tokens)
    return _to_vector({t: tf * (k1 + 1.0) / (tf + norm) for t, tf in counts.items()})


def sparse_query(text: str) -> tuple[list[int], list[float]]:
    """Query side: weight 1 per unique term."""
    return _to_vector(dict.fromkeys(tokenize(text), 1.0))
