"""The collection's vocabulary: which terms a chunk holds, and which words a question asks about.

Both sides use the BM25 tokenizer's terms (rag.store.sparse: stop words out, accents folded), then one
more step so that a question's word form still finds the corpus's: an alphabetic term longer than
STEM_LENGTH is kept as its first STEM_LENGTH letters ("surveille" and "surveillance" share
"survei"). Identifiers (digits, hyphens, dots) stay whole. The chunk's keys are stored in the
point payload (`terms`, a keyword field with an index) so that Qdrant counts, under the reader's
access filter, how many chunks hold a term: the statistics never include what the reader may not
see. Pure functions only.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rag.store.sparse import COMPOUND, PART, keep, tokenize
from rag.textnorm import APOSTROPHES, ELISION, fold

# Bump when the keys change. Version 2 adds each long word's whole key beside its prefix key, so
# that a name is looked up exactly ("journalctl" is not "journal"); a collection of version 1 is
# still read, its names by their prefix keys (EXACT_FROM).
TERMS_VERSION = 2
EXACT_FROM = 2
READABLE_VERSIONS = frozenset({1, 2})
TERMS_FIELD = "terms"
STEM_LENGTH = 6  # measured on three corpora (benchmarks/README.md): 5 to 7 letters all help; 6 best
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})
# How a question is asked says nothing about its subject: these words are not looked up (the BM25
# stop words are already out). A small collection may hold none of them, and a missing word weighs
# the most.
QUESTION_WORDS = frozenset("""
comment pourquoi quel quelle quels quelles combien lequel laquelle lesquels lesquelles quoi
peux peut-on puis dois doit veux voudrais faut existe possible moyen savoir
how what which why whom whose can could should would does do did may might want need way
ai chez agit
""".split())
# Separators that make one identifier of a compound (nginx.conf, max_connections, etc/fstab):
# looked up whole, never by its parts, and a name even in lower case.
_IDENTIFIER_SEPARATORS = re.compile(r"[_.:/\\@]")
# Common French and English inflections, accents folded (-é/-ée/-és/-ées become -e/-ee/-es/-ees):
# a short word's inflected forms can differ in their first STEM_LENGTH letters ("purges" and
# "purgent" against "purge" and "purger"), so the gate also looks its forms up (`word_forms`).
INFLECTIONS = ("e", "s", "es", "ee", "ees", "er", "ez", "ent", "ons", "ait", "ant", "ed", "ing")
MIN_STEM = 4  # what is left once an ending is cut: shorter stems would meet unrelated words
# French inverted subject: "peut-on", "reste-t-il", "est-ce": the verb is the word, not the pronoun.
_INVERSION = re.compile(r"(?i)(?:-t)?-(?:je|tu|il|elle|on|nous|vous|ils|elles|ce|ci|moi)$")


def term_key(term: str) -> str:
    """The stored form of one tokenizer term."""
    term = term.translate(_LIGATURES)
    if len(term) > STEM_LENGTH and term.isalpha():
        return term[:STEM_LENGTH]
    return term


def word_forms(term: str) -> tuple[str, ...]:
    """The keys of a folded alphabetic term's common inflected forms, its own key first.

    One ending of INFLECTIONS is cut (or none), then each is put back: "purgent", "purges",
    "purged" and "purging" all reach "purge" and "purger". Only forms a key holds whole
    (STEM_LENGTH letters at most) are added: a longer one would be cut inside its ending and
    meet unrelated words ("reciping" -> "recipi", the key of "recipient"). Identifiers, terms
    with digits and words too short to have a stem of MIN_STEM letters keep their own key only.
    """
    own = term_key(term)
    if not term.isalpha():
        return (own,)
    stems = [term] + [term[: -len(e)] for e in INFLECTIONS if term.endswith(e) and len(term) - len(e) >= MIN_STEM]
    keys = dict.fromkeys([own])
    for stem in stems:
        if len(stem) < MIN_STEM:
            continue
        for ending in ("",) + INFLECTIONS:
            if len(stem) + len(ending) <= STEM_LENGTH:
                keys[term_key(stem + ending)] = None
    return tuple(keys)


def exact_key(term: str) -> str | None:
    """The whole key of a folded alphabetic term longer than its prefix key, else None. It cannot
    meet a prefix key: those have STEM_LENGTH letters at most."""
    term = term.translate(_LIGATURES)
    return term if len(term) > STEM_LENGTH and term.isalpha() else None


def chunk_terms(text: str) -> list[str]:
    """The distinct term keys of a chunk's text, sorted (the `terms` payload field): each term's
    prefix key and, for a long word, its whole key too."""
    keys: set[str] = set()
    for t in tokenize(text):
        keys.add(term_key(t))
        whole = exact_key(t)
        if whole:
            keys.add(whole)
    return sorted(keys)


@dataclass(frozen=True)
class QuestionWord:
    """One word (or identifier) of a question.

    `text` is the word as typed (shown in a refusal); `whole` the key of a compound identifier
    (msDS-SupportedEncryptionTypes) or None; `parts` the keys of its pieces. `named` marks what
    looks like a name: a capital inside the word or after the first word, or letters with
    digits (Okta, S/4HANA, BitLocker, 0x80090308): a named thing the blog never mentions is the
    clearest sign that it does not answer the question. `forms`: for a plain word (one
    alphabetic piece, not a name), the keys of its other inflected forms (`word_forms`); the word
    is known when the collection holds any of them. A name is looked up as typed only.
    """

    text: str
    whole: str | None
    parts: tuple[str, ...]
    named: bool
    forms: tuple[str, ...] = ()
    exact: str | None = None  # a long plain word's whole key (exact_key): how a name is looked up


def _is_named(word: str, first: bool) -> bool:
    if _IDENTIFIER_SEPARATORS.search(word):
        return True
    if any(c.isupper() for c in word[1:]):
        return True
    if any(c.isdigit() for c in word) and any(c.isalpha() for c in word):
        return True
    return word[:1].isupper() and not first


def without_words(question: str, words: list[str] | tuple[str, ...]) -> str:
    """The question as `question_words` reads it (elided articles off), without each word it found
    typed as one of `words` (any case), spaces collapsed: one pass of the same tokenizer."""
    text = ELISION.sub("", unicodedata.normalize("NFKC", question or "").translate(APOSTROPHES))
    drop = {w.casefold() for w in words}
    kept, last = [], 0
    for match in COMPOUND.finditer(text):
        typed = _INVERSION.sub("", match.group(0)) or match.group(0)
        if typed.casefold() in drop:
            kept.append(text[last:match.start()])
            last = match.start() + len(typed)  # an inverted subject ("-t-il") stays
    kept.append(text[last:])
    return " ".join(" ".join(kept).split())


def question_words(question: str) -> list[QuestionWord]:
    """The question's content words, in order, each once (by its keys)."""
    # Elided articles and pronouns out, case kept as typed (the words are shown back as typed).
    text = ELISION.sub("", unicodedata.normalize("NFKC", question or "").translate(APOSTROPHES))
    words: list[QuestionWord] = []
    seen: set[tuple] = set()
    first = True
    for match in COMPOUND.finditer(text):
        typed = _INVERSION.sub("", match.group(0)) or match.group(0)
        named = _is_named(typed, first)
        first = False
        folded = fold(typed)
        pieces = [p for p in PART.findall(folded) if keep(p) and p not in QUESTION_WORDS]
        if not pieces:
            continue
        whole = term_key(folded) if len(PART.findall(folded)) > 1 else None
        parts = tuple(dict.fromkeys(term_key(p) for p in pieces))
        if whole and _IDENTIFIER_SEPARATORS.search(typed):
            parts = (whole,)  # max_connections is one word: "max" and "connections" apart are not it
        exact = exact_key(pieces[0]) if whole is None and len(pieces) == 1 else None
        key = (whole, parts, exact)  # "journaux" and "journalctl" share a prefix key, not a word
        if key in seen:
            continue
        seen.add(key)
        # Forms only for a word typed in lower case: a capital first word may be a name ("Docker"
        # must not become known through "dock"), and names keep their exact lookup.
        inflectable = whole is None and len(pieces) == 1 and not named and typed[:1].islower()
        forms = word_forms(pieces[0])[1:] if inflectable else ()
        words.append(QuestionWord(typed, whole, parts, named, forms, exact))
    return words


def question_keys(words: list[QuestionWord]) -> list[str]:
    """Every key whose document frequency the gate needs, each once."""
    keys: list[str] = []
    for w in words:
        for k in ((w.whole,) if w.whole else ()) + w.parts + w.forms + ((w.exact,) if w.exact else ()):
            if k not in keys:
                keys.append(k)
    return keys


def passage_keys(texts: list[str]) -> set[str]:
    return {k for text in texts for k in chunk_terms(text)}


__all__ = [
    "EXACT_FROM", "READABLE_VERSIONS", "STEM_LENGTH", "TERMS_FIELD", "TERMS_VERSION", "QuestionWord", "chunk_terms",
    "exact_key", "passage_keys",
    "question_keys", "question_words", "term_key", "word_forms",
]
