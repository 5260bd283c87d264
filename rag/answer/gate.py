"""The answerability gate: answer, leave the question to the chat model (unsure), or refuse before
any model call, and say why.

A logistic model fitted by benchmarks/gate_fit.py (gate_model.json beside this file) reads five
signals of the question and its passages (rag.answer.gate_signals): the best passage's cosine
measured from the cosine floor (`GateParams.min_cosine`: the model's default, or the collection's
calibration), its `peak` over the question's background, `rare_held`, `rare_unknown` and `drift`.
A signal that could not be measured counts as its mean over the fit. The model turns them into the
probability that the articles answer. Under `refuse_below` the gate refuses; from `answer_from` it
answers; between, the verdict is unsure: the passages go to the chat model, whose prompt refuses
when they hold no answer. The cut-offs were chosen so that a false refusal, which a reader never
sees, is rare: only clear cases are refused.

The decision is written once (`decide_verdict`): the live gate, the evaluation's counts, its
calibration and its chart call it. The thin I/O beside it reads the store under the reader's
access filter.
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
from rag.answer.gate_signals import (
    BACKGROUND_DEPTH, Signals, drift_of, rare_missing, signals_from,
)
from rag.answer.threshold import COLLECTION, MODEL_DEFAULT, SETTING, default_threshold
from rag.i18n import language as in_language, t
from rag.store.filters import Where, match
from rag.store.terms import EXACT_FROM, READABLE_VERSIONS, TERMS_FIELD, question_keys, question_words
from rag.errors import EmbeddingError

MODEL_PATH = Path(__file__).with_name("gate_model.json")
# Kept for the collections' metadata and the settings: 0 turns the word signals off (the cosine
# alone decides, as before the gate); any other value leaves them on.
DEFAULT_MIN_COVERAGE = 0.6

ANSWER, UNSURE, REFUSE = "answer", "unsure", "refuse"
# Reason codes (stable, in JSON); their sentences are the catalogue's `gate.<code>`.
NO_PASSAGE, UNKNOWN_NAMES, LOW_COVERAGE, LOW_COSINE = "no_passage", "unknown_names", "low_coverage", "low_cosine"

__all__ = [
    "ANSWER", "DEFAULT_MIN_COVERAGE", "LOW_COSINE", "LOW_COVERAGE", "NO_PASSAGE", "REFUSE", "UNKNOWN_NAMES",
    "UNSURE", "Decision", "GateModel", "GateParams", "background_of", "decide_verdict",
    "document_frequencies", "explain", "gate", "has_exact_terms", "has_terms", "load_model", "resolve_params",
    "save_calibration", "term_holder",
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
