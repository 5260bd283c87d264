"""Bringing a new question into view: the page's scrolling box follows a chat only while the reader
is at its bottom, so a question sent after scrolling up (to read a source, after a [n]) would land
out of sight, its answer too.

A fixed script, with nothing of the page's text in it: it moves the page's scrolling box to its
bottom, where the question just sent is; being at the bottom again, the box follows the answer as it
streams, as it does for a reader who never scrolled away.
"""

from __future__ import annotations

import streamlit as st

SCROLLER = "stAppScrollToBottomContainer"  # Streamlit's main scrolling box (st.chat_message pins it)

_TO_BOTTOM = (
    "<script>(() => {"
    f"const box = document.querySelector('[data-testid=\"{SCROLLER}\"]') || document.scrollingElement;"
    "const go = () => { box.scrollTop = box.scrollHeight; };"
    "go(); requestAnimationFrame(go); setTimeout(go, 150);"
    "})();</script>"
)


def to_new_question() -> None:
    """Scroll the page to the question just drawn (call right after it), then follow its answer."""
    st.html(_TO_BOTTOM, unsafe_allow_javascript=True, width="content")
