"""The question journal: its errors and the `rag journal` command."""

TEXT: dict[str, str] = {
    # rag/config.py: RAG_JOURNAL_NAMES
    "config.not_flag": "{name}={value} is neither yes nor no: write 1 or 0 (true/false)",
    # rag/journal/store.py
    "journal.unreadable": (
        "the journal {path} cannot be read with your permissions: run the command as the owner of "
        "the data folder (RAG_DATA_DIR) or ask them for access"
    ),
    "journal.missing": "no journal in {path}: no question has been asked with this data folder yet",
    "journal.cannot_open": "the journal {path} cannot be opened ({error}); try again in a moment",
    "journal.no_entry": "no entry {id} in the journal (it may have been deleted)",
    # rag/cli/journal.py
    "help.journal": "the questions readers asked, or the subjects no article covers",
    "help.journal.description": (
        "The question journal (RAG_DATA_DIR/journal): newest first, with their outcome, the passages' "
        "articles and the votes; `subjects` groups the refused questions into subjects to write about, "
        "ranked by number of readers. Entries older than RAG_JOURNAL_DAYS are deleted first."
    ),
    "help.journal.view": "list (default): the questions; subjects: the subjects with no article",
    "help.journal.outcome": "only this outcome (refused: both refusals)",
    "help.journal.collection": "only this collection",
    "help.journal.days": "only the last N days",
    "help.journal.search": "only the questions or answers holding these words",
    "help.journal.limit": "at most N lines (default: 50)",
    "help.journal.json": "print the result as JSON only",
    "journal.empty": "No question in the journal for these filters.",
    "journal.count_one": "{n} question (the {shown} newest):",
    "journal.count_other": "{n} questions (the {shown} newest):",
    "journal.why": "why: {reason}",
    "journal.articles": "articles: {titles}",
    "journal.votes": "votes: {up} up, {down} down",
    "journal.no_subjects": "No refused question in the journal for these filters.",
    "journal.readers_one": "{n} reader",
    "journal.readers_other": "{n} readers",
    "journal.questions_one": "{n} question",
    "journal.questions_other": "{n} questions",
    "journal.answered_now": "an article indexed since now answers {n} of these questions: {titles}",
    "journal.reader_n": "reader {n}",
    "journal.no_account": "no account",
    "journal.outcome.answered": "answered",
    "journal.outcome.refused_gate": "refused by the gate",
    "journal.outcome.refused_model": "refused by the model",
    "journal.outcome.passages_only": "passages only",
    "journal.outcome.failed": "failed",
    # rag/evaluate/question_sets.py
    "qsets.bad_name": "{name} is not a question set name: letters, digits, spaces, - . _ (64 at most)",
    "qsets.no_set": "no question set {name} ({path})",
    "qsets.already": "this question is already in the set {name} (id {id})",
}
