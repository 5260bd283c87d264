"""Conversations that last: each turn of the Ask page written to the journal (rag.journal), the
reader's conversations listed in the sidebar, and the one named in the page's address restored
after a reload, with its collection.

The address holds the conversation's id (`?conversation=…`) and the collection (`?collection=…`):
neither is a secret. A conversation opens only for the reader who owns it (`Journal.conversation`
is checked against the signed-in account); anyone else starts a new one. Editors may delete.

A regenerated or edited turn is a new journal entry with the same turn number: the entries are
replayed in the order they were written (their ids start with the time they were made), each
one cutting the conversation back to its turn, so a reload shows what the screen showed.
"""

from __future__ import annotations

import logging
import secrets
import time
from pathlib import Path
from typing import Any, Sequence

import streamlit as st

from rag.answer.pipeline import AskResult
from rag.answer.prompts import refusal_sentence
from rag.answer.retrieve import Passage
from rag.errors import RagError
from rag.journal.answers import entry_from_result
from rag.journal.records import Entry
from rag.journal.reopened import WITHHELD, for_reader
from rag.journal.store import Journal
from rag.redact import known_secrets
from ui import access, conversation_list, resources
from ui.i18n import t, tn
from ui.present.safe_markdown import escape_link_text
from ui.present.times import browser_zone, local_minute

log = logging.getLogger(__name__)

CONVERSATION = "conversation_id"
RESTORED = "conversation_restored"  # the address was read once in this session
PARAM, COLLECTION_PARAM = "conversation", "collection"
TO_DELETE = "conversation_to_delete"  # the conversation whose trash was clicked: deleted once confirmed
LISTED = 20  # conversations listed in the sidebar, the latest first
TITLE_CHARS = 48


def reader() -> str:
    """The signed-in account's id as the journal records it ("" with a shared password or none)."""
    return access.reader_id(access.mode())


def journal(settings: Any) -> Journal:
    return Journal.open(settings.data_dir, secrets=known_secrets(settings))


def new_id() -> str:
    """32 hex digits, like uuid4().hex, that sort in the order they were made (time first)."""
    return f"{time.time_ns():016x}{secrets.token_hex(8)}"[-32:]


def current() -> str | None:
    return st.session_state.get(CONVERSATION)


def record(settings: Any, result: AskResult, *, index: int, standalone: str = "") -> str | None:
    """Write one turn (its question, passages, answer and citations) to the journal, in this
    session's conversation (made on its first turn); the entry's id, or None when the journal
    cannot be written (the answer is still shown; the reader is told)."""
    conversation = current() or new_id()
    entry = entry_from_result(result, origin="ask", reader=reader(), collection=result.collection,
                              conversation_id=conversation, standalone_question=standalone)
    return _write(settings, entry, conversation, index)


def _write(settings: Any, entry: Entry, conversation: str, index: int) -> str | None:
    entry.id = new_id()
    entry.turn = index + 1
    try:
        journal(settings).record(entry)
    except (RagError, OSError) as exc:
        log.warning("could not write the journal in %s: %s", settings.data_dir, exc)
        st.toast(t("ask.journal_failed", error=str(exc)), icon=":material/warning:")
        return None
    st.session_state[CONVERSATION] = conversation
    return entry.id


NOTICE = "conversation_notice"  # what a callback has to say, said by the next run in the reader's language


def notify(key: str, icon: str, **values: Any) -> None:
    """Keep a message for the run that follows a callback (callbacks run before the page's language is set)."""
    st.session_state[NOTICE] = (key, icon, values)


def show_notice() -> None:
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        key, icon, values = notice
        st.toast(t(key, **values), icon=icon)


def vote(settings: Any, entry_id: str | None, rating: int | None, comment: str = "",
         thanks: str = "ask.feedback_saved") -> None:
    """A reader's thumbs on a turn: +1, -1, or None to withdraw it (a callback), with what they
    wrote about it."""
    try:
        if not entry_id:
            raise RagError("—")
        book = journal(settings)
        if rating is None:
            book.withdraw_feedback(entry_id, reader())
        else:
            book.feedback(entry_id, reader(), rating, comment)
    except (RagError, OSError) as exc:
        notify("ask.feedback_failed", ":material/warning:", error=str(exc))
        return
    if rating is not None:
        notify(thanks, ":material/thumb_up:" if rating > 0 else ":material/thumb_down:")


# -- from the journal back to the page --------------------------------------------------------


