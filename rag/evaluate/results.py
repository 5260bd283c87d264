"""results.json as types: a question's row, the summary, the gate's figures, a comparison.

Each type reads and writes exactly the keys results.json has always had (docs/contracts.md):
`Results.from_dict(data).to_dict() == data`, whatever the file holds. The fields named here are
the ones code reads; any other key is kept in `extra`, in its place, so that an older or newer
file loses nothing, and a key an older file lacks reads as the field's default without being
written back. A nested block is a type of its own (the gate's figures, the calibration, a
comparison's measures), read and written with its parent.

A new measure is one field here plus its use: `tests/evaluate/test_results_types.py` writes and
reads back every field of every type, and `tests/test_docs.py` finds each field in the contracts.
The readers (the report, the Evaluate page, `rag eval`) take these types, or the dicts they come
from, read once through `of`.
"""

from __future__ import annotations

import sys
import typing
from dataclasses import MISSING, dataclass, field, fields
from functools import cache
from typing import Any, Mapping, TypeVar

T = TypeVar("T", bound="_Record")


@dataclass
class _Record:
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls: type[T], data: T | Mapping[str, Any] | None) -> T:
        """`data` as this type: itself when it already is one, read from its dict otherwise."""
        if isinstance(data, cls):
            return data
        return cls.from_dict(data or {})

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
        nested = _nested(cls)
        names = [f.name for f in fields(cls) if f.name != "extra"]
        known = {name: _read(nested.get(name), data[name]) for name in names if name in data}
        # A block written as null reads as an empty block where the type has no None (and is
        # written back as null, from `extra`, while left empty).
        nulls = {f.name for f in fields(cls) if known.get(f.name, 0) is None and isinstance(_default(f), _Record)}
        record = cls(**{name: value for name, value in known.items() if name not in nulls})
        # Every key in its order, the known ones included: to_dict writes the file back as it was.
        record.extra = {key: value for key, value in data.items()}
        record._absent = {name for name in names if name not in data} | nulls
        return record

    def has(self, name: str) -> bool:
        """Whether the file had this key (a record built in code has them all): an older file's
        missing measure is not a measure of None."""
        return name not in getattr(self, "_absent", ())

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.extra)
        absent = getattr(self, "_absent", set())
        for f in fields(self):
            if f.name == "extra":
                continue
            value = getattr(self, f.name)
            if f.name in absent and value == _default(f):
                continue
            out[f.name] = _write(value)
        return out


def _default(f: Any) -> Any:
    return f.default_factory() if f.default_factory is not MISSING else f.default


@cache
def _nested(cls: type) -> dict[str, tuple[str, type]]:
    """The fields holding records: name -> ("one" | "list" | "map", the record's type)."""
    hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    found = {}
    for name, hint in hints.items():
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if isinstance(hint, type) and issubclass(hint, _Record):
            found[name] = ("one", hint)
        elif origin is list and args and isinstance(args[0], type) and issubclass(args[0], _Record):
            found[name] = ("list", args[0])
        elif origin is dict and len(args) == 2 and isinstance(args[1], type) and issubclass(args[1], _Record):
            found[name] = ("map", args[1])
        else:  # X | None
            records = [a for a in args if isinstance(a, type) and issubclass(a, _Record)]
            if records and origin is not list and origin is not dict:
                found[name] = ("one", records[0])
    return found


def _read(kind: tuple[str, type] | None, value: Any) -> Any:
    """A nested value as its record(s); anything else (None, an unexpected shape) as it is."""
    if kind is None:
        return value
    how, record = kind
    if how == "one":
        return record.from_dict(value) if isinstance(value, Mapping) else value
    if how == "list" and isinstance(value, list):
        return [record.from_dict(v) if isinstance(v, Mapping) else v for v in value]
    if how == "map" and isinstance(value, Mapping):
        return {k: record.from_dict(v) if isinstance(v, Mapping) else v for k, v in value.items()}
    return value


def _write(value: Any) -> Any:
    if isinstance(value, _Record):
        return value.to_dict()
    if isinstance(value, list):
        return [_write(v) for v in value]
    if isinstance(value, dict):
        return {k: _write(v) for k, v in value.items()}
    return value


# -- a question's row ------------------------------------------------------------------------


@dataclass
class Retrieved(_Record):
    """One retrieved passage of a row (`retrieved[i]`)."""

    url: str | None = None
    score: float | None = None


