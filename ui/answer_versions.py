"""Browsing the kept versions of a regenerated answer under its turn: "‹ 1/2 ›", as chat tools do.
The versions are the journal's (rag.journal.answer_versions); a click shows the chosen one in place."""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st

from rag.errors import RagError
from rag.journal.answer_versions import versions_of
from ui import conversations
from ui.i18n import t

log = logging.getLogger(__name__)


def browser(settings: Any, history_key: str, index: int) -> None:
    """Under turn `index` of the conversation: its versions and arrows between them (nothing when
    there is one, or no journal)."""
    item = st.session_state[history_key][index]
    conversation = conversations.current()
    if not conversation or not item.get("entry_id"):
        return
    try:
        book = conversations.journal(settings)
        found = book.conversation(conversation)
        if found is None or (found.reader or "") != conversations.reader():
            return
        kept = versions_of(book.turns(conversation), index + 1, item["question"])
    except (RagError, OSError) as exc:
        log.warning("could not read the journal: %s", exc)
        return
    ids = [e.id for e in kept]
    if len(ids) < 2 or item["entry_id"] not in ids:
        return
    at = ids.index(item["entry_id"])

    def show(position: int) -> None:
        entry = kept[position]
        turns = st.session_state[history_key]
        turns[index] = {**turns[index], "result": conversations.result_from_entry(entry), "entry_id": entry.id}

    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.button("", key=f"version_back_{item['turn']}", icon=":material/chevron_left:", type="tertiary",
                  disabled=at == 0, on_click=show, args=(at - 1,), help=t("ask.version_back"))
        st.caption(t("ask.version", n=at + 1, total=len(ids)))
        st.button("", key=f"version_next_{item['turn']}", icon=":material/chevron_right:", type="tertiary",
                  disabled=at == len(ids) - 1, on_click=show, args=(at + 1,), help=t("ask.version_next"))
