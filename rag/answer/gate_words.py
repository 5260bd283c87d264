"""The gate's word checks: which words of the question the collection and the retrieved passages
hold, and which of them are names (rag.answer.gate decides from them).

Signals, measured per question (benchmarks/README.md, "The answerability gate"):

- `cosine`: the best dense cosine among the retrieved passages (the threshold of old);
- `coverage`: the IDF-weighted share of the question's words that occur somewhere in the
  collection the reader may see (a plain word by the most frequent of its inflected forms,
  rag.store.terms.word_forms: "purgent" is known when chunks hold "purger"). Off-topic questions
  name things the blog never mentions; the cosine cannot see that, the collection's vocabulary can;
- `unknown_names`: the question's named things (Okta, S/4HANA, 0x80090308) that no chunk holds;
- `passage_coverage`: the same share within the retrieved passages only;
- `context_words`: the unknown words that describe the reader's situation, not the subject
  (rag.answer.question_roles: "chez Airbus", "le serveur de Gérard", a date). They are set
  aside: `core_coverage` and `core_passage_coverage` are the shares without them, and
  `cosine_core` the retrieved passages' best cosine to the question without them (the context
  dilutes the question's vector);
- `unknown_subject`: the unknown names that are the thing asked about (Okta, S/4HANA, podman);
- an acronym no chunk holds that a retrieved passage spells out ("CNI": "carte nationale
  d'identité", rag.answer.acronyms) counts as held by those passages (`TermStat.spelled`);
- a word no chunk holds, one letter away from a word a retrieved passage holds ("suprimer":
  "supprimer", "mapage": "mappage"), or spelled as it sounds ("suprimmer", "rafrechir"), or from a
  word of the language of which a retrieved passage holds a form ("initalise": "initialise", the
  passage writing "initialize"), counts as held by
  those passages (`TermStat.typo_of`): the reader mistyped what the articles write;
- a plain word no chunk holds and no language uses, one letter from a word of the language that
  chunks hold ("sanctoinné": "sanctionné"), counts as that word when the retrieved passages hold
  the rest of the question (`with_collection_typos`; the gate counts those words' keys too);
- `ordinary_words`: everyday words of the language no chunk holds (rag.answer.language_words),
  and `specific_coverage` / `specific_passage_coverage`, the core's shares without them;
- `subject_words`: the words no chunk holds that say what is asked (neither the situation nor
  everyday words), the rarest in the language first: what a refusal names;
- `places`: a region, a country or a town after "en" or "vers", or a company after "comme" ("en
  Auvergne", "vers Montréal", "comme la MAIF"), set aside as the reader's when the retrieved
  passages hold the rest of the question;
- `other_language`: the question is in another language than its passages (rag.i18n.detect), so
  its everyday words are not what the articles lack ("shows", "listening" on French articles).

Pure functions: the document frequencies come from the caller (rag.answer.gate counts them in the
store under the reader's access filter).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Mapping, Sequence

from rag.answer.acronyms import is_acronym, spelled
from rag.answer.language_words import (
    FORM_TYPO_ZIPF, TYPO_MIN_LENGTH, common, corrections, edits, everyday_form, ordinary, rare, sound_key, zipf,
)
from rag.answer.question_roles import places, roles
from rag.i18n.detect import detect_language
from rag.store.sparse import _PART, _fold
from rag.store.terms import INFLECTIONS, QuestionWord, passage_keys, question_keys, question_words


# The share of the question's weight the retrieved passages must hold for one unknown name, or a
# place set aside, to leave the rest of the question as what is asked (rag.answer.gate).
SUBJECT_COVERED = 0.8


@dataclass
class TermStat:
    word: str
    keys: list[str]  # the keys counted for this word (the compound, else its parts)
    df: int  # chunks (readable by the reader) holding the rarest of them
    idf: float
    named: bool
    context: bool = False  # a detail of the situation (rag.answer.question_roles), set aside
    spelled: str | None = None  # an acronym no chunk holds, spelled out by a retrieved passage thus
    # A word no chunk holds, one letter from this word of a retrieved passage, or of the language
    # when a retrieved passage holds a form of it.
    typo_of: str | None = None


@dataclass
class Signals:
    cosine: float | None
    coverage: float | None  # None when the collection has no term statistics
    passage_coverage: float | None
    unknown_names: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # every word no readable chunk holds, as typed
    known_names: list[str] = field(default_factory=list)  # named things some readable chunk holds
    margin: float | None = None  # best cosine minus the last retrieved one
    chunks: int | None = None  # chunks the reader may see
    terms: list[TermStat] = field(default_factory=list)
    context_words: list[str] = field(default_factory=list)  # unknown words of the situation, set aside
    unknown_subject: list[str] = field(default_factory=list)  # unknown names that are the subject
    core_coverage: float | None = None  # coverage without the context words
    core_passage_coverage: float | None = None
    cosine_core: float | None = None  # best cosine of the passages to the question without them
    # Everyday words of the language no chunk holds ("reçois", "cesse"), and the shares of the core
    # without them: what a small collection's vocabulary may lack, apart from the subject's words.
    ordinary_words: list[str] = field(default_factory=list)
    specific_coverage: float | None = None
    specific_passage_coverage: float | None = None
    # What the question asks that no chunk holds: the missing words neither of the situation nor
    # everyday, the rarest in the language first ("pancakes", not "make"). What a refusal names
    # and the journal's subjects are made of.
    subject_words: list[str] = field(default_factory=list)
    # The question is written in another language than its passages (an English question on French
    # articles): the everyday words of its language are words the articles cannot hold.
    other_language: bool = False
    # The places set aside with the context words ("en Auvergne", "vers Montréal"): the reader's
    # when the passages hold the rest of the question (rag.answer.question_roles.places).
    places: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("cosine", "coverage", "passage_coverage", "margin", "core_coverage",
                    "core_passage_coverage", "cosine_core", "specific_coverage", "specific_passage_coverage"):
            if data[key] is not None:
                data[key] = round(float(data[key]), 4)
        for term in data["terms"]:
            term["idf"] = round(term["idf"], 3)
        return data


def idf(df: int, n: int) -> float:
    """BM25's IDF, never negative; a term no chunk holds weighs the most."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def term_stats(words: Sequence[QuestionWord], df: Mapping[str, int], n: int,
               context: set[str] | frozenset[str] = frozenset(), tools: set[str] | frozenset[str] = frozenset(),
               exact: bool = False) -> list[TermStat]:
    """One statistic per question word. A compound counts whole when some chunk holds it whole
    (msDS-SupportedEncryptionTypes), else by its parts, each its own word (S/4HANA -> 4hana).
    A plain word counts by the most frequent of its inflected forms ("purgent" is known when
    chunks hold "purger"); `keys` stays the word's own key, as typed.

    A word that neither the language nor the collection uses is a name, the thing asked about
    (rag.answer.language_words: "keepalived", "cron"), and with `exact` (the collection holds
    whole keys) a word rare in the language is looked up whole: "journalctl" is not "journal"."""
    stats: list[TermStat] = []
    seen: set[str] = set()
    for w in words:
        whole_word = exact and w.exact is not None and (w.named or w.text in tools or rare(w.text))
        if whole_word:
            keys = [w.exact]
        else:
            keys = [w.whole] if w.whole and df.get(w.whole, 0) > 0 else list(w.parts)
        keys = [k for k in keys if k not in seen]
        if not keys:
            continue
        seen.update(keys)
        count = min(df.get(k, 0) for k in keys)  # an identifier is absent when one of its parts is
        if w.forms and not whole_word:
            count = max([count] + [df.get(k, 0) for k in w.forms])
        named = w.named or w.text in tools or (count == 0 and w.text not in context and rare(w.text))
        stats.append(TermStat(w.text, keys, count, idf(count, n), named, w.text in context and count == 0))
    return stats


