"""The answerability gate: answer, leave the question to the chat model (unsure), or refuse before
any model call, and say why.

Five signals read by the model, each meaningful on any corpus, all counted under the reader's
access filter (a word or a chunk in a document the reader may not see counts as absent):

- `cosine`: the best retrieved passage's cosine to the question, measured from the cosine floor
  (`GateParams.min_cosine`: the model's default, or the collection's calibration);
- `peak`: how far that cosine rises over the question's own background, the median cosine of
  its BACKGROUND_DEPTH nearest visible chunks: a passage written about the question stands out
  of the collection, a question the articles only brush against finds them all alike;
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
(`other_language`) and the model counts them as it counts any signal it could not measure.

`held`, `unknown` and `coverage` (the same shares weighted by IDF alone) are reported beside them.

A logistic model fitted by benchmarks/gate_fit.py (gate_model.json beside this file) turns them
into the probability that the articles answer. Under `refuse_below` the gate refuses; from
`answer_from` it answers; between, the verdict is unsure: the passages go to the chat model, whose
prompt refuses when they hold no answer. The cut-offs were chosen so that a false refusal, which
a reader never sees, is rare: only clear cases are refused.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from rag.answer import refusal
from rag.answer.threshold import COLLECTION, MODEL_DEFAULT, SETTING, default_threshold
from rag.i18n import language as in_language, t
from rag.i18n.detect import mostly_other_language
from rag.store.filters import Where, match
from rag.store.sparse import tokenize
from rag.store.terms import (
    EXACT_FROM, READABLE_VERSIONS, TERMS_FIELD, QuestionWord, chunk_terms, question_keys, question_words,
    without_words,
)
from rag.errors import EmbeddingError
from rag.textnorm import fold, idf, stems

MODEL_PATH = Path(__file__).with_name("gate_model.json")
# Kept for the collections' metadata and the settings: 0 turns the word signals off (the cosine
# alone decides, as before the gate); any other value leaves them on.
DEFAULT_MIN_COVERAGE = 0.6
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

ANSWER, UNSURE, REFUSE = "answer", "unsure", "refuse"
# Reason codes (stable, in JSON); their sentences are the catalogue's `gate.<code>`.
NO_PASSAGE, UNKNOWN_NAMES, LOW_COVERAGE, LOW_COSINE = "no_passage", "unknown_names", "low_coverage", "low_cosine"

__all__ = [
    "ANSWER", "DEFAULT_MIN_COVERAGE", "LOW_COSINE", "LOW_COVERAGE", "NO_PASSAGE", "REFUSE",
    "BACKGROUND_DEPTH", "UNKNOWN_NAMES", "UNSURE", "Decision", "GateModel", "GateParams", "Signals", "TermStat",
    "background_of", "decide_verdict", "document_frequencies", "drift_of", "explain", "gate", "has_exact_terms",
    "has_terms", "load_model", "rare_missing", "resolve_params", "save_calibration", "signals_from", "term_holder",
]


@dataclass(frozen=True)
class GateParams:
    """Where the gate's boundary lies. `source`: setting | collection | model default."""

    min_cosine: float
    min_coverage: float = DEFAULT_MIN_COVERAGE
    refuse_unknown_names: bool = True  # kept for saved calibrations; the words never veto
    source: str = MODEL_DEFAULT
    # From which cosine a passage goes to the chat model once the question is let through: the
    # embedding model's own floor (or a lower boundary), or the threshold set explicitly. A
    # collection's calibration moves the gate's boundary, not how many passages the model reads.
    passage_floor: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class GateModel:
    """The fitted combination: p = sigmoid(bias + sum(weight * signal)), and its two cut-offs.
    `means`: each signal's mean over the questions it was fitted on, what a signal that could not
    be measured (no background without the store) counts as, so that it moves the score neither way."""

    weights: Mapping[str, float]
    bias: float
    refuse_below: float
    answer_from: float
    means: Mapping[str, float] = field(default_factory=dict)

    def probability(self, features: Mapping[str, float | None]) -> float:
        values = {name: features.get(name) for name in self.weights}
        z = self.bias + sum(w * (self.means.get(name, 0.0) if values[name] is None else values[name])
                            for name, w in self.weights.items())
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> GateModel:
        return cls(dict(data["weights"]), float(data["bias"]), float(data["refuse_below"]),
                   float(data["answer_from"]), dict(data.get("means") or {}))


@lru_cache(maxsize=1)
def load_model(path: Path = MODEL_PATH) -> GateModel:
    return GateModel.of(json.loads(path.read_text(encoding="utf-8")))


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