def result_from_entry(entry: Entry) -> AskResult:
    """The turn as the page showed it: its passages (with their text), answer, citations, the
    warnings the reader read and why it was refused (said again in the reader's language).

    Sources are the cited passages the model was sent: a citation of a passage it never read is
    no source (it is the warning "cites [n], which matches no passage given"). An entry written
    before the sent passages were recorded counts those at or above its threshold as sent."""
    passages = [Passage(n=int(p.get("n") or i), score=float(p.get("score") or 0.0), title=p.get("title") or "",
                        section=p.get("section") or "", url=p.get("url") or "", text=p.get("text") or "",
                        id=str(p.get("doc_id") or ""))
                for i, p in enumerate(entry.passages, 1)]
    cited = [int(n) for n in entry.citations]
    refused = entry.refused
    threshold = entry.threshold
    checks = entry.checks or {}
    above = [p.n for p in passages if threshold is None or p.score >= threshold]
    accepted = [int(n) for n in checks.get("accepted", above)]
    language = entry.language or "fr"
    restored = {"restored": True, "refused": refused, "reason": entry.refusal_reason}
    common = dict(question=entry.question, passages=passages, threshold=threshold, language=language,
                  outcome=entry.outcome,
                  collection=entry.collection, accepted=accepted, gate=restored,
                  refusal_reason=entry.refusal_reason or None, refusal=dict(entry.refusal) or None,
                  best_score=max((p.score for p in passages), default=None),
                  warnings=[str(w) for w in checks.get("warnings") or []])
    if refused:
        return AskResult(answer=refusal_sentence(language), refused=True, cited=[], **common)
    if "sent_passages" in checks:
        sent = [int(n) for n in checks["sent_passages"]]
        invalid = [int(n) for n in checks.get("invalid_citations") or []]
        uncited = bool(checks.get("uncited"))
    else:
        sent = above
        invalid = [n for n in cited if n not in above]
        uncited = bool(entry.answer) and not [n for n in cited if n in above]
    no_answer = entry.outcome in ("passages_only", "failed")
    notes = [str(n) for n in checks.get("notes") or []]
    shown = "\n\n".join([entry.answer, "\n".join(notes)]) if entry.answer and notes else entry.answer
    return AskResult(
        answer=None if no_answer else (shown or None), refused=False, notes=notes,
        sources=[p for p in passages if p.n in cited and p.n in sent], model=entry.model or None,
        raw_answer=entry.answer or None, cited=cited, sent_passages=sent,
        invalid_citations=[] if no_answer else invalid, uncited=uncited and not no_answer,
        answer_urls=[str(u) for u in checks.get("answer_urls") or []],
        dropped_passages=[int(n) for n in checks.get("dropped_passages") or []],
        llm_error=(t("ask.withheld_turn") if checks.get(WITHHELD) else t("ask.restored_turn")) if no_answer else None,
        **common,
    )


def replay(entries: Sequence[Entry]) -> list[Entry]:
    """The conversation as last shown: entries in the order written, each cutting back to its turn."""
    shown: list[Entry] = []
    for entry in sorted(entries, key=lambda e: e.id):
        turn = entry.turn or len(shown) + 1
        del shown[turn - 1:]
        shown.append(entry)
    return shown


def _my_conversation(settings: Any, conversation_id: str) -> tuple[Any, list[Entry]] | None:
    book = journal(settings)
    found = book.conversation(conversation_id)
    if found is None or (found.reader or "") != reader():
        return None
    # Every passage checked again against the groups of whoever reopens it, as a live answer is.
    groups = resources.groups()
    return found, [for_reader(entry, groups) for entry in replay(book.turns(conversation_id))]


def _turn_items(entries: Sequence[Entry], first_turn: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for i, entry in enumerate(entries):
        if entry.small_talk:
            items.append({"question": entry.question, "small_talk": entry.small_talk, "turn": first_turn + i,
                          "entry_id": entry.id})
            continue
        mine = next((f for f in entry.feedback if f.reader == reader()), None)
        understood = entry.checks.get("understood")  # how it was made standalone, as first said
        if not understood and entry.standalone_question and entry.standalone_question != entry.question:
            understood = {"asked": entry.question, "standalone": entry.standalone_question, "method": "journal",
                          "terms": []}
        items.append({"question": entry.question, "result": result_from_entry(entry), "turn": first_turn + i,
                      "entry_id": entry.id, "understood": understood, "rating": mine.rating if mine else None,
                      "comment": mine.comment if mine else "", "stopped": entry.outcome == "stopped",
                      **({"gate_inputs": entry.checks["gate_inputs"]} if "gate_inputs" in entry.checks else {})})
    return items


def open_conversation(settings: Any, conversation_id: str, history_key: str, asked_key: str) -> bool:
    """Load one of the reader's conversations into the session; False when it is not theirs (or gone).
    Its collection becomes the session's on the next run (NEXT_COLLECTION)."""
    try:
        mine = _my_conversation(settings, conversation_id)
    except (RagError, OSError) as exc:
        notify("ask.journal_failed", ":material/warning:", error=str(exc))
        return False
    if mine is None:
        return False
    conversation, entries = mine
    first = st.session_state.get(asked_key, 0)
    st.session_state[history_key] = _turn_items(entries, first)
    st.session_state[asked_key] = first + len(entries)
    st.session_state[CONVERSATION] = conversation.id
    collection = conversation.collection or (entries[-1].collection if entries else "")
    if collection and collection != st.session_state.get(resources.COLLECTION):
        st.session_state[resources.NEXT_COLLECTION] = collection
    return True


def restore_from_address(settings: Any, history_key: str, asked_key: str) -> None:
    """Once a session: the conversation the address names, if it is the reader's. A collection
    that changes with it needs a new run (the sidebar is drawn already)."""
    if st.session_state.get(RESTORED):
        return
    st.session_state[RESTORED] = True
    wanted = st.query_params.get(PARAM)
    if not wanted or st.session_state.get(history_key):
        return
    if not open_conversation(settings, wanted, history_key, asked_key):
        st.query_params.pop(PARAM, None)
        st.toast(t("ask.conversation_missing"), icon=":material/info:")
        return
    if st.session_state.get(resources.NEXT_COLLECTION):
        st.rerun()


def keep_in_address(collection: str) -> None:
    """The page's address names the collection and the conversation, so a reload returns to them."""
    if st.query_params.get(COLLECTION_PARAM) != collection:
        st.query_params[COLLECTION_PARAM] = collection
    conversation = current()
    if conversation and st.query_params.get(PARAM) != conversation:
        st.query_params[PARAM] = conversation
    elif not conversation and PARAM in st.query_params:
        st.query_params.pop(PARAM, None)


def forget_current() -> None:
    st.session_state.pop(CONVERSATION, None)


def _title(text: str) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1].rstrip() + "…"