def coverage(stats: Sequence[TermStat]) -> float | None:
    """IDF-weighted share of the words some chunk holds; None for a question with no content word."""
    total = sum(s.idf for s in stats)
    if total <= 0:
        return None
    return sum(s.idf for s in stats if s.df > 0) / total


def passage_coverage(words: Sequence[QuestionWord], stats: Sequence[TermStat], passage_texts: Sequence[str]) -> float | None:
    found = passage_keys(list(passage_texts))
    total = sum(s.idf for s in stats)
    if total <= 0:
        return None
    # A plain word is in the passages when one of its forms is, as for the collection.
    forms = {k: set(w.forms) for w in words if w.forms for k in w.parts}
    return sum(s.idf for s in stats
               if s.spelled or s.typo_of or all(k in found or forms.get(k, set()) & found for k in s.keys)) / total


def corrected_words(words: Sequence[QuestionWord]) -> dict[str, list[QuestionWord]]:
    """{word as typed: the words of the language it may mistype}, for the plain lower-case words no
    language uses ("sanctoinné": "sanctionné"): the gate counts their keys too, and
    `with_collection_typos` reads the first the collection holds."""
    out: dict[str, list[QuestionWord]] = {}
    for w in words:
        if w.named or w.whole is not None or not w.text[:1].islower() or not w.text.isalpha():
            continue
        found = [q for c in corrections(_fold(w.text)) for q in question_words(c)[:1]]
        if found:
            out[w.text] = found
    return out


