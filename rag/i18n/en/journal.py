"""The question journal: its errors and the `rag journal` command."""

TEXT: dict[str, str] = {
    # rag/journal/store.py
    "journal.unreadable": (
        "the journal {path} cannot be read with your permissions: run the command as the owner of "
        "the data folder (RAG_DATA_DIR) or ask them for access"
    ),
    "journal.missing": "no journal in {path}: no question has been asked with this data folder yet",
    "journal.cannot_open": "the journal {path} cannot be opened ({error}); try again in a moment",
    "journal.no_entry": "no entry {id} in the journal (it may have been deleted)",
}
