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
    # Streamlit runs an element's script again whenever it draws the element anew: once per question.
    "const done = (window.ragQuestionsInView = window.ragQuestionsInView || new Set());"
    "if (done.has(TURN)) return; done.add(TURN);"
    f"const box = document.querySelector('[data-testid=\"{SCROLLER}\"]') || document.scrollingElement;"
    "const go = () => { box.scrollTop = box.scrollHeight; };"
    "go(); requestAnimationFrame(go); setTimeout(go, 150);"
    "})();</script>"
)


SENT = "questions_brought_into_view"  # how many: each question's script is told apart by its number


def to_new_question() -> None:
    """Scroll the page to the question just drawn (call right after it), then follow its answer."""
    sent = st.session_state[SENT] = int(st.session_state.get(SENT, 0)) + 1
    st.html(_TO_BOTTOM.replace("TURN", str(sent)), unsafe_allow_javascript=True, width="content")
