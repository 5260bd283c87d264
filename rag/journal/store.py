"""The journal's SQLite file: one connection per call, WAL, a short busy timeout, owner-only modes."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import time
import uuid
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from rag.auth import owner_only
from rag.errors import RagError
from rag.i18n import t
from rag.journal.records import Conversation, Entry, Feedback, OUTCOMES
from rag.journal.schema import (
    ADDED_COLUMNS, ENTRY_COLUMNS, JSON_COLUMNS, JSON_OBJECTS, SCHEMA, conversation_of, entry_of, groups_key,
    insert_conversation,
)
from rag.redact import known_secrets, redact
from rag.textnorm import fold

FOLDER = "journal"
FILE = "journal.sqlite3"
SCHEMA_VERSION = 2
# Long enough for the other process's write to finish (they take milliseconds), short enough that a
# stuck writer gives an error rather than a frozen page.
BUSY_TIMEOUT_S = 5.0

def _busy(exc: BaseException | None) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED, extended codes included."""
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class JournalError(RagError):
    """The journal cannot be opened, read or written."""


def now() -> str:
    """The current UTC time as the journal writes it (ISO-8601, seconds)."""
    return iso(datetime.now(UTC))


def iso(moment: datetime | str) -> str:
    """`moment` as the journal's time string; a naive datetime is taken as UTC."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _like(text: str) -> str:
    escaped = fold(text or "").replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class Journal:
    """The record of questions, answers, conversations and feedback under a data folder.

    Each call opens its own short connection, so one `Journal` serves every thread of the
    dashboard, and the dashboard and the command line write the same file at once.
    """

    def __init__(self, path: Path, secrets: Sequence[str] = ()) -> None:
        self.path = Path(path)
        self.secrets = list(secrets)

    # --- opening ------------------------------------------------------------------------------
    @classmethod
    def open(cls, data_dir: Path | str, secrets: Sequence[str] | None = None,
             create: bool = True) -> Journal:
        """The journal of `data_dir` (RAG_DATA_DIR), created with owner-only modes when absent.

        `secrets` are masked in every text written (default: the configured keys and passwords).
        With `create=False` a missing journal raises JournalError instead of being created.
        Raises JournalError when the folder or the file cannot be read (permissions).
        """
        folder = Path(data_dir) / FOLDER
        path = folder / FILE
        try:
            if not create and not path.exists():
                raise JournalError(t("journal.missing", path=str(path)))
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            _owner_only(folder, 0o700)
            # Owner-only before SQLite opens it (it would make the file with the umask's mode); its WAL
            # files copy this mode.
            owner_only.create(path)
            _owner_only(path, 0o600)
            if not os.access(path, os.R_OK | os.W_OK):
                raise PermissionError(path)
        except PermissionError as exc:
            raise JournalError(t("journal.unreadable", path=str(folder))) from exc
        except OSError as exc:
            raise JournalError(t("journal.cannot_open", path=str(path), error=exc.strerror or exc)) from exc
        journal = cls(path, known_secrets() if secrets is None else secrets)
        # Switching to WAL and upgrading a read into a write fail at once, without SQLite's busy
        # wait, while another process sets up the same new file: tried again until the busy timeout.
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                journal._set_up()
                return journal
            except JournalError as exc:
                if not _busy(exc.__cause__) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _set_up(self) -> None:
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
            present = {row["name"] for row in db.execute("PRAGMA table_info(entries)")}
            for name, kind, _ in ADDED_COLUMNS:
                if name not in present:
                    try:
                        db.execute(f"ALTER TABLE entries ADD COLUMN {name} {kind}")
                    except sqlite3.OperationalError as exc:  # another process added it meanwhile
                        if "duplicate column" not in str(exc):
                            raise
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)
        except sqlite3.Error as exc:
            raise JournalError(t("journal.cannot_open", path=str(self.path), error=exc)) from exc
        db.row_factory = sqlite3.Row
        # Case and accents do not matter to a search: "kerberos" finds "Kerbéros".
        db.create_function("fold", 1, lambda text: fold(text or ""), deterministic=True)
        try:
            with db:  # one transaction: committed on success, rolled back on error
                yield db
        except sqlite3.OperationalError as exc:
            raise JournalError(t("journal.cannot_open", path=str(self.path), error=exc)) from exc
        finally:
            db.close()

    def _clean(self, text: str | None) -> str:
        return redact(text or "", self.secrets)

    # --- writing ------------------------------------------------------------------------------
    def record(self, entry: Entry) -> Entry:
        """Write `entry` (secrets masked) and return it with its id, time and turn filled.

        With a `conversation_id` the conversation is created on its first turn (titled by the
        question) and its `updated` time moves on every later one; `turn` defaults to the next one.
        """
        if entry.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {entry.outcome!r}; expected one of {', '.join(OUTCOMES)}")
        entry.id = entry.id or uuid.uuid4().hex
        entry.time = iso(entry.time) if entry.time else now()
        entry.question = self._clean(entry.question)
        entry.standalone_question = self._clean(entry.standalone_question)
        entry.answer = self._clean(entry.answer)
        entry.refusal_reason = self._clean(entry.refusal_reason)
        if entry.checks.get("warnings"):
            entry.checks = {**entry.checks, "warnings": [self._clean(w) for w in entry.checks["warnings"]]}
        entry.passages = [{**p, "text": self._clean(p.get("text"))} if "text" in p else dict(p)
                          for p in entry.passages]
        with self._connect() as db:
            if entry.conversation_id:
                self._touch_conversation(db, entry)
            row = {name: getattr(entry, name) for name in ENTRY_COLUMNS}
            for name in JSON_COLUMNS + JSON_OBJECTS:
                row[name] = json.dumps(row[name], ensure_ascii=False)
            db.execute(f"INSERT INTO entries({', '.join(ENTRY_COLUMNS)}) "
                       f"VALUES({', '.join(':' + c for c in ENTRY_COLUMNS)})", row)
        return entry

    def _touch_conversation(self, db: sqlite3.Connection, entry: Entry) -> None:
        found = db.execute("SELECT id FROM conversations WHERE id=?", (entry.conversation_id,)).fetchone()
        if found is None:
            insert_conversation(db, Conversation(entry.conversation_id, entry.reader, entry.collection,
                                                  entry.question[:120], entry.time, entry.time))
        else:
            db.execute("UPDATE conversations SET updated=? WHERE id=?", (entry.time, entry.conversation_id))
            asked = db.execute("SELECT 1 FROM entries WHERE conversation_id=? AND COALESCE(small_talk, '')=''",
                               (entry.conversation_id,)).fetchone()
            if not entry.small_talk and asked is None:  # "Bonjour" first: the first question names it
                db.execute("UPDATE conversations SET title=? WHERE id=?", (entry.question[:120], entry.conversation_id))
        if entry.turn is None:
            last = db.execute("SELECT MAX(turn) FROM entries WHERE conversation_id=?",
                              (entry.conversation_id,)).fetchone()[0]
            entry.turn = 1 if last is None else int(last) + 1

    def start_conversation(self, reader: str = "", collection: str = "", title: str = "") -> Conversation:
        """A new, empty conversation (its first `record` with its id adds the first turn)."""
        moment = now()
        conversation = Conversation(uuid.uuid4().hex, reader, collection, self._clean(title), moment, moment)
        with self._connect() as db:
            insert_conversation(db, conversation)
        return conversation

    def rename_conversation(self, conversation_id: str, title: str) -> None:
        with self._connect() as db:
            db.execute("UPDATE conversations SET title=? WHERE id=?", (self._clean(title), conversation_id))

    def feedback(self, entry_id: str, reader: str, rating: int, comment: str = "") -> Feedback:
        """Record `reader`'s vote (+1 or -1) on an entry; it replaces that reader's previous vote."""
        if rating not in (1, -1):
            raise ValueError(f"rating must be +1 or -1, not {rating!r}")
        vote = Feedback(entry_id, reader, rating, self._clean(comment), now())
        with self._connect() as db:
            if db.execute("SELECT 1 FROM entries WHERE id=?", (entry_id,)).fetchone() is None:
                raise JournalError(t("journal.no_entry", id=entry_id))
            db.execute("INSERT OR REPLACE INTO feedback(entry_id, reader, time, rating, comment) "
                       "VALUES(?, ?, ?, ?, ?)", (entry_id, reader, vote.time, rating, vote.comment))
        return vote

    def withdraw_feedback(self, entry_id: str, reader: str) -> bool:
        """Remove `reader`'s vote on an entry; True when there was one."""
        with self._connect() as db:
            return db.execute("DELETE FROM feedback WHERE entry_id=? AND reader=?",
                              (entry_id, reader)).rowcount > 0

    # --- reading ------------------------------------------------------------------------------
    def entries(self, *, outcome: str | Iterable[str] | None = None, collection: str | None = None,
                since: datetime | str | None = None, until: datetime | str | None = None,
                text: str | None = None, reader: str | None = None, rating: int | None = None,
                origin: str | None = None, limit: int | None = None, offset: int = 0,
                small_talk: bool = False) -> list[Entry]:
        """The entries, newest first, with their feedback; a conversation's greetings and thanks
        (`small_talk`) only when asked for: nothing was asked in them.

        `outcome`: one outcome or several; `since`/`until`: the period (`until` excluded);
        `text`: words found in the question, the standalone question or the answer (case and
        accents ignored); `rating`: +1 the entries someone liked, -1 those someone disliked.
        """
        where, args = [], []
        if not small_talk:
            where.append("COALESCE(small_talk, '')=''")
        if outcome:
            wanted = [outcome] if isinstance(outcome, str) else list(outcome)
            where.append(f"outcome IN ({', '.join('?' * len(wanted))})")
            args += wanted
        for column, value in (("collection", collection), ("reader", reader), ("origin", origin)):
            if value is not None:
                where.append(f"{column}=?")
                args.append(value)
        if since is not None:
            where.append("time>=?")
            args.append(iso(since))
        if until is not None:
            where.append("time<?")
            args.append(iso(until))
        if text and text.strip():
            for word in text.split():
                where.append("(fold(question) LIKE ? ESCAPE '\\' OR fold(standalone_question) LIKE ? "
                             "ESCAPE '\\' OR fold(answer) LIKE ? ESCAPE '\\')")
                args += [_like(word)] * 3
        if rating in (1, -1):
            where.append("id IN (SELECT entry_id FROM feedback WHERE rating=?)")
            args.append(rating)
        sql = "SELECT * FROM entries" + (" WHERE " + " AND ".join(where) if where else "")
        sql += " ORDER BY time DESC, rowid DESC"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            args += [int(limit), int(offset)]
        with self._connect() as db:
            rows = db.execute(sql, args).fetchall()
            return self._with_feedback(db, [entry_of(row) for row in rows])

    def entry(self, entry_id: str) -> Entry | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM entries WHERE id=?", (entry_id,)).fetchone()
            return self._with_feedback(db, [entry_of(row)])[0] if row else None

    def _with_feedback(self, db: sqlite3.Connection, entries: list[Entry]) -> list[Entry]:
        if not entries:
            return entries
        by_id = {e.id: e for e in entries}
        ids = list(by_id)
        # Chunks keep the statement under SQLite's limit on bound parameters.
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            for row in db.execute(f"SELECT * FROM feedback WHERE entry_id IN ({', '.join('?' * len(chunk))}) "
                                  "ORDER BY time", chunk):
                by_id[row["entry_id"]].feedback.append(
                    Feedback(row["entry_id"], row["reader"], row["rating"], row["comment"] or "", row["time"]))
        return entries

    def collections(self) -> list[str]:
        """The collections questions were asked about."""
        with self._connect() as db:
            return [r[0] for r in db.execute("SELECT DISTINCT collection FROM entries WHERE collection != '' "
                                             "ORDER BY collection").fetchall()]

    def readers(self) -> list[str]:
        """Every reader id of the journal, in the order they first asked (the numbering shown to
        editors when identities are hidden: a new entry never renumbers anyone)."""
        with self._connect() as db:
            rows = db.execute("SELECT reader, MIN(time) AS first FROM entries GROUP BY reader ORDER BY first, reader")
            return [r["reader"] or "" for r in rows.fetchall()]

    def conversations(self, reader: str) -> list[Conversation]:
        """`reader`'s conversations, the most recently continued first."""
        with self._connect() as db:
            rows = db.execute("SELECT * FROM conversations WHERE reader=? ORDER BY updated DESC, rowid DESC",
                              (reader,)).fetchall()
        return [conversation_of(r) for r in rows]

    def conversation_questions(self, reader: str) -> dict[str, list[str]]:
        """The questions asked in each of `reader`'s conversations (for searching them), by id."""
        with self._connect() as db:
            rows = db.execute("SELECT e.conversation_id, e.question FROM entries e JOIN conversations c "
                              "ON c.id=e.conversation_id WHERE c.reader=? ORDER BY e.turn, e.time",
                              (reader,)).fetchall()
        found: dict[str, list[str]] = {}
        for row in rows:
            found.setdefault(row[0], []).append(row[1] or "")
        return found

    def conversation(self, conversation_id: str) -> Conversation | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM conversations WHERE id=?", (conversation_id,)).fetchone()
        return conversation_of(row) if row else None

    def turns(self, conversation_id: str) -> list[Entry]:
        """The entries of a conversation, first turn first."""
        with self._connect() as db:
            rows = db.execute("SELECT * FROM entries WHERE conversation_id=? ORDER BY turn, time, rowid",
                              (conversation_id,)).fetchall()
            return self._with_feedback(db, [entry_of(row) for row in rows])

    # --- re-checks after an ingest -------------------------------------------------------------
    # A re-check made over every document (after an ingest) lives in `rechecks`; one made with an
    # editor's groups lives in `group_rechecks` under those groups, and is the only one they read:
    # a verdict or a title drawn from documents they may not read never reaches them.
    def record_recheck(self, entry_id: str, answerable: bool, titles: Sequence[str] = (),
                       groups: Sequence[str] | None = None) -> None:
        """What the gate says now of a refused entry's question (after an ingest): whether it
        would answer, and from which articles, seeing the documents of `groups` (None: all)."""
        values = (now(), int(answerable), json.dumps(list(titles), ensure_ascii=False))
        with self._connect() as db:
            if groups is None:
                db.execute("INSERT OR REPLACE INTO rechecks(entry_id, time, answerable, titles) VALUES(?, ?, ?, ?)",
                           (entry_id, *values))
            else:
                db.execute("INSERT OR REPLACE INTO group_rechecks(entry_id, groups, time, answerable, titles) "
                           "VALUES(?, ?, ?, ?, ?)", (entry_id, groups_key(groups), *values))

    def rechecks(self, groups: Sequence[str] | None = None) -> dict[str, tuple[bool, list[str]]]:
        """entry id -> (answerable now, the articles that answer it), for the entries re-checked
        seeing the documents of `groups` (None: all documents)."""
        with self._connect() as db:
            if groups is None:
                rows = db.execute("SELECT entry_id, answerable, titles FROM rechecks").fetchall()
            else:
                rows = db.execute("SELECT entry_id, answerable, titles FROM group_rechecks WHERE groups=?",
                                  (groups_key(groups),)).fetchall()
        return {r["entry_id"]: (bool(r["answerable"]), json.loads(r["titles"] or "[]")) for r in rows}

    def last_recheck(self, groups: Sequence[str] | None = None) -> str:
        """When the newest re-check seeing the documents of `groups` (None: all) was made; "" if never."""
        with self._connect() as db:
            if groups is None:
                row = db.execute("SELECT MAX(time) AS t FROM rechecks").fetchone()
            else:
                row = db.execute("SELECT MAX(time) AS t FROM group_rechecks WHERE groups=?",
                                 (groups_key(groups),)).fetchone()
        return row["t"] or ""

    # --- deleting -----------------------------------------------------------------------------
    def delete_entry(self, entry_id: str) -> bool:
        """Delete an entry and its feedback; True when it existed."""
        with self._connect() as db:
            db.execute("DELETE FROM feedback WHERE entry_id=?", (entry_id,))
            db.execute("DELETE FROM rechecks WHERE entry_id=?", (entry_id,))
            db.execute("DELETE FROM group_rechecks WHERE entry_id=?", (entry_id,))
            return db.execute("DELETE FROM entries WHERE id=?", (entry_id,)).rowcount > 0

    def delete_conversation(self, conversation_id: str) -> int:
        """Delete a conversation, its entries and their feedback; the number of entries deleted."""
        with self._connect() as db:
            for table in ("feedback", "rechecks", "group_rechecks"):
                db.execute(f"DELETE FROM {table} WHERE entry_id IN (SELECT id FROM entries WHERE conversation_id=?)",
                           (conversation_id,))
            count = db.execute("DELETE FROM entries WHERE conversation_id=?", (conversation_id,)).rowcount
            db.execute("DELETE FROM conversations WHERE id=?", (conversation_id,))
        return count

    def hand_over(self, from_reader: str, to_reader: str) -> int:
        """Give `from_reader`'s conversations (their turns and votes too) to `to_reader`: an editor
        carrying over what was asked before sign-in was required (`from_reader` ""). The number of
        conversations handed over."""
        with self._connect() as db:
            mine = "SELECT id FROM conversations WHERE reader=?"
            db.execute(f"UPDATE OR REPLACE feedback SET reader=? WHERE reader=? AND entry_id IN "
                       f"(SELECT id FROM entries WHERE conversation_id IN ({mine}))", (to_reader, from_reader, from_reader))
            db.execute(f"UPDATE entries SET reader=? WHERE reader=? AND conversation_id IN ({mine})",
                       (to_reader, from_reader, from_reader))
            return db.execute("UPDATE conversations SET reader=? WHERE reader=?", (to_reader, from_reader)).rowcount

    def purge(self, days: int, moment: datetime | None = None) -> int:
        """Delete the entries older than `days` days (their feedback, and conversations left empty
        and not continued since); the number of entries deleted. `days` <= 0 keeps everything."""
        if days <= 0:
            return 0
        cutoff = iso((moment or datetime.now(UTC)) - timedelta(days=days))
        with self._connect() as db:
            for table in ("feedback", "rechecks", "group_rechecks"):
                db.execute(f"DELETE FROM {table} WHERE entry_id IN (SELECT id FROM entries WHERE time<?)", (cutoff,))
            count = db.execute("DELETE FROM entries WHERE time<?", (cutoff,)).rowcount
            db.execute("DELETE FROM conversations WHERE updated<? AND id NOT IN "
                       "(SELECT conversation_id FROM entries WHERE conversation_id IS NOT NULL)", (cutoff,))
        return count


def _owner_only(path: Path, mode: int) -> None:
    # A folder made by an older version or by hand may be open to others; ours is tightened.
    current = stat.S_IMODE(path.stat().st_mode)
    if current != mode and path.stat().st_uid == os.getuid():
        os.chmod(path, mode)
