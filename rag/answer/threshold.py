"""Which score threshold applies to a question, and why.

Order: an explicit setting (RAG_THRESHOLD, --threshold, the sidebar) > the collection's calibrated
value (`rag eval` suggests one) > a default for the embedding model. The threshold is compared with
the dense cosine score: RRF scores are ranks, not similarities.
"""

from __future__ import annotations

from typing import Any

from rag.i18n import t

# Cosine scores are not comparable across models: each family has its own range.
# multilingual-e5 compresses scores high. Measured on docs-fr with the embedded model: best
# passage 0.88-0.91 for questions the pages answer, 0.73-0.80 for unrelated ones, but 0.84-0.86
# for technical questions the pages do not answer; those are left to the prompt's refusal rule
# and to calibration rather than risk refusing answerable questions.
MODEL_DEFAULTS: list[tuple[str, float]] = [
    ("e5", 0.83),
    ("qwen3-embedding", 0.45),
    ("nomic-embed", 0.55),
]
UNKNOWN_MODEL_DEFAULT = 0.5

SETTING, COLLECTION, MODEL_DEFAULT = "setting", "collection", "model default"
# Where the threshold came from, as a refusal and `rag ask`'s passages name it (catalogue keys).
SOURCE_KEYS = {SETTING: "threshold.setting", COLLECTION: "threshold.collection", MODEL_DEFAULT: "threshold.model_default"}


def source_words(source: str) -> str:
    """Where the threshold came from, in the current language; a source without words as it is."""
    return t(SOURCE_KEYS[source]) if source in SOURCE_KEYS else source


def default_threshold(model_id: str | None) -> float:
    name = (model_id or "").lower()
    for key, value in MODEL_DEFAULTS:
        if key in name:
            return value
    return UNKNOWN_MODEL_DEFAULT


def resolve_threshold(
    explicit: float | None,
    collection_info: dict[str, Any] | None,
    model_id: str | None,
) -> tuple[float, str]:
    """(threshold, where it came from: "setting" | "collection" | "model default")."""
    if explicit is not None:
        return float(explicit), SETTING
    calibrated = (collection_info or {}).get("threshold")
    if calibrated is not None:
        return float(calibrated), COLLECTION
    model = model_id or (collection_info or {}).get("embedding_model")
    return default_threshold(model), MODEL_DEFAULT