@dataclass
class QuestionRow(_Record):
    """One question of the run (the keys of `questions[i]`)."""

    id: str = ""
    question: str = ""
    expected_source: str | None = None
    expected_answer: str | None = None
    in_base: bool = False
    category: str | None = None
    also_in: list[str] = field(default_factory=list)
    top1_score: float | None = None
    top1_url: str | None = None
    rank: int | None = None
    retrieved: list[Retrieved] = field(default_factory=list)
    refused: bool = False
    answer_in_context: bool | None = None
    # The gate's decision and signals (rag.answer.gate), when the run had the gate.
    refusal_reason: str | None = None
    verdict: str | None = None
    gate_score: float | None = None  # the gate model's probability that the articles answer
    cosine: float | None = None
    coverage: float | None = None
    passage_coverage: float | None = None  # the share of the question's weight the passages hold
    unknown: float | None = None  # the rarity-weighted share no visible chunk holds
    # The question's background cosine and the rarity-weighted shares (rag.answer.gate_signals.Signals).
    background: float | None = None
    rare_held: float | None = None
    rare_unknown: float | None = None
    drift: float | None = None  # how much of the question's meaning its rare missing words carry
    other_language: bool = False  # most passages in another language than the question: shares not compared
    unknown_names: list[str] = field(default_factory=list)
    missing_terms: list[str] = field(default_factory=list)
    subject_words: list[str] = field(default_factory=list)
    outcome: str | None = None
    # With the chat model.
    answer: str | None = None
    answer_refused: bool | None = None
    citations: list[int] = field(default_factory=list)
    invalid_citations: list[int] = field(default_factory=list)
    uncited: bool | None = None
    answer_contains_expected: bool | None = None
    dropped_passages: list[Any] = field(default_factory=list)
    llm_error: str | None = None
    prompt_tokens: int | None = None
    first_token_seconds: float | None = None
    answer_seconds: float | None = None

    @property
    def found(self) -> bool:
        """The expected article is among the passages."""
        return self.rank is not None

    @property
    def gate_cosine(self) -> float | None:
        """The score the gate judged (its best cosine), else the top-1 score of a run without it."""
        return self.cosine if self.cosine is not None else self.top1_score


# -- the summary's blocks --------------------------------------------------------------------


@dataclass
class Counts(_Record):
    """The counts behind each share (`summary["counts"]`)."""

    hit_at_1: int = 0
    hit_at_3: int = 0
    hit_at_k: int = 0
    with_expected_answer: int = 0
    answer_in_context: int = 0
    in_base_accepted: int = 0
    out_of_base_refused: int = 0
    answer_contains_expected: int = 0
    out_of_base_answer_refused: int = 0
    in_base_answer_refused: int = 0
    answered: int = 0
    with_invalid_citations: int = 0
    invalid_citations: int = 0
    uncited: int = 0
    llm_errors: int = 0


@dataclass
class ThresholdShares(_Record):
    """In-base accepted and off-topic refused at one cosine floor (rag.evaluate.calibration.accepted_refused)."""

    threshold: float | None = None
    in_base_accepted: float | None = None
    out_of_base_refused: float | None = None
    in_base_accepted_count: int | None = None
    in_base_count: int | None = None
    out_of_base_refused_count: int | None = None
    out_of_base_count: int | None = None
    balanced_accuracy: float | None = None


@dataclass
class CosineCalibration(_Record):
    """The cosine floor's calibration (`summary["calibration"]`)."""

    suggested: float | None = None
    criterion: str | None = None
    balanced_accuracy: float | None = None
    overlap_count: int | None = None
    overlap_sentence: str | None = None
    at_current: ThresholdShares | None = None
    at_suggested: ThresholdShares | None = None
    reason: str | None = None


@dataclass
class GateShares(_Record):
    """The gate's decisions at one setting (rag.evaluate.calibration.gate_shares): the settings and
    the shares; the gate's suggestion and `at_current` are these."""

    min_cosine: float | None = None
    min_coverage: float | None = None
    refuse_unknown_names: bool = True
    in_base_answered: float | None = None
    off_topic_refused: float | None = None
    in_base_answered_count: int | None = None
    in_base_count: int | None = None
    off_topic_refused_count: int | None = None
    off_topic_count: int | None = None


