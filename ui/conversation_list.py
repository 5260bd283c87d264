"""The conversation list's own tools in the sidebar: a search over titles and questions, and for
the open conversation a new name and a Markdown copy with its sources (rag.journal)."""

from __future__ import annotations

import logging
import re
from typing import Callable, Sequence

import streamlit as st

from rag.errors import RagError
from rag.journal.conversation_export import conversation_markdown
from rag.journal.conversation_search import matching
from rag.journal.records import Conversation, Entry
from rag.journal.store import Journal
from ui.i18n import t

log = logging.getLogger(__name__)

SEARCH = "conversation_search"


def searched(book: Journal, reader: str, conversations: Sequence[Conversation]) -> list[Conversation]:
    """A search field over the list (once there is something to search); the conversations it matches."""
    if not conversations:
        return []
    query = st.text_input(t("conv.search"), key=SEARCH, placeholder=t("conv.search_placeholder"),
                          label_visibility="collapsed", icon=":material/search:")
    if not query.strip():
        return list(conversations)
    found = matching(conversations, book.conversation_questions(reader), query)
    if not found:
        st.caption(t("conv.none_found"))
    return found


def _file_name(title: str) -> str:
    return (re.sub(r"[^\w.-]+", "-", title, flags=re.UNICODE).strip("-")[:60] or "conversation") + ".md"


def current_tools(book: Journal, reader: str, conversation_id: str | None,
                  replay: Callable[[Sequence[Entry]], list[Entry]]) -> None:
    """For the open conversation (the reader's own): rename it, download it as Markdown."""
    if not conversation_id:
        return
    try:
        found = book.conversation(conversation_id)
        if found is None or (found.reader or "") != reader:
            return
        entries = replay(book.turns(conversation_id))
    except (RagError, OSError) as exc:
        log.warning("could not read the journal: %s", exc)
        return

    def rename() -> None:
        title = " ".join(st.session_state.get(f"rename_{conversation_id}", "").split())
        if title:
            book.rename_conversation(conversation_id, title)

    with st.expander(t("conv.this_one"), icon=":material/edit:"):
        st.text_input(t("conv.rename"), value=found.title, key=f"rename_{conversation_id}", on_change=rename,
                      max_chars=120)
        st.download_button(t("conv.export"), conversation_markdown(found.title, entries),
                           file_name=_file_name(found.title), mime="text/markdown", icon=":material/download:",
                           key=f"export_{conversation_id}", on_click="ignore")
