"""How common a word is in French or English at large, apart from any collection.

A word no chunk holds is either a word of the language the collection happens not to use (a
small blog lacks "reçois", "cesse"; a reader's colleague is "Paul") or the name of a thing the
collection never mentions ("keepalived", "podman", "Okta"). Only the language tells the two
apart: the general word frequencies of wordfreq (Zipf scale, log10 of occurrences per billion
words: "de" 7.7, "serveur" 4.2, "cron" 2.5, "podman" 0), in French and in English since readers
write both. A word rare in both is still a word of the language when it is one edit away from a
common one (a typo: "transcation", "Qulle") or shares its stem, accents folded, with one (a rare
form or a missing accent: "initialisant", "cloturer"). Pure lookups, loaded once, never a
network call.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Below this, an unknown lower-case word is a name (a tool, a product, a file), the thing asked
# about: "keepalived" 0, "iptables" 1.8, "rsync" 1.9. At or above it, a word of the language
# (rare forms of verbs included: "fédérée" 2.3, "retaper" 3.0) or an incidental name ("Paul" 5.0).
RARE_ZIPF = 2.0
# At or above this, a word is an everyday word of the language ("nombreux" 5.2, "cesse" 4.5,
# "reçois" 4.1), which a small collection may lack without lacking the subject; below it, a
# specific word ("restaurer" 3.8, "corbeille" 3.3, "poussette" 3.3) says what is asked.
ORDINARY_ZIPF = 4.0
# A typo's correction is a common word (at least this frequent); words shorter than TYPO_MIN_LENGTH
# have too many neighbours ("cron": "corn", "iron") to call one a typo.
TYPO_TARGET_ZIPF = 3.5
TYPO_MIN_LENGTH = 5
SHORT_TYPO_TARGET_ZIPF = 4.5  # a five-letter word's correction must be very common ("Qulle": "quelle")
# A typo's correction that is a rarer word of the language ("initialise" 1.7, French and English
# both) counts only when the retrieved passages hold a form of it (rag.answer.gate_words): at
# least this frequent, so the correction is a word the language writes, not a typo of the web's.
FORM_TYPO_ZIPF = 1.5
# A word sharing its stem (rag.store.terms.term_key, accents folded) with a word at least this
# frequent is a form of that word.
STEM_ZIPF = 2.5
# No word of French or English is longer ("anticonstitutionnellement": 25 letters): a longer string
# is a typo of none, and its edits are never enumerated.
MAX_WORD_LENGTH = 30
_LANGUAGES = ("fr", "en")
_LETTERS = "abcdefghijklmnopqrstuvwxyzàâäçéèêëîïôöùûüÿœ"


@lru_cache(maxsize=1)
def _available() -> bool:
    try:
        import wordfreq  # noqa: F401
    except ImportError:  # the gate then decides on the collection's statistics alone
        return False
    return True


@lru_cache(maxsize=4096)
def zipf(word: str) -> float | None:
    """The word's Zipf frequency, the higher of French and English; None without wordfreq."""
    if not _available() or not word:
        return None
    from wordfreq import zipf_frequency

    return max(zipf_frequency(word, lang) for lang in _LANGUAGES)


@lru_cache(maxsize=2)
def _frequencies(lang: str) -> dict[str, float]:
    """The language's words at least STEM_ZIPF frequent (all a typo or a stem is checked against),
    the long tail left out: a tenth of the list in memory."""
    from wordfreq import get_frequency_dict

    floor = 10 ** (min(STEM_ZIPF, TYPO_TARGET_ZIPF) - 9)
    return {w: f for w, f in get_frequency_dict(lang).items() if f >= floor}