@dataclass
class Decision:
    answer: bool  # the question goes on to the passages and the model (verdict answer or unsure)
    reason: str | None  # a reason code when refused or unsure
    signals: Signals
    params: GateParams
    note: str | None = None  # e.g. the collection lacks term statistics
    verdict: str | None = None  # answer | unsure | refuse
    score: float | None = None  # the model's probability that the articles answer

    def __post_init__(self) -> None:
        if self.verdict is None:
            self.verdict = ANSWER if self.answer else REFUSE

    @property
    def unsure(self) -> bool:
        return self.verdict == UNSURE

    def to_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "refused": not self.answer, "verdict": self.verdict, "reason": self.reason,
                "signals": self.signals.to_dict(), "params": self.params.to_dict(), "note": self.note,
                "score": None if self.score is None else round(self.score, 4)}


# -- pure ------------------------------------------------------------------------------------


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


def features(signals: Signals, params: GateParams) -> dict[str, float | None]:
    """What the model may read: the cosine from the floor, its peak over the background (None
    when the background was not measured), and the shares of the question's weight."""
    cosine = float(signals.cosine or 0.0)
    # A results.json of an earlier run has the shares weighted by IDF alone: the nearest measure;
    # across two languages they are not measured (None: the model counts its mean).
    earlier = signals.rare_held is None and not signals.other_language
    rare_held, rare_unknown = (signals.held, signals.unknown) if earlier else (signals.rare_held, signals.rare_unknown)
    return {"cosine": cosine - params.min_cosine,
            "peak": None if signals.background is None else cosine - signals.background,
            "rare_held": None if rare_held is None else float(rare_held),
            "rare_unknown": None if rare_unknown is None else float(rare_unknown),
            "drift": None if signals.other_language or signals.drift is None else float(signals.drift),
            "held": float(signals.held or 0.0), "unknown": float(signals.unknown or 0.0),
            "coverage": float(signals.coverage or 0.0)}


def decide_verdict(signals: Signals, params: GateParams, model: GateModel | None = None,
                   ) -> tuple[str, str | None, float | None]:
    """(answer | unsure | refuse, reason code, the model's probability). Without word statistics
    (or with `min_coverage` 0) the cosine floor alone decides, as before the gate; a floor set or
    calibrated for the collection refuses every question whose best passage lies under it."""
    if signals.cosine is None:
        return REFUSE, NO_PASSAGE, None
    if signals.held is None or params.min_coverage <= 0:
        return (ANSWER, None, None) if signals.cosine >= params.min_cosine else (REFUSE, LOW_COSINE, None)
    model = model or load_model()
    p = model.probability(features(signals, params))
    named = bool(signals.named)
    if params.source != MODEL_DEFAULT and signals.cosine < params.min_cosine:
        # A floor somebody chose (a setting, the collection's calibration) is one no passage under
        # it crosses; the model's default floor is only where its closeness is measured from.
        return REFUSE, UNKNOWN_NAMES if named else LOW_COSINE, p
    # A rare word no visible chunk holds is a doubt in itself (the reader's context, or the very
    # subject): such a question can be let through, never answered with no doubt.
    if p >= model.answer_from and not named:
        return ANSWER, None, p
    reason = UNKNOWN_NAMES if named else LOW_COVERAGE if signals.cosine >= params.min_cosine else LOW_COSINE
    return (UNSURE if p >= model.refuse_below else REFUSE), reason, p


def explain(decision: Decision, language: str) -> str | None:
    """Why the gate refused (or doubts), in the question's language; None when it answers."""
    if decision.answer and not decision.unsure:
        return None
    return refusal.text(refusal.from_decision(decision), language)


def resolve_params(
    explicit_cosine: float | None,
    collection_info: Mapping[str, Any] | None,
    model_id: str | None,
    explicit_coverage: float | None = None,
) -> GateParams:
    """Order: an explicit setting (RAG_THRESHOLD, --threshold, the sidebar) > the collection's
    calibration (`rag eval --save-threshold`) > the embedding model's default floor."""
    info = collection_info or {}
    saved = info.get("gate") if isinstance(info.get("gate"), Mapping) else {}
    model = model_id or info.get("embedding_model")
    if saved.get("min_cosine") is not None:
        params = GateParams(float(saved["min_cosine"]), float(saved.get("min_coverage", DEFAULT_MIN_COVERAGE)),
                            bool(saved.get("refuse_unknown_names", True)), COLLECTION)
    elif info.get("threshold") is not None:  # calibrated before the gate: the cosine only
        params = GateParams(float(info["threshold"]), DEFAULT_MIN_COVERAGE, True, COLLECTION)
    else:
        params = GateParams(default_threshold(model), DEFAULT_MIN_COVERAGE, True, MODEL_DEFAULT)
    if explicit_cosine is not None:
        params = replace(params, min_cosine=float(explicit_cosine), source=SETTING,
                         passage_floor=float(explicit_cosine))
    else:
        params = replace(params, passage_floor=min(params.min_cosine, default_threshold(model)))
    if explicit_coverage is not None:
        params = replace(params, min_coverage=float(explicit_coverage), source=SETTING,
                         refuse_unknown_names=float(explicit_coverage) > 0)
    return params


