"""Why a question was refused, as data: the one record the Ask page, a reopened conversation, the
journal and `rag ask --json` read, so each says the same reason, in the reader's current language.

A refusal is a dict (JSON as it is): `kind` is one of WORDS (the question's subject is in no
article: `words`, the rarest first), EVERYDAY (only everyday words are missing), SCORE (no passage
close enough: `best` against `threshold`, and where the threshold comes from, `source`, when the
gate's word checks did not decide), NO_PASSAGE (nothing retrieved) or MODEL (the chat model read
the passages and found no answer). The sentences are the catalogue's; `text` says one.
"""

from __future__ import annotations

from typing import Any, Mapping

from rag.answer.threshold import source_words
from rag.i18n import language as in_language, t
from rag.i18n.numbers import decimal, score_text

WORDS, EVERYDAY, SCORE, NO_PASSAGE, MODEL = "words", "everyday_words", "score", "no_passage", "model"
KINDS = (WORDS, EVERYDAY, SCORE, NO_PASSAGE, MODEL)


def _score(best: float | None, threshold: float | None, source: str | None = None) -> dict[str, Any]:
    if best is None:
        return {"kind": NO_PASSAGE}
    out: dict[str, Any] = {"kind": SCORE, "best": round(float(best), 4),
                           "threshold": None if threshold is None else round(float(threshold), 4)}
    if source:
        out["source"] = source
    return out


def from_decision(decision: Any) -> dict[str, Any]:
    """The refusal (or the doubt) of a gate's Decision (rag.answer.gate): the rare words no article
    the reader may see holds, the heaviest first; else, when only everyday words are missing while
    the passages are close, that; else (or with words not compared) the passages' closeness."""
    s = decision.signals
    if decision.reason == "no_passage" or s.cosine is None:
        return {"kind": NO_PASSAGE}
    if s.named:
        return {"kind": WORDS, "words": s.named}
    if s.missing and not s.other_language and s.cosine >= decision.params.min_cosine:
        return {"kind": EVERYDAY}
    return _score(s.cosine, decision.params.min_cosine)


def from_score(best: float | None, threshold: float | None, source: str | None = None) -> dict[str, Any]:
    """The refusal by the threshold alone: the best passage's score under it (or no passage)."""
    return _score(best, threshold, source)


def by_model() -> dict[str, Any]:
    return {"kind": MODEL}


def valid(refusal: Any) -> bool:
    return isinstance(refusal, Mapping) and refusal.get("kind") in KINDS


def text(refusal: Mapping[str, Any], language: str | None = None) -> str:
    """The short reason (no final full stop), in `language` (the current one by default): what
    `rag ask`, the journal's exports and `(refused: …)` say."""
    if language:
        with in_language(language):
            return _text(refusal)
    return _text(refusal)


def _text(refusal: Mapping[str, Any]) -> str:
    kind = refusal.get("kind")
    if kind == WORDS:
        return t("gate.unknown_names", words=", ".join(refusal.get("words") or []))
    if kind == EVERYDAY:
        return t("gate.everyday_words")
    if kind == SCORE:
        best, threshold = score_text(refusal.get("best") or 0.0), decimal(refusal.get("threshold") or 0.0, 3)
        if refusal.get("source"):
            return t("answer.below", best=best, threshold=threshold, source=source_words(refusal["source"]))
        if (refusal.get("best") or 0.0) >= (refusal.get("threshold") or 0.0):  # close, yet no clear answer
            return t("gate.not_clear", best=best, threshold=threshold)
        return t("gate.low_cosine", best=best, threshold=threshold)
    if kind == MODEL:
        return t("answer.model_refused")
    return t("gate.no_passage")