def _carry_over(settings: Any) -> None:
    if not resources.can_edit() or not reader():  # a stale click after sign-out carries nothing
        return
    notify("ask.carried_over", ":material/move_down:", n=journal(settings).hand_over("", reader()))


def _asked_before_sign_in(settings: Any) -> None:
    """To an editor, once sign-in is required: the conversations asked in open mode (recorded for
    no reader), which no one lists any more, where they are and a button to carry them over. A
    carried-over turn is replayed under the editor's groups like any other."""
    if access.mode() == "open" or not resources.can_edit():
        return
    try:
        earlier = journal(settings).conversations("")
    except (RagError, OSError):
        return  # the list below says nothing either: the journal's problem is said when a turn is written
    if earlier:
        st.caption(tn("ask.before_sign_in", len(earlier), path=str(Path(settings.data_dir) / "journal")))
        st.button(t("ask.carry_over"), key="carry_over", on_click=_carry_over, args=(settings,),
                  icon=":material/move_down:")


def sidebar_list(settings: Any, history_key: str, asked_key: str) -> None:
    """The reader's saved conversations, the latest first: one click opens one; an editor may delete."""
    try:
        book = journal(settings)
        conversations = book.conversations(reader())
    except (RagError, OSError) as exc:
        log.warning("could not read the journal: %s", exc)
        return
    editor = resources.can_edit()

    def choose(conversation_id: str) -> None:
        open_conversation(settings, conversation_id, history_key, asked_key)

    def ask_delete(conversation_id: str) -> None:
        st.session_state[TO_DELETE] = conversation_id

    def keep() -> None:
        st.session_state.pop(TO_DELETE, None)

    def delete(conversation_id: str) -> None:
        st.session_state.pop(TO_DELETE, None)
        if not resources.can_edit():  # a reader never reaches an editor's control, even by a stale click
            return
        journal(settings).delete_conversation(conversation_id)
        if current() == conversation_id:
            st.session_state[history_key] = []
            forget_current()
        notify("ask.deleted", ":material/delete:")

    with st.sidebar:
        st.markdown(f"**{t('ask.conversations')}**")
        _asked_before_sign_in(settings)
        if not conversations:
            st.caption(t("ask.no_conversations"))
            return
        conversation_list.current_tools(book, reader(), current(), replay)  # rename, export (its own module)
        for conversation in conversation_list.searched(book, reader(), conversations)[:LISTED]:
            label = escape_link_text(_title(conversation.title) or conversation.id[:8])
            here = conversation.id == current()
            if editor:
                left, right = st.columns([5, 1], vertical_alignment="center")
            else:
                left, right = st.container(), None
            # The label is cut and many start alike ("Comment …"): the whole first question and
            # the time of the last one tell them apart on hover.
            whole = t("ask.conversation_help", title=escape_link_text(" ".join((conversation.title or "").split())),
                      when=local_minute(conversation.updated or conversation.created or "", browser_zone()))
            left.button(label, key=f"conversation_{conversation.id}", on_click=choose, args=(conversation.id,),
                        type="primary" if here else "tertiary", icon=":material/chat:", width="stretch", help=whole)
            if right is not None:
                right.button("", key=f"delete_{conversation.id}", on_click=ask_delete, args=(conversation.id,),
                             icon=":material/delete:", help=t("ask.delete_help"), type="tertiary")
            if editor and st.session_state.get(TO_DELETE) == conversation.id:
                # A deletion cannot be undone (the journal forgets the turns): a second click confirms it.
                st.caption(t("ask.delete_confirm"))
                with st.container(horizontal=True, gap="small"):
                    st.button(t("ask.delete_yes"), key=f"delete_yes_{conversation.id}", on_click=delete,
                              args=(conversation.id,), icon=":material/delete:", type="primary")
                    st.button(t("ask.delete_no"), key=f"delete_no_{conversation.id}", on_click=keep, type="secondary")
