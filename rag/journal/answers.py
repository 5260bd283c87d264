"""Turning an answer into a journal entry: the one place the Ask page and `rag ask` record from.

Evaluation runs do not come through here (they replay a question set, they are not readers).
"""

from __future__ import annotations

import logging
from typing import Any

from rag.answer import refusal as refusals
from rag.errors import RagError
from rag.journal.records import Entry
from rag.journal.store import Journal
from rag.redact import known_secrets

log = logging.getLogger(__name__)


def outcome_of(result: Any) -> str:
    """The answer's outcome (contract: answered, refused_gate, refused_model, passages_only, failed).

    A result that carries `outcome` is taken at its word; otherwise it is read from the fields:
    a refusal after passages went to the model is the model's, before it the gate's; an error
    once the model was sent passages is a failed call, an error before (no chat model) or no
    model asked (`--no-llm`) leaves the passages only.
    """
    given = getattr(result, "outcome", None)
    if given:
        return str(given)
    sent = bool(getattr(result, "sent_passages", None))
    if result.refused:
        return "refused_model" if sent else "refused_gate"
    if getattr(result, "llm_error", None):
        return "failed" if sent else "passages_only"
    if result.answer is None:
        return "passages_only"
    return "answered"


def _verdict(gate: dict[str, Any] | None) -> str:
    if not gate:
        return ""
    if gate.get("verdict"):
        return str(gate["verdict"])
    return "answer" if gate.get("answer") else "refuse"


def unknown_terms(gate: dict[str, Any] | None) -> list[str]:
    """The words of a gate's signals (`rag ask --json`'s `gate`) that say what no article covers:
    the rare words no chunk the reader may see holds, the heaviest first (`subject_words`, what a
    refusal names: never an everyday word, rag.answer.gate). Signals of older gates without the
    key give their unknown names. None when the question and the passages are in two languages:
    its words were not compared with the articles'."""
    signals = (gate or {}).get("signals") or {}
    if "subject_words" in signals:
        from rag.answer.gate_signals import Signals

        return Signals.of(signals).named
    return list(dict.fromkeys([*(signals.get("unknown_subject") or []), *(signals.get("unknown_names") or [])]))


def entry_from_result(result: Any, *, origin: str, reader: str = "", collection: str | None = None,
                      conversation_id: str | None = None, standalone_question: str = "") -> Entry:
    """The journal entry of an answer result (AskResult or the engine's)."""
    if getattr(result, "small_talk", None):
        return small_talk_entry(result.question, result.small_talk, reader=reader, origin=origin,
                                collection=collection or result.collection or "", conversation_id=conversation_id,
                                language=result.language or "")
    passages = [{"n": p.n, "title": p.title, "section": p.section, "url": p.url,
                 "doc_id": getattr(p, "doc_id", None) or p.url,
                 "score": None if p.score is None else round(float(p.score), 4), "text": p.text,
                 # Who may read it: an editor bounded by groups sees the answer only when they may.
                 "access": list(getattr(p, "access", None) or [])}
                for p in result.passages]
    refused = outcome_of(result) in ("refused_gate", "refused_model")
    why = getattr(result, "refusal", None)
    return Entry(
        question=result.question, outcome=outcome_of(result), collection=collection or result.collection or "",
        reader=reader, origin=origin, answer=(result.raw_answer or result.answer or ""),
        verdict=_verdict(result.gate), refusal_reason=(result.refusal_reason or "") if refused else "",
        unknown_terms=unknown_terms(result.gate), passages=passages, citations=list(result.cited),
        model=result.model or "", threshold=result.threshold, language=result.language or "",
        standalone_question=standalone_question or getattr(result, "standalone_question", "") or "",
        conversation_id=conversation_id,
        refusal=dict(why) if refused and refusals.valid(why) else {}, checks=checks_of(result),
    )


def checks_of(result: Any) -> dict[str, Any]:
    """What the reader was told about trusting the answer, to tell it again on a reopened
    conversation: which passages the model read (a citation of another one is no source), which
    citations matched none, no citation at all, web addresses the model wrote, passages left out."""
    inputs = getattr(result, "gate_inputs", None)
    understood = getattr(result, "understood", None)
    return {
        **({"gate_inputs": list(inputs)} if inputs is not None else {}),
        **({"understood": dict(understood)} if understood else {}),
        "sent_passages": [int(n) for n in getattr(result, "sent_passages", None) or []],
        "accepted": [int(n) for n in getattr(result, "accepted", None) or []],
        "invalid_citations": [int(n) for n in getattr(result, "invalid_citations", None) or []],
        "uncited": bool(getattr(result, "uncited", False)),
        "answer_urls": [str(u) for u in getattr(result, "answer_urls", None) or []],
        "dropped_passages": [int(n) for n in getattr(result, "dropped_passages", None) or []],
        "warnings": [str(w) for w in getattr(result, "warnings", None) or []],
        "notes": [str(n) for n in getattr(result, "notes", None) or []],
    }


def small_talk_entry(message: str, kind: str, *, reader: str = "", origin: str = "ask", collection: str = "",
                     conversation_id: str | None = None, language: str = "") -> Entry:
    """A greeting, a thanks or a goodbye in a conversation (rag.answer.small_talk): kept so that
    the conversation reopens as it was, and left out of the editors' lists (`Journal.entries`)."""
    return Entry(question=message, outcome="answered", collection=collection, reader=reader, origin=origin,
                 language=language, conversation_id=conversation_id, small_talk=kind)


def reason_text(entry: Entry, language: str | None = None) -> str:
    """Why the entry was refused, in `language` (the current one by default): its recorded
    refusal said anew, or, for an entry written before refusals were recorded as data, its
    sentence as it was written."""
    if refusals.valid(entry.refusal):
        return refusals.text(entry.refusal, language)
    return entry.refusal_reason


def record_answer(settings: Any, result: Any, *, origin: str, reader: str = "",
                  conversation_id: str | None = None, standalone_question: str = "") -> Entry | None:
    """Write the answer to the journal of `settings.data_dir`; None (and a warning in the log) when
    the journal cannot be written: losing a journal line must not lose the answer."""
    try:
        journal = Journal.open(settings.data_dir, secrets=known_secrets(settings))
        return journal.record(entry_from_result(result, origin=origin, reader=reader,
                                                conversation_id=conversation_id,
                                                standalone_question=standalone_question))
    except (RagError, OSError) as exc:
        log.warning("could not write the journal in %s: %s", settings.data_dir, exc)
        return None
