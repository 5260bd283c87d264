"""Recording a run's suggested floor on its collection: what `rag eval --save-threshold` and the
demo's calibration do."""

from __future__ import annotations

from typing import Any

from rag.evaluate.results import Summary


def save_suggestion(store: Any, collection: str, summary: Summary,
                    question_set: str | None) -> tuple[dict[str, Any] | None, float | None]:
    """Record the run's suggested floor on `collection`: with the word checks it was counted with
    (the gate's record, rag.answer.gate.save_calibration) when the run read the question's words;
    else the floor alone, which replaces any earlier record, so that the checks are never recorded
    as off for the collection (RAG_MIN_COVERAGE=0 is a setting, not a calibration). Returns (the
    gate's record or None, the floor saved or None when the run suggests none)."""
    from rag.answer.gate import save_calibration

    gate = summary.gate
    if gate is not None and gate.words_checked and gate.suggested:
        record = save_calibration(store, collection, gate.suggested.to_dict(), question_set)
        return record, float(record["min_cosine"])
    if summary.suggested_threshold is not None:
        store.set_threshold(collection, summary.suggested_threshold)
        return None, float(summary.suggested_threshold)
    return None, None
