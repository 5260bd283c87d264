"""The answer engine's recorder that writes each answer to the journal (rag.journal.answers).

The answer engine hands every finished answer to its recorders; `rag ask` and the Ask page give it
this one. Evaluation runs are not recorded: they are not readers' questions.
"""

from __future__ import annotations

from typing import Any, Callable


def journal_recorder(settings: Any, reader: str = "",
                     conversation_id: str | None = None) -> Callable[[Any, str], None]:
    """A recorder (rag.answer.engine.Recorder) that writes each answer to the data folder's journal
    (secrets redacted) and keeps the entry's id on the result, for the reader's vote."""

    def record(result: Any, origin: str) -> None:
        from rag.journal.answers import record_answer

        entry = record_answer(settings, result, origin=origin, reader=reader, conversation_id=conversation_id)
        if entry is not None:
            result.journal_id = entry.id

    return record
