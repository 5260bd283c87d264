"""The journal: one record of the questions readers ask, the answers, their conversations and votes.

A SQLite file, `RAG_DATA_DIR/journal/journal.sqlite3` (folder 0700, file 0600, WAL, a short busy
timeout), that the dashboard and the command line read and write at once. Secrets (API keys,
passwords, credentials in URLs) are masked before anything is written, as in `logs/answers.jsonl`.

    from rag.journal.records import Entry
    from rag.journal.store import Journal

    journal = Journal.open(settings.data_dir)              # creates it when absent
    entry = journal.record(Entry(question="Qu'est-ce que Kerberos ?", outcome="answered",
                                 collection="blog", reader=account_id, origin="ask",
                                 answer="…", passages=[{"n": 1, "title": "…", "url": "…",
                                                        "doc_id": "…", "score": 0.83, "text": "…"}]))
    journal.feedback(entry.id, account_id, -1, "hors sujet")   # +1 / -1; a new vote replaces the old
    journal.entries(outcome="refused_gate", collection="blog", since=monday, text="kerberos")
    journal.delete_entry(entry.id)
    journal.purge(days=90)                                 # retention (RAG_JOURNAL_DAYS)

Conversations: give entries the same `conversation_id` (from `start_conversation`, or any new id:
the first `record` creates the conversation); `turn` counts up by itself.

    conversation = journal.start_conversation(reader=account_id, collection="blog")
    journal.record(Entry(..., conversation_id=conversation.id))
    journal.conversations(account_id)       # most recent first
    journal.turns(conversation.id)          # first turn first, each with its feedback
    journal.delete_conversation(conversation.id)

`reader` is the signed-in account's id ("" for the command line or a dashboard without sign-in);
`outcome` is the answer's outcome (`answered`, `refused_gate`, `refused_model`, `passages_only`,
`failed`); times are UTC ISO-8601 strings. Errors a user should see are `rag.journal.store.JournalError`.

Modules: `records` (the dataclasses `Entry`, `Feedback`, `Conversation`), `store` (`Journal`).
"""