@dataclass
class GateSettings(_Record):
    """The gate's settings measured (`gate["params"]`, rag.answer.gate.GateParams)."""

    min_cosine: float | None = None
    min_coverage: float | None = None
    refuse_unknown_names: bool = True
    source: str | None = None
    passage_floor: float | None = None  # from which cosine a let-through question's passages go to the model


@dataclass
class GateCalibration(_Record):
    """The gate's suggested settings (`gate["calibration"]`, rag.evaluate.calibration.calibrate_gate)."""

    suggested: GateShares | None = None
    criterion: str | None = None
    reason: str | None = None
    overlap_sentence: str | None = None


@dataclass
class CosineOnly(_Record):
    """The cosine floor alone, beside the gate (`gate["cosine_only"]`)."""

    threshold: float | None = None
    in_base_accepted: float | None = None
    out_of_base_refused: float | None = None
    suggested_threshold: float | None = None
    at_suggested: ThresholdShares | None = None


@dataclass
class GateFigures(_Record):
    """The answerability gate's figures (`summary["gate"]`)."""

    params: GateSettings = field(default_factory=GateSettings)
    terms: bool = False
    in_base_answered: float | None = None
    off_topic_refused: float | None = None
    at_current: GateShares | None = None
    calibration: GateCalibration = field(default_factory=GateCalibration)
    cosine_only: CosineOnly = field(default_factory=CosineOnly)

    @property
    def suggested(self) -> GateShares | None:
        """The suggested settings (`min_cosine`, `min_coverage`, ...), None without a suggestion."""
        return self.calibration.suggested or None

    @property
    def words_checked(self) -> bool:
        """Whether the run's decisions read the question's words: the collection has word statistics
        and the checks were on (RAG_MIN_COVERAGE=0 turns them off: the closeness alone decides)."""
        return self.terms and (self.params.min_coverage is None or self.params.min_coverage > 0)


@dataclass
class CategoryFigures(_Record):
    """One kind of question (`summary["categories"][i]`, rag.evaluate.metrics.category_metrics)."""

    category: str | None = None
    questions: int = 0
    in_base: int = 0
    out_of_base: int = 0
    found: int = 0
    first: int = 0
    answered: int = 0
    refused: int = 0
    handled_well: int = 0
    hit_at_1: float | None = None
    hit_at_k: float | None = None
    in_base_accepted: float | None = None
    out_of_base_refused: float | None = None
    handled_well_rate: float | None = None


@dataclass
class FailedQuestion(_Record):
    """A question the run could not score (`summary["failed_questions"][i]`)."""

    id: str = ""
    line: int | None = None
    error: str = ""


@dataclass
class SavedGate(_Record):
    """The gate's settings `--save-threshold` recorded (`summary["saved_gate"]`, rag.answer.gate.save_calibration)."""

    min_cosine: float | None = None
    min_coverage: float | None = None
    refuse_unknown_names: bool = True
    question_set: str | None = None
    date: str | None = None
    in_base_answered: float | None = None
    off_topic_refused: float | None = None


@dataclass
class Summary(_Record):
    """The run's summary (`summary`); also an entry of the run history (rag.evaluate.runs.list_runs)."""

    # The measures.
    questions: int = 0
    in_base: int = 0
    out_of_base: int = 0
    question_set_size: int | None = None
    k: int | None = None
    hit_at_1: float | None = None
    hit_at_3: float | None = None
    hit_at_k: float | None = None
    mrr: float | None = None
    answer_in_context: float | None = None
    threshold: float | None = None
    threshold_source: str | None = None
    suggested_threshold: float | None = None
    in_base_accepted: float | None = None
    out_of_base_refused: float | None = None
    refusal_rate_in_base: float | None = None
    answer_contains_expected: float | None = None
    refusal_rate_out_of_base: float | None = None
    invalid_citation_rate: float | None = None
    uncited_rate: float | None = None
    prompt_tokens_mean: float | None = None
    first_token_seconds_median: float | None = None
    answers_timed: int | None = None
    calibration: CosineCalibration = field(default_factory=CosineCalibration)
    gate: GateFigures | None = None
    counts: Counts = field(default_factory=Counts)
    categories: list[CategoryFigures] = field(default_factory=list)
    # The run.
    collection: str | None = None
    model: str | None = None
    dimension: int | None = None
    strategy: str | None = None
    chunk_settings: dict[str, Any] = field(default_factory=dict)
    points: int | None = None
    collection_updated: str | None = None
    mode: str | None = None
    query_embedder: str | None = None
    groups: list[str] | None = None
    retrieve_options: dict[str, Any] = field(default_factory=dict)
    question_set: str | None = None
    unknown_sources: list[str] = field(default_factory=list)
    gate_note: str | None = None
    llm: bool = False
    date: str | None = None
    seconds: float | None = None
    failed_questions: list[FailedQuestion] = field(default_factory=list)
    stopped: str | None = None
    saved_gate: SavedGate | None = None
    saved_threshold: float | None = None
    path: str | None = None

    @property
    def gate_figures(self) -> GateFigures | None:
        return self.gate

    @property
    def complete(self) -> bool:
        """Every question scored: nothing failed, nothing stopped the run."""
        return not self.stopped and not self.failed_questions

    @property
    def word_checks(self) -> bool:
        """The run has the gate's word statistics: its coverage and names rule decide with the cosine."""
        return self.gate is not None and self.gate.terms


