"""A stop button for a long run on a page (indexing, an evaluation), in the page's language.

Streamlit's own "Stop" is not drawn (ui.frame: no English chrome). A click on any button asks
Streamlit for a new run, which ends the current one at its next progress update; this button is
that click, and it leaves a note for the new run to say what a stop keeps.
"""

from __future__ import annotations

from typing import Any

import streamlit as st


def offer(key: str, label: str, note: str) -> Any:
    """The button, under the progress bar; the returned slot is emptied once the run ends."""
    slot = st.empty()
    slot.button(label, key=key, icon=":material/stop_circle:", on_click=_asked, args=(key, note))
    return slot


def _asked(key: str, note: str) -> None:
    st.session_state[f"{key}_note"] = note


def said(key: str) -> None:
    """After a stop: what it kept, once."""
    note = st.session_state.pop(f"{key}_note", None)
    if note:
        st.info(note, icon=":material/stop_circle:")