def correction_keys(words: Sequence[QuestionWord]) -> list[str]:
    """The keys of `corrected_words`, whose document frequencies the gate counts with the question's."""
    return question_keys([q for found in corrected_words(words).values() for q in found])


def with_collection_typos(stats: Sequence[TermStat], words: Sequence[QuestionWord], df: Mapping[str, int],
                          n: int, passage_texts: Sequence[str]) -> list[TermStat]:
    """The stats with each word no chunk holds and no language uses, one edit from a word of the
    language that chunks hold, counted as that word ("Un DPO peut-il être sanctoinné ?": the
    collection writes "sanctionné", the retrieved passages may not): `keys` are then that word's,
    and the passages hold it only when they hold those. Only when the retrieved passages hold the
    rest of the question (SUBJECT_COVERED): a typo is no reason to answer a question the passages
    say little of ("le meilleur forfait mobil pour un etudaint"). A name (typed with a capital, an
    identifier) is never corrected; a typo a retrieved passage holds is `with_passage_typos`'."""
    found = corrected_words(words)
    if not found:
        return list(stats)
    out: list[TermStat] = []
    for s in stats:
        rest = [t for t in stats if t.word != s.word and not t.context]
        held = s.word in found and (passage_coverage(words, rest, passage_texts) or 0.0) >= SUBJECT_COVERED
        for q in found[s.word] if held and s.df == 0 and not s.typo_of and not s.spelled else []:
            count = max([min(df.get(k, 0) for k in q.parts)] + [df.get(k, 0) for k in q.forms])
            if count > 0:
                s = replace(s, keys=list(q.parts), df=count, idf=idf(count, n), named=False, context=False)
                break
        out.append(s)
    return out


def with_spelled_acronyms(stats: Sequence[TermStat], passage_texts: Sequence[str], n: int) -> list[TermStat]:
    """The stats with each unknown acronym that a retrieved passage spells out ("CNI": "carte
    nationale d'identité") counted as held by those passages: the reader used the short form of
    what the articles write in full. Only the retrieved passages are read, and they are what the
    reader may see (the access filter holds)."""
    candidates = [s.word for s in stats if s.df == 0 and is_acronym(s.word)]
    if not candidates:
        return list(stats)
    found = spelled(candidates, passage_texts)
    out: list[TermStat] = []
    for s in stats:
        phrase = found.get(s.word.upper()) if s.df == 0 and is_acronym(s.word) else None
        if phrase:
            holding = sum(1 for t in passage_texts if spelled([s.word], [t]))
            s = replace(s, df=holding, idf=idf(holding, n), spelled=phrase, context=False)
        out.append(s)
    return out


