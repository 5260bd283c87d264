"""What the journal keeps of an answer (rag.journal): one Entry per question asked, from its result.

The answer engine hands every finished answer to its recorders; `journal_recorder` is the one
`rag ask` and the Ask page use. Evaluation runs are not recorded: they are not readers' questions.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger(__name__)


def entry_from(result: Any, origin: str, reader: str = "", conversation_id: str | None = None) -> Any:
    """The journal entry of one answer (rag.answer.pipeline.AskResult)."""
    from rag.journal.records import Entry

    gate = result.gate or {}
    signals = gate.get("signals") or {}
    passages = [{"n": p.n, "title": p.title, "section": p.section, "url": p.url,
                 "doc_id": getattr(p, "doc_id", None) or p.url, "score": p.score, "text": p.text}
                for p in result.passages]
    return Entry(
        question=result.question, outcome=result.outcome, collection=result.collection or "", reader=reader,
        origin=origin if origin in ("ask", "cli") else "cli", answer=result.raw_answer or result.answer or "",
        verdict=gate.get("verdict") or ("" if not gate else "answer" if gate.get("answer") else "refuse"),
        refusal_reason=result.refusal_reason or "", unknown_terms=list(signals.get("missing") or []),
        passages=passages, citations=list(result.cited), model=result.model or "", threshold=result.threshold,
        language=result.language or "", conversation_id=conversation_id,
    )


def journal_recorder(data_dir: Path | str, reader: str = "",
                     conversation_id: str | None = None) -> Callable[[Any, str], None]:
    """A recorder (rag.answer.engine.Recorder) that writes each answer to the data folder's journal."""

    def record(result: Any, origin: str) -> None:
        from rag.journal.store import Journal

        Journal.open(data_dir).record(entry_from(result, origin, reader, conversation_id))

    return record
