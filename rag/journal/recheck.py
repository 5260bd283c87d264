"""After an ingest: do the refused questions of the journal find an answer in the collection now?

Each refused question (of this collection, newest first) goes through retrieval and the gate again,
without the chat model; the journal keeps the verdict, and the Journal page says which subjects a
new article now answers.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from rag.errors import RagError
from rag.journal.store import Journal
from rag.redact import known_secrets

log = logging.getLogger(__name__)

MAX_RECHECKED = 200  # the newest distinct refused questions: a few seconds with the bundled model


def recheck_refused(settings: Any, store: Any, collection: str, embedder: Any = None,
                    limit: int = MAX_RECHECKED, groups: Sequence[str] | None = None) -> int:
    """Re-check the refused questions of `collection` against the gate, seeing only the documents
    of `groups` (None: all); the number now answerable. Never raises: an ingest that worked is not
    turned into a failure by its journal."""
    from rag.answer.engine import AnswerEngine

    try:
        journal = Journal.open(settings.data_dir, secrets=known_secrets(settings))
        refused = journal.entries(outcome=("refused_gate", "refused_model"), collection=collection)
        if not refused:
            return 0
        # The answer path itself, without the chat model and without recording: an editor's check.
        engine = AnswerEngine(settings, store, collection=collection, embedder=embedder, with_llm=False,
                              origin="recheck", recorders=[], groups=groups)
        verdicts: dict[str, tuple[bool, list[str]]] = {}
        answerable = 0
        for entry in refused:
            question = entry.standalone_question or entry.question
            if question not in verdicts:
                if len(verdicts) >= limit:
                    break
                passages = engine.retrieve(question)
                decision = engine.gate(question, passages)
                # Answered now means a clear verdict: "unsure" would still be a doubtful answer.
                answers = decision.verdict == "answer"
                floor = decision.params.min_cosine
                titles = list(dict.fromkeys(p.title for p in passages if p.score >= floor)) if answers else []
                verdicts[question] = (answers, titles)
            ok, titles = verdicts[question]
            journal.record_recheck(entry.id, ok, titles, groups=groups)
            answerable += ok
        return answerable
    except (RagError, OSError) as exc:
        log.warning("could not re-check the journal's refused questions: %s", exc)
        return 0


def recheck_for(settings: Any, store: Any, journal: Journal,
                groups: Sequence[str] | None) -> dict[str, tuple[bool, list[str]]]:
    """The re-checks an editor of `groups` may read: made with their groups, again when an ingest
    re-checked the journal since (over every document, whose verdicts and titles are not theirs)."""
    if groups is not None and journal.last_recheck(None) > journal.last_recheck(groups):
        for collection in journal.collections():
            recheck_refused(settings, store, collection, groups=groups)
    return journal.rechecks(groups)
