"""The gate's signals, pure: what a question and its retrieved passages say of whether the
articles answer it (rag.answer.gate decides from them). Each is meaningful on any corpus and
counted under the reader's access filter (a word or a chunk in a document the reader may not see
counts as absent):

- `cosine`: the best retrieved passage's cosine to the question;
- `background`: the median cosine of the question's BACKGROUND_DEPTH nearest visible chunks (its
  peak over it is what the model reads: a passage written about the question stands out of the
  collection, a question the articles only brush against finds them all alike);
- `rare_held`: the share of the question's weight that the retrieved passages hold, each word
  weighing its IDF over the chunks the reader may see times its rarity in the language
  (wordfreq), words compared by their Snowball stems and their stored keys (rag.textnorm,
  rag.store.terms): the articles' own terms weigh, "comment" and "faire" hardly;
- `rare_unknown`: the share of that weight carried by words no visible chunk holds: a rare unknown
  term lowers the score a lot, an everyday word a little; no word vetoes;
- `drift`: how much of the question's meaning those rare unknown words carry, as the embedding
  model reads it: 1 - the cosine between the question and the question without them. A reader's
  name or file beside the subject moves the question little; the very product asked about, much.

Words are compared within one language: when most retrieved passages are written in another
language than the question (a French question on English pages), the two shares are not measured
(`other_language`). `held`, `unknown` and `coverage` (the same shares weighted by IDF alone) are
reported beside them.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Mapping, Sequence

from rag.i18n.detect import mostly_other_language
from rag.store.sparse import tokenize
from rag.store.terms import QuestionWord, chunk_terms, question_words, without_words
from rag.textnorm import fold, idf, stems

# wordfreq's Zipf scale: 7 is the commonest words of a language ("de", "the"), 0 a word it never
# saw. A word's rarity is how far under the top it sits; from EVERYDAY_ZIPF on, a word is one
# everybody writes, and a refusal never names it.
TOP_ZIPF = 7.0
EVERYDAY_ZIPF = 4.0
RARE_ZIPF = 2.0  # under it, a word is looked up whole (a name, a command), not by its stem
# A refusal names the missing words weighing at least this share of the heaviest: the product
# names rather than every rarer-than-everyday word beside them.
NAMED_SHARE = 0.75
# How many of the question's nearest visible chunks make its background (their median cosine).
BACKGROUND_DEPTH = 40
RARE_FROM = 1 - EVERYDAY_ZIPF / TOP_ZIPF  # the rarity over which a word is not an everyday one


@dataclass
class TermStat:
    word: str  # as typed
    df: int  # visible chunks holding it
    idf: float
    rarity: float  # 1 for a word the language does not use, about 0.3 for an everyday one
    held: bool  # a retrieved passage holds it


@dataclass
class Signals:
    cosine: float | None
    coverage: float | None = None  # None: the collection has no term statistics
    held: float | None = None
    unknown: float | None = None
    # The question's background (the median cosine of its nearest visible chunks; None when not
    # measured), and the shares of its weight counted with each word's rarity in the language.
    background: float | None = None
    rare_held: float | None = None
    rare_unknown: float | None = None
    other_language: bool = False  # most passages in another language than the question: no shares
    missing: list[str] = field(default_factory=list)  # every word no visible chunk holds, as typed
    # The rare words no visible chunk holds, the heaviest first: what a refusal names and the
    # journal's subjects are made of (never an everyday word, never a word a chunk holds).
    subject_words: list[str] = field(default_factory=list)
    chunks: int | None = None
    terms: list[TermStat] = field(default_factory=list)
    # How much of the question's meaning its rare missing words carry (`drift_of`): 0 without such
    # a word; None when not measured (two languages, no vector, the second embedding failed).
    drift: float | None = None

    @property
    def named(self) -> list[str]:
        """subject_words, or none when the words were not compared (two languages): what the
        decision, a refusal, the journal and the evaluation read."""
        return [] if self.other_language else list(self.subject_words)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("cosine", "coverage", "held", "unknown", "background", "rare_held", "rare_unknown", "drift"):
            if data[key] is not None:
                data[key] = round(float(data[key]), 4)
        for term in data["terms"]:
            term["idf"], term["rarity"] = round(term["idf"], 3), round(term["rarity"], 3)
        return data

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Signals:
        """Signals back from their JSON (a results.json row, `rag ask --json`'s gate)."""
        held = data.get("held", data.get("passage_coverage"))
        return cls(data.get("cosine"), data.get("coverage"), held, data.get("unknown"), data.get("background"),
                   data.get("rare_held"), data.get("rare_unknown"), bool(data.get("other_language")),
                   list(data.get("missing") or data.get("missing_terms") or []),
                   list(data.get("subject_words") or []), data.get("chunks"), drift=data.get("drift"))


def zipf(word: str) -> float:
    """How common a word is in French or English (wordfreq's Zipf scale; 0: never seen)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - a declared dependency
        return 0.0
    w = word.lower()
    return max(zipf_frequency(w, "fr"), zipf_frequency(w, "en"))


def rarity(word: str) -> float:
    return max(0.0, min(1.0, 1.0 - zipf(word) / TOP_ZIPF))


def _whole_only(w: QuestionWord, exact: bool) -> bool:
    """A word rare in the language is looked up by its whole key when the collection stores them
    (a command is not the everyday word its first letters spell)."""
    return exact and w.exact is not None and (w.named or zipf(w.text) < RARE_ZIPF)


def _df(w: QuestionWord, df: Mapping[str, int], exact: bool) -> int:
    """Visible chunks holding the word: a compound whole (else all its parts), a plain word by
    its commonest stored form, a rare word by its whole key (`_whole_only`)."""
    if _whole_only(w, exact):
        return df.get(w.exact, 0)
    if w.whole and df.get(w.whole, 0) > 0:
        return df[w.whole]
    count = min((df.get(k, 0) for k in w.parts), default=0)
    return max([count] + [df.get(k, 0) for k in w.forms])


def _held(w: QuestionWord, keys: set[str], passage_stems: set[str], exact: bool) -> bool:
    """Whether a passage holds the word, looked up as `_df` counts it: a rare word whole."""
    if _whole_only(w, exact):
        return w.exact in keys or bool({fold(w.text)} & passage_stems)
    own = ((w.whole,) if w.whole else w.parts) + w.forms
    return any(k in keys for k in own) or bool(stems(fold(w.text)) & passage_stems)


def signals_from(question: str, passages: Sequence[Any], df: Mapping[str, int] | None, n: int | None,
                 exact: bool = False, background: float | None = None) -> Signals:
    """The signals of retrieved passages (`score`: dense cosine, `text`) and the document
    frequencies of the question's keys among the chunks the reader may see (None: the collection
    has no term statistics, the cosine alone is known); `background`: the median cosine of the
    question's nearest visible chunks (`background_of`)."""
    scores = [float(p.score) for p in passages if getattr(p, "score", None) is not None]
    best = max(scores) if scores else None
    if df is None or n is None:
        return Signals(best, background=background)
    texts = [getattr(p, "text", "") or "" for p in passages]
    keys = {k for text in texts for k in chunk_terms(text)}
    passage_stems = {s for text in texts for tok in set(tokenize(text)) for s in stems(tok)}
    stats = []
    for w in question_words(question):
        count = _df(w, df, exact)
        stats.append(TermStat(w.text, count, idf(count, max(n, 1)), rarity(w.text),
                              _held(w, keys, passage_stems, exact)))
    total = sum(s.idf for s in stats)
    rare_total = sum(s.idf * s.rarity for s in stats)
    if total <= 0 or rare_total <= 0:
        return Signals(best, None, None, None, background, chunks=n, terms=stats)
    elsewhere = mostly_other_language(question, texts)
    absent = [s for s in stats if s.df == 0 and not s.held]  # a passage's stem is a visible chunk's
    rare = sorted((s for s in absent if s.rarity > RARE_FROM), key=lambda s: -s.idf * s.rarity)
    named = [s for s in rare if s.idf * s.rarity >= NAMED_SHARE * rare[0].idf * rare[0].rarity]
    return Signals(
        cosine=best,
        coverage=1.0 - sum(s.idf for s in absent) / total,
        held=sum(s.idf for s in stats if s.held) / total,
        unknown=sum(s.idf * s.rarity for s in absent) / total,
        background=background,
        rare_held=None if elsewhere else sum(s.idf * s.rarity for s in stats if s.held) / rare_total,
        rare_unknown=None if elsewhere else sum(s.idf * s.rarity for s in absent) / rare_total,
        other_language=elsewhere,
        missing=[s.word for s in absent],
        subject_words=[s.word for s in named],
        chunks=n,
        terms=stats,
    )


def rare_missing(signals: Signals) -> list[str]:
    """The question's words, as typed, that no visible chunk holds and that are not everyday words
    (what `drift` takes out of the question); none across two languages."""
    if signals.other_language:
        return []
    return [s.word for s in signals.terms if s.df == 0 and not s.held and s.rarity > RARE_FROM]


def drift_of(question: str, words: Sequence[str], vector: Sequence[float] | None,
             embed_query: Callable[[str], Sequence[float]] | None) -> float | None:
    """1 - the cosine between the question (`vector`) and the question without `words`, embedded
    by `embed_query`: how much of its meaning they carry; 0 without such a word (adding one never
    raises the score), 1 when no word is left, None when it cannot be measured."""
    if not words:
        return 0.0
    if vector is None or embed_query is None:
        return None
    rest = without_words(question, list(words))
    if not any(ch.isalnum() for ch in rest):  # "Okta ?" without Okta is a question mark: nothing left
        return 1.0
    other = embed_query(rest)
    norms = math.sqrt(sum(a * a for a in vector)) * math.sqrt(sum(b * b for b in other))
    if not norms or len(other) != len(vector):
        return None
    return 1.0 - sum(a * b for a, b in zip(vector, other)) / norms