def has_terms(collection_info: Mapping[str, Any] | None) -> bool:
    """Whether every point of the collection carries term keys of a version this code reads."""
    return (collection_info or {}).get("terms_version") in READABLE_VERSIONS


def has_exact_terms(collection_info: Mapping[str, Any] | None) -> bool:
    """Whether the collection's points hold long words' whole keys too (term keys version 2)."""
    return has_terms(collection_info) and (collection_info or {}).get("terms_version", 0) >= EXACT_FROM


# -- thin I/O --------------------------------------------------------------------------------


def background_of(store: Any, collection: str, vector: Sequence[float] | None,
                  groups: Sequence[str] | None) -> float | None:
    """The median cosine of the question's BACKGROUND_DEPTH nearest chunks a reader of `groups`
    may see (None without the question's vector or any visible chunk)."""
    if store is None or vector is None:
        return None
    scores = [h.score for h in store.search_dense(collection, vector, BACKGROUND_DEPTH, groups=groups)]
    return statistics.median(scores) if scores else None


def document_frequencies(
    store: Any, collection: str, keys: Sequence[str], groups: Sequence[str] | None,
) -> tuple[dict[str, int], int]:
    """({key: chunks holding it}, chunks in all), both counted by the store among the points a
    reader of `groups` may see (None: every point), exact."""
    n = store.count(collection, groups=groups)
    return {k: store.count(collection, where=Where(must=(match(TERMS_FIELD, k),)), groups=groups) for k in keys}, n


def term_holder(store: Any, collection: str, collection_info: Mapping[str, Any] | None,
                groups: Sequence[str] | None) -> Callable[[Sequence[str]], bool] | None:
    """holds(terms): does a chunk a reader of `groups` may see hold one of `terms`, keyed as the
    gate keys a question's words? None for a collection without term statistics."""
    if store is None or not collection or not has_terms(collection_info):
        return None

    def holds(terms: Sequence[str]) -> bool:
        keys = question_keys(question_words(" ".join(terms)))
        return any(store.count(collection, where=Where(must=(match(TERMS_FIELD, k),)), groups=groups) for k in keys)
    return holds


def gate(
    question: str,
    passages: Sequence[Any],
    params: GateParams,
    store: Any = None,
    collection: str | None = None,
    groups: Sequence[str] | None = None,
    collection_info: Mapping[str, Any] | None = None,
    language: str = "fr",
    embedder: Any = None,
) -> Decision:
    """Signals and decision for one question; term statistics from the store when the
    collection has them, else the cosine alone and a note that says how to get them. The
    background is searched with the vector retrieval used (`passages.vector`), else with the
    question embedded again by `embedder`."""
    note = None
    df = n = background = vector = None
    if store is not None and collection and has_terms(collection_info):
        df, n = document_frequencies(store, collection, question_keys(question_words(question)), groups)
    elif store is not None and collection:
        with in_language(language):
            note = t("gate.no_terms")
    if store is not None and collection and passages:
        vector = getattr(passages, "vector", None)
        if vector is None and embedder is not None:
            vector = embedder.embed_query(question.strip())
        background = background_of(store, collection, vector, groups)
    signals = signals_from(question, passages, df, n, exact=has_exact_terms(collection_info), background=background)
    if signals.held is not None and not signals.other_language and params.min_coverage > 0:
        try:  # the words are weighed: how much of the question the rare missing ones carry
            signals.drift = drift_of(question, rare_missing(signals), vector, getattr(embedder, "embed_query", None))
        except EmbeddingError:
            signals.drift = None  # counted at its mean: the question is judged on the other signals
    verdict, reason, score = decide_verdict(signals, params)
    return Decision(verdict != REFUSE, reason, signals, params, note, verdict, score)


def save_calibration(
    store: Any, collection: str, suggested: Mapping[str, Any], question_set: str | None,
    date: str | None = None,
) -> dict[str, Any]:
    """Record the gate's calibrated cosine floor in the collection's metadata, with the question
    set it comes from and when; `threshold` gets it too (what older readers use)."""
    from datetime import datetime

    record = {
        "min_cosine": float(suggested["min_cosine"]),
        "min_coverage": float(suggested.get("min_coverage", DEFAULT_MIN_COVERAGE)),
        "refuse_unknown_names": bool(suggested.get("refuse_unknown_names", True)),
        "question_set": question_set,
        "date": date or datetime.now(UTC).isoformat(timespec="seconds"),
        "in_base_answered": suggested.get("in_base_answered"),
        "off_topic_refused": suggested.get("off_topic_refused"),
    }
    store.update_metadata(collection, threshold=record["min_cosine"], gate=record)
    return record
