"""The journal's tables, and how a row becomes a record (rag.journal.records) and back."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Sequence

from rag.journal.records import Conversation, Entry

SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations(
    id TEXT PRIMARY KEY, reader TEXT, collection TEXT, title TEXT, created TEXT, updated TEXT);
CREATE TABLE IF NOT EXISTS entries(
    id TEXT PRIMARY KEY, time TEXT, reader TEXT, conversation_id TEXT, turn INTEGER,
    collection TEXT, question TEXT, standalone_question TEXT, language TEXT, outcome TEXT,
    verdict TEXT, refusal_reason TEXT, unknown_terms TEXT, passages TEXT,
    answer TEXT, citations TEXT, model TEXT, threshold REAL, origin TEXT);
CREATE TABLE IF NOT EXISTS feedback(
    entry_id TEXT, reader TEXT, time TEXT, rating INTEGER, comment TEXT,
    PRIMARY KEY(entry_id, reader));
CREATE TABLE IF NOT EXISTS rechecks(
    entry_id TEXT PRIMARY KEY, time TEXT, answerable INTEGER, titles TEXT);
CREATE TABLE IF NOT EXISTS group_rechecks(
    entry_id TEXT, groups TEXT, time TEXT, answerable INTEGER, titles TEXT, PRIMARY KEY(entry_id, groups));
CREATE INDEX IF NOT EXISTS entries_time ON entries(time);
CREATE INDEX IF NOT EXISTS entries_conversation ON entries(conversation_id, turn);
CREATE INDEX IF NOT EXISTS conversations_reader ON conversations(reader, updated);
"""

ENTRY_COLUMNS = ("id", "time", "reader", "conversation_id", "turn", "collection", "question",
                  "standalone_question", "language", "outcome", "verdict", "refusal_reason",
                  "unknown_terms", "passages", "answer", "citations", "model", "threshold", "origin")
JSON_COLUMNS = ("unknown_terms", "passages", "citations")
# Columns added after the first version: (name, type, JSON?); a journal written before them gets
# them on opening, its rows read with their defaults.
ADDED_COLUMNS = (("refusal", "TEXT", True), ("checks", "TEXT", True), ("small_talk", "TEXT", False))
ENTRY_COLUMNS += tuple(name for name, _, _ in ADDED_COLUMNS)
JSON_OBJECTS = tuple(name for name, _, is_json in ADDED_COLUMNS if is_json)


def groups_key(groups: Sequence[str]) -> str:
    return json.dumps(sorted(set(groups)), ensure_ascii=False)


def entry_of(row: sqlite3.Row) -> Entry:
    values: dict[str, Any] = {name: row[name] for name in ENTRY_COLUMNS}
    for name in JSON_COLUMNS:
        try:
            values[name] = json.loads(values[name] or "[]")
        except ValueError:
            values[name] = []
    for name in JSON_OBJECTS:
        try:
            found = json.loads(values[name] or "{}")
        except ValueError:
            found = {}
        values[name] = found if isinstance(found, dict) else {}
    for name in ("small_talk", "reader", "collection", "question", "standalone_question", "language", "outcome",
                 "verdict", "refusal_reason", "answer", "model", "origin"):
        values[name] = values[name] or ""
    return Entry(**values)


def conversation_of(row: sqlite3.Row) -> Conversation:
    return Conversation(row["id"], row["reader"] or "", row["collection"] or "", row["title"] or "",
                        row["created"] or "", row["updated"] or "")


def insert_conversation(db: sqlite3.Connection, c: Conversation) -> None:
    db.execute("INSERT INTO conversations(id, reader, collection, title, created, updated) VALUES(?, ?, ?, ?, ?, ?)",
               (c.id, c.reader, c.collection, c.title, c.created, c.updated))
