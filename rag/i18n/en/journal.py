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
}