def edits(word: str) -> set[str]:
    """Every string one deletion, transposition, substitution or insertion away (Norvig's) that
    keeps the word's first two letters: typists rarely get a word's opening wrong, and a name
    differs from a word there ("nftables" is not "notables" mistyped; "Qulle" is "quelle"). The
    one exception is the second and third letters swapped, the first kept: fast typing swaps
    neighbours anywhere ("calir": "clair", "qeulle": "quelle")."""
    if len(word) > MAX_WORD_LENGTH:
        return set()  # no word of the language to be one edit from, and the edits grow as its square
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in splits if b}
    transposes = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaces = {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    inserts = {a + c + b for a, b in splits for c in _LETTERS}
    swapped = word[0] + word[2] + word[1] + word[3:] if len(word) > 3 else None
    return {e for e in deletes | transposes | replaces | inserts if e[:2] == word[:2] or e == swapped} - {word}


# How French spells one sound several ways, accents folded: what a reader writing by ear confuses
# ("rafrechir": "rafraichir", "recuperassion": "recuperation", "telefone": "telephone"). One
# alternation of fixed strings, each with at most one letter of look-ahead: a linear scan.
_SOUNDS = {"eau": "o", "au": "o", "ai": "e", "ei": "e", "ph": "f", "qu": "k", "ck": "k", "y": "i"}
_SOUND = re.compile(r"eau|au|ai|ei|ph|qu|ck|y|t(?=ion)|c(?=[eiy])|g(?=[eiy])")
_SOFT = {"t": "s", "c": "s", "g": "j"}


def sound_key(folded: str) -> str:
    """A folded word as it sounds: French's spellings of one sound made one, then every doubled
    letter made single, and a final "e" dropped ("suprimmer" and "supprimer" both "suprimer";
    "rafrechir" and "rafraichir" both "rafrechir"; "passerrelle" and "passerelle" both "paserel")."""
    spoken = _SOUND.sub(lambda m: _SOUNDS.get(m.group(0)) or _SOFT[m.group(0)], folded)
    if len(spoken) > 3 and spoken.endswith("e"):
        spoken = spoken[:-1]  # a final "e" is not heard ("purge", "purj")
    return "".join(ch for k, ch in enumerate(spoken) if k == 0 or ch != spoken[k - 1])


@lru_cache(maxsize=1)
def _folded_words() -> dict[str, float]:
    """The language's words at least STEM_ZIPF frequent, accents folded, each with the frequency of
    its most frequent accented spelling ("sanctionne": "sanctionné")."""
    from rag.store.sparse import _fold

    out: dict[str, float] = {}
    for lang in _LANGUAGES:
        for w, f in _frequencies(lang).items():
            if f >= 10 ** (STEM_ZIPF - 9) and w.isalpha():
                key = _fold(w)
                out[key] = max(out.get(key, 0.0), f)
    return out


@lru_cache(maxsize=1024)
def corrections(folded: str) -> tuple[str, ...]:
    """The words of the language (STEM_ZIPF, accents folded) one edit from a folded word that is no
    word of the language itself, the most frequent first, at most three: what a reader mistyped
    ("sanctoinne": "sanctionne"). Empty without wordfreq, for short words and words of the language."""
    if not _available() or len(folded) < TYPO_MIN_LENGTH or not folded.isalpha() or not rare(folded):
        return ()
    index = _folded_words()
    found = sorted((e for e in edits(folded) if e in index), key=lambda e: (-index[e], e))
    return tuple(found[:3])


@lru_cache(maxsize=1024)
def is_typo(word: str) -> bool:
    """A rare word one edit away from a common word of French or English."""
    word = word.lower()
    if not _available() or len(word) < TYPO_MIN_LENGTH or not word.isalpha():
        return False
    floor = 10 ** ((SHORT_TYPO_TARGET_ZIPF if len(word) < 6 else TYPO_TARGET_ZIPF) - 9)
    candidates = edits(word)
    return any(_frequencies(lang).get(c, 0.0) >= floor for lang in _LANGUAGES for c in candidates)


@lru_cache(maxsize=1)
def _stems() -> frozenset[str]:
    """The stems (term keys) of the words of French and English at least STEM_ZIPF frequent."""
    from rag.store.terms import term_key
    from rag.store.sparse import _fold

    floor = 10 ** (STEM_ZIPF - 9)
    return frozenset(term_key(_fold(w)) for lang in _LANGUAGES for w, f in _frequencies(lang).items()
                     if f >= floor and w.isalpha())


def has_common_stem(word: str) -> bool:
    from rag.store.terms import term_key
    from rag.store.sparse import _fold

    return _available() and word.isalpha() and term_key(_fold(word)) in _stems()


def rare(word: str) -> bool:
    """Neither French nor English uses the word (nor a form, nor a typo of a word they use): a name."""
    z = zipf(word.lower())
    return z is not None and z < RARE_ZIPF and not has_common_stem(word) and not is_typo(word)


def ordinary(word: str) -> bool:
    """An everyday word of French or English (ORDINARY_ZIPF); False without wordfreq."""
    z = zipf(word.lower())
    return z is not None and z >= ORDINARY_ZIPF


def more_french(word: str) -> bool:
    """Whether French writes the word more often than English does: "Bretagne", "Montréal",
    "Auvergne", not "Python", "Azure", "Exchange", "Linux" (False without wordfreq)."""
    if not _available() or not word:
        return False
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "fr") > zipf_frequency(word, "en")


# A conjugated verb's ending, and what may stand in its place on the same stem to give a form a
# dictionary counts often ("ferons": "fera"; "mangerions": "manger"). Verbs only: a plural of a
# word of the field ("certificats") is what is asked.
_FORM_ENDINGS = ("eraient", "erions", "eriez", "erais", "erait", "erons", "eront", "aient", "erai", "eras",
                 "erez", "era", "ions", "iez", "ais", "ait", "ons", "ont", "ez", "ai", "as", "a")
_FORM_STANDS = ("er", "ir", "re", "a", "ait", "e")
FORM_STEM = 3  # letters a stem keeps: shorter ones meet unrelated words


def everyday_form(word: str) -> bool:
    """A form, rarer than itself, of an everyday word: "ferons" (3.9) and "feriez" are "fera"
    (5.0), "mangerons" is "manger". A refusal names what is asked, never a conjugated everyday
    verb. A word written with a capital (a name) is never one; False without wordfreq."""
    if not _available() or not word.isalpha() or not word.islower():
        return False
    for ending in _FORM_ENDINGS:
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) >= FORM_STEM:
            if any(ordinary(stem + other) for other in _FORM_STANDS if stem + other != word):
                return True
    return False


def common(word: str) -> bool:
    """A word of the language (or a common first name, town, brand): not a rare name."""
    z = zipf(word.lower())
    return z is None or z >= RARE_ZIPF


__all__ = ["FORM_STEM", "FORM_TYPO_ZIPF", "ORDINARY_ZIPF", "RARE_ZIPF", "TYPO_MIN_LENGTH", "common", "corrections",
           "edits", "everyday_form", "more_french", "ordinary", "has_common_stem", "is_typo", "rare", "sound_key",
           "zipf"]