def with_passage_typos(stats: Sequence[TermStat], passage_texts: Sequence[str], n: int,
                       names: set[str] | frozenset[str] = frozenset()) -> list[TermStat]:
    """The stats with each word no chunk holds that is one letter missing, added, swapped or wrong
    from a word of the retrieved passages ("suprimer": "supprimer", "mapage": "mappage") counted
    as held by the passages holding that word. Words of TYPO_MIN_LENGTH letters or more only
    (shorter ones have too many neighbours), letters only (a digit of a version or a code is never
    a typo), that the language does not use, and only the passages the reader may see are read.
    A whole word, never a stem: "restaurer" is one letter from the stem of "réseau". A word spelled
    as it sounds, or with a letter doubled or made single, is the passages' word that sounds the same
    (`sound_key`: "suprimmer", "rafrechir"), when no word is one letter away; a sound is strict enough
    for a word of SOUND_MIN_LENGTH letters not written as a name ("purj": "purge").

    Else, for a word not written as a name (`names`: a capital inside or after the first word),
    one letter from a word of the language whose form the passages hold ("initalise": French
    writes "initialise", the passages "initialiser" or "initialize"): `typo_of` is that word of the
    language. The correction is a real word (FORM_TYPO_ZIPF), one edit away keeping the first two
    letters, and a passage's word is a form of it (`_is_form`): never a six-letter key, so
    "interogeait" reads as "interrogeait" where a passage writes "interroge", never as "interdit"."""
    # A word the language uses is spelled as meant.
    candidates = {s.word: _fold(s.word) for s in stats
                  if s.df == 0 and len(s.word) >= SOUND_MIN_LENGTH and s.word.isalpha() and not common(s.word)}
    if not candidates:
        return list(stats)
    held = [set(_PART.findall(_fold(text))) for text in passage_texts]
    vocabulary = set().union(*held) if held else set()
    by_start: dict[str, set[str]] = {}
    by_sound: dict[str, set[str]] = {}
    out: list[TermStat] = []
    for s in stats:
        folded = candidates.get(s.word)
        near = sorted(w for w in edits(folded) & vocabulary if len(w) >= TYPO_MIN_LENGTH) \
            if folded and len(folded) >= TYPO_MIN_LENGTH else []
        by_ear = False
        if folded and not near and (len(folded) >= TYPO_MIN_LENGTH or s.word not in names):
            # Written as it sounds, or with a letter doubled or single ("suprimmer", "rafrechir"):
            # two edits or more from the passages' word, the same word spoken.
            if not by_sound:
                for w in vocabulary:
                    if len(w) >= TYPO_MIN_LENGTH and w.isalpha():
                        by_sound.setdefault(sound_key(w), set()).add(w)
            near = sorted(w for w in by_sound.get(sound_key(folded), ()) if w[0] == folded[0])
            by_ear = bool(near)
        if near:
            holding = sum(1 for words in held if near[0] in words)
            # What the articles write is the subject, whatever words stand around it; a word written
            # by ear is a word of the language, never a name matched exactly (LEXICAL_SLACK).
            s = replace(s, df=holding, idf=idf(holding, n), typo_of=near[0], context=False,
                        named=s.named and not by_ear)
        elif folded and len(folded) >= TYPO_MIN_LENGTH and s.word not in names:
            if not by_start:
                for w in vocabulary:
                    if len(w) >= TYPO_MIN_LENGTH and w.isalpha():
                        by_start.setdefault(w[:TYPO_MIN_LENGTH], set()).add(w)
            meant = _language_form(folded, passage_texts, by_start)
            if meant:
                word, forms = meant
                holding = sum(1 for words in held if words & forms)
                # A word of the language mistyped, not a name: no exact match of a name (LEXICAL_SLACK).
                s = replace(s, df=holding, idf=idf(holding, n), typo_of=word, context=False, named=False)
        out.append(s)
    return out


# A word spelled by ear may be shorter than a typo one edit away: the same sound has far fewer
# neighbours than one edit ("purj" sounds as "purge", nothing else a passage writes).
SOUND_MIN_LENGTH = 4


# How many letters a passage's form of a word may have beyond their common beginning
# ("initialis" + "ation"), and the word itself: two, or one inflection ("interroge" + "ait").
FORM_TAIL, WORD_TAIL = 5, 2


def _is_form(form: str, word: str) -> bool:
    """Whether `form` (a passage's word) is a form of `word`: they share all but the word's last
    two letters or one inflection (rag.store.terms.INFLECTIONS), TYPO_MIN_LENGTH letters at least,
    and the form's ending is short: "initialize", "initialiser" and "initialisation" are forms of
    "initialise", "initial" and "initiative" are not; "interroge" is a form of "interrogeait",
    "interrompre" is not."""
    shared = next((i for i, (a, b) in enumerate(zip(form, word)) if a != b), min(len(form), len(word)))
    tail = word[shared:]
    return (shared >= TYPO_MIN_LENGTH and len(form) - shared <= FORM_TAIL
            and (len(tail) <= WORD_TAIL or tail in INFLECTIONS))


def _language_form(folded: str, passage_texts: Sequence[str],
                   by_start: Mapping[str, set[str]]) -> tuple[str, set[str]] | None:
    """(the word of the language one edit from `folded`, the passages' words that are forms of
    it: `by_start`, their words by their first letters), or None. Its accents are looked up as
    the passages write them ("verifie" as "vérifié")."""
    found: list[tuple[float, str, set[str]]] = []
    for e in sorted(edits(folded)):
        forms = {w for w in by_start.get(e[:TYPO_MIN_LENGTH], ()) if _is_form(w, e)}
        if not forms:
            continue
        frequency = max([zipf(e) or 0.0] + [zipf(a) or 0.0 for a in _accented(e, forms, passage_texts)])
        if frequency >= FORM_TYPO_ZIPF:
            found.append((frequency, e, forms))
    if not found:
        return None
    _, word, forms = max(found, key=lambda f: (f[0], f[1]))
    return word, forms


