"""results.json as types: a question's row, the summary, the gate's figures, a comparison.

Each type reads and writes exactly the keys results.json has always had (docs/contracts.md):
`Summary.from_dict(data).to_dict() == data`, whatever the file holds. The fields named here are
the ones code reads; any other key is kept in `extra`, in its place, so that an older or newer
file loses nothing. A new measure is one field here plus its use.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Mapping, TypeVar

T = TypeVar("T", bound="_Record")


@dataclass
class _Record:
    extra: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
        names = [f.name for f in fields(cls) if f.name != "extra"]
        known = {name: data[name] for name in names if name in data}
        record = cls(**known)
        # Every key in its order, the known ones included: to_dict writes the file back as it was.
        record.extra = {key: value for key, value in data.items()}
        record._absent = {name for name in names if name not in data}
        return record

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.extra)
        absent = getattr(self, "_absent", set())
        for f in fields(self):
            if f.name == "extra" or (f.name in absent and getattr(self, f.name) == _default(f)):
                continue
            out[f.name] = getattr(self, f.name)
        return out


def _default(f: Any) -> Any:
    return f.default_factory() if f.default_factory is not MISSING else f.default


@dataclass
class QuestionRow(_Record):
    """One question of the run (the keys of `questions[i]`)."""

    id: str = ""
    question: str = ""
    in_base: bool = False
    expected_source: str | None = None
    rank: int | None = None
    top1_score: float | None = None
    refused: bool = False
    refusal_reason: str | None = None
    outcome: str | None = None
    coverage: float | None = None
    answer: str | None = None
    llm_error: str | None = None


@dataclass
class GateFigures(_Record):
    """The answerability gate's figures (`summary["gate"]`)."""

    params: dict[str, Any] = field(default_factory=dict)
    terms: bool = False
    in_base_answered: float | None = None
    off_topic_refused: float | None = None
    at_current: dict[str, Any] = field(default_factory=dict)
    calibration: dict[str, Any] = field(default_factory=dict)
    cosine_only: dict[str, Any] = field(default_factory=dict)

    @property
    def suggested(self) -> dict[str, Any] | None:
        """The suggested settings (`min_cosine`, `min_coverage`, ...), None without a suggestion."""
        return (self.calibration or {}).get("suggested") or None


@dataclass
class Summary(_Record):
    """The run's summary (`summary`)."""

    collection: str | None = None
    questions: int = 0
    k: int = 0
    threshold: float | None = None
    suggested_threshold: float | None = None
    hit_at_1: float | None = None
    mrr: float | None = None
    in_base_accepted: float | None = None
    out_of_base_refused: float | None = None
    llm: bool = False
    stopped: str | None = None
    failed_questions: list[dict[str, Any]] = field(default_factory=list)
    calibration: dict[str, Any] = field(default_factory=dict)
    gate: dict[str, Any] | None = None

    @property
    def gate_figures(self) -> GateFigures | None:
        return GateFigures.from_dict(self.gate) if isinstance(self.gate, Mapping) else None

    @property
    def complete(self) -> bool:
        """Every question scored: nothing failed, nothing stopped the run."""
        return not self.stopped and not self.failed_questions


@dataclass
class Results(_Record):
    """A whole results.json: `{"summary": ..., "questions": [...]}`."""

    summary: dict[str, Any] = field(default_factory=dict)
    questions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def typed_summary(self) -> Summary:
        return Summary.from_dict(self.summary)

    @property
    def rows(self) -> list[QuestionRow]:
        return [QuestionRow.from_dict(r) for r in self.questions]


@dataclass
class Comparison(_Record):
    """comparison.json: run A against run B."""

    a: dict[str, Any] = field(default_factory=dict)
    b: dict[str, Any] = field(default_factory=dict)
    same_question_set: bool = False
    common_questions: int = 0
    metrics: dict[str, Any] = field(default_factory=dict)
    found: dict[str, list[str]] = field(default_factory=dict)
    rank_changes: list[dict[str, Any]] = field(default_factory=list)

    def delta(self, metric: str) -> float | None:
        return (self.metrics.get(metric) or {}).get("delta")


__all__ = ["Comparison", "GateFigures", "QuestionRow", "Results", "Summary"]