@dataclass
class Results(_Record):
    """A whole results.json: `{"summary": ..., "questions": [...]}`."""

    summary: Summary = field(default_factory=Summary)
    questions: list[QuestionRow] = field(default_factory=list)

    @property
    def typed_summary(self) -> Summary:
        return self.summary

    @property
    def rows(self) -> list[QuestionRow]:
        return self.questions

    @property
    def asked(self) -> list[QuestionRow]:
        """The questions the gate let through to the chat model."""
        return [r for r in self.questions if not r.refused]


def rows_of(rows: Any) -> list[QuestionRow]:
    """Rows as QuestionRow, whether read already or still the dicts of a file."""
    return [QuestionRow.of(r) for r in rows or []]


# -- two runs side by side (comparison.json) -------------------------------------------------


@dataclass
class RunSide(_Record):
    """What a comparison says of each run (`a`, `b`)."""

    collection: str | None = None
    date: str | None = None
    model: str | None = None
    strategy: str | None = None
    chunk_settings: dict[str, Any] | None = None
    mode: str | None = None
    k: int | None = None
    llm: bool | None = None
    path: str | None = None


@dataclass
class MetricDelta(_Record):
    """One measure of a comparison (`metrics[key]`): A, B and B - A."""

    a: Any = None
    b: Any = None
    delta: float | None = None


@dataclass
class Found(_Record):
    """Who finds the expected article (`found`)."""

    a_only: list[str] = field(default_factory=list)
    b_only: list[str] = field(default_factory=list)
    both: list[str] = field(default_factory=list)
    neither: list[str] = field(default_factory=list)


@dataclass
class RankChange(_Record):
    """A question whose article moved (`rank_changes[i]`)."""

    id: str = ""
    question: str | None = None
    rank_a: int | None = None
    rank_b: int | None = None

    @property
    def better(self) -> bool:
        """Found sooner in B (or lost in A and found in B)."""
        return self.rank_a is None or (self.rank_b is not None and self.rank_b < self.rank_a)


@dataclass
class Comparison(_Record):
    """comparison.json: run A against run B."""

    a: RunSide = field(default_factory=RunSide)
    b: RunSide = field(default_factory=RunSide)
    same_question_set: bool = False
    common_questions: int = 0
    only_in_a: list[str] = field(default_factory=list)
    only_in_b: list[str] = field(default_factory=list)
    metrics: dict[str, MetricDelta] = field(default_factory=dict)
    found: Found = field(default_factory=Found)
    rank_changes: list[RankChange] = field(default_factory=list)

    def delta(self, metric: str) -> float | None:
        d = self.metrics.get(metric)
        return d.delta if d is not None else None

    def metric(self, key: str) -> MetricDelta:
        """One measure's A, B and delta; all None when neither run has it."""
        return self.metrics.get(key) or MetricDelta()


RECORDS = (Retrieved, QuestionRow, Counts, ThresholdShares, CosineCalibration, GateShares, GateSettings,
           GateCalibration, CosineOnly, GateFigures, CategoryFigures, FailedQuestion, SavedGate, Summary, Results,
           RunSide, MetricDelta, Found, RankChange, Comparison)

__all__ = ["RECORDS", "CategoryFigures", "Comparison", "CosineCalibration", "CosineOnly", "Counts", "FailedQuestion",
           "Found", "GateCalibration", "GateFigures", "GateSettings", "GateShares", "MetricDelta", "QuestionRow",
           "RankChange", "Results", "Retrieved", "RunSide", "SavedGate", "Summary", "ThresholdShares", "rows_of"]