def _accented(folded: str, forms: set[str], passage_texts: Sequence[str]) -> set[str]:
    """`folded` with the accents of the passages' forms on their common letters."""
    out: set[str] = set()
    for text in passage_texts:
        for written in _PART.findall(text.lower()):
            w = _fold(written)
            if w in forms and len(w) == len(written):
                common_length = next((i for i, (a, b) in enumerate(zip(w, folded)) if a != b), min(len(w), len(folded)))
                out.add(written[:common_length] + folded[common_length:])
    return out


def signals_from(
    question: str, passages: Sequence[Any], df: Mapping[str, int] | None, n: int | None,
    cosine_core: float | None = None, exact: bool = False,
) -> Signals:
    """The gate's signals from retrieved passages (`score`, `text`) and document frequencies.

    `df` None: the collection has no term statistics (built before them); coverage is then None.
    `cosine_core`: the passages' best cosine to the question without its context words.
    """
    scores = [float(p.score) for p in passages if getattr(p, "score", None) is not None]
    best = max(scores) if scores else None
    margin = (best - min(scores)) if len(scores) > 1 else None
    if df is None or n is None:
        return Signals(best, None, None, margin=margin)
    words = question_words(question)
    context, tools = roles(question)
    texts = [getattr(p, "text", "") for p in passages]
    names = {w.text for w in words if w.named}

    def stats_with(aside: set[str]) -> list[TermStat]:
        stats = term_stats(words, df, n, aside, tools, exact)
        stats = with_passage_typos(with_spelled_acronyms(stats, texts, n), texts, n, names)
        return with_collection_typos(stats, words, df, n, texts)
    stats = stats_with(context)
    place = places(question) - context
    set_aside: list[str] = []
    if place:
        # A place is the reader's ("en Auvergne", "vers Montréal") when the passages hold the rest of
        # what is asked (of the words some chunk holds: no passage can hold the others); else it
        # may be the subject ("ouvrir le dimanche en Bretagne"), kept.
        placed = stats_with(context | place)
        rest = [s for s in placed if not s.context and s.df > 0]  # what the collection could hold
        if (passage_coverage(words, rest, texts) or 0.0) >= SUBJECT_COVERED:
            stats = placed
            set_aside = [s.word for s in placed if s.context and s.word in place]
    core = [s for s in stats if not s.context]
    everyday = [s for s in core if s.df == 0 and not s.named and ordinary(s.word)]
    specific = [s for s in core if s not in everyday]
    return Signals(
        cosine=best,
        coverage=coverage(stats),
        passage_coverage=passage_coverage(words, stats, texts),
        unknown_names=[s.word for s in stats if s.named and s.df == 0],
        known_names=[s.word for s in stats if s.named and s.df > 0],
        missing=[s.word for s in stats if s.df == 0],
        margin=margin,
        chunks=n,
        terms=stats,
        context_words=[s.word for s in stats if s.context],
        unknown_subject=[s.word for s in core if s.named and s.df == 0],
        core_coverage=coverage(core),
        core_passage_coverage=passage_coverage(words, core, texts),
        cosine_core=cosine_core,
        ordinary_words=[s.word for s in everyday],
        specific_coverage=coverage(specific),
        specific_passage_coverage=passage_coverage(words, specific, texts),
        subject_words=asked_words([s.word for s in stats if s.df == 0], [s.word for s in stats if s.context],
                                  [s.word for s in everyday]),
        other_language=bool(texts) and detect_language(question) != detect_language(" ".join(texts)),
        places=set_aside,
    )


def asked_words(missing: Sequence[str], context: Sequence[str], everyday: Sequence[str]) -> list[str]:
    """The missing words that say what is asked: neither the situation nor everyday words (nor a
    conjugated form of one: "ferons"), the rarest first (`Signals.subject_words`; the journal
    reads older signals through it too). Naming only: the verdict reads `ordinary_words`."""
    aside = set(context) | set(everyday)
    return by_rarity([w for w in missing if w not in aside and not everyday_form(w)])


def by_rarity(words: Sequence[str]) -> list[str]:
    """`words` the rarest in the language first (the most distinctive: a name, then a specific
    word), in their order where the language does not tell (no wordfreq, or equally rare)."""
    return sorted(words, key=lambda w: zipf(w.lower()) or 0.0)


def without_context(question: str, words: Sequence[str]) -> str:
    """The question with its context words taken out (what `cosine_core` embeds)."""
    import re

    for w in sorted(set(words), key=len, reverse=True):
        question = re.sub(r"(?<!\w)" + re.escape(w) + r"(?!\w)", " ", question)
    return " ".join(question.split())
