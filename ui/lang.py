"""The reader's language: the sidebar's switch, else RAG_UI_LANG, else the browser's, else French.

Setting it sets rag's too (one context variable, rag.i18n): what rag raises during the run is in
the reader's language."""

from __future__ import annotations

from rag.environment import raw_from_env

import streamlit as st

import rag.i18n
from ui import i18n
from ui.kept import kept

LANG = "ui_lang"  # session key of the chosen language
# In the page's address while the language differs from the one the reader would get anyway: a
# reload starts a new session, which would otherwise forget the sidebar's choice.
PARAM = "lang"


def _browser() -> tuple[str | None, str | None]:
    # st.context is empty outside a browser session (AppTest, bare mode): then French.
    try:
        return st.context.locale, st.context.headers.get("Accept-Language")
    except Exception:  # noqa: BLE001 - no browser context to read
        return None, None


def apply() -> str:
    """Decide this session's language once (the address's, else the usual pick), set it for this
    run and keep it in the address when it is not the usual pick."""
    usual = rag.i18n.pick_language(raw_from_env()["ui_lang"], *_browser())
    if not st.session_state.get(LANG):
        st.session_state[LANG] = rag.i18n.normalize(st.query_params.get(PARAM)) or usual
    chosen = st.session_state[LANG]
    rag.i18n.set_language(chosen)
    if chosen != usual and st.query_params.get(PARAM) != chosen:
        st.query_params[PARAM] = chosen
    elif chosen == usual and PARAM in st.query_params:
        st.query_params.pop(PARAM, None)
    return chosen


# Streamlit writes "Press Enter to apply" or "Press Ctrl+Enter to apply" under a field being typed
# in, in English whatever the page's language. In another language it is hidden: every such field
# applies on leaving it too, and those that send something have their own button.
_NO_ENGLISH_HINTS = "<style>[data-testid='InputInstructions'] {display: none;}</style>"


def hide_english_hints() -> None:
    """Hide Streamlit's English typing hints on a page in another language (call once a run)."""
    if st.session_state.get(LANG, rag.i18n.current()) != "en":
        st.html(_NO_ENGLISH_HINTS)  # style only: Streamlit adds it without taking room


def switch() -> None:
    """The language switch (drawn in the sidebar); a change reruns the page in that language."""
    kept(st.segmented_control, i18n.t("lang.label"), LANG, "sidebar_lang", options=list(rag.i18n.LANGUAGES),
         format_func=rag.i18n.LANGUAGES.get, selection_mode="single", label_visibility="collapsed",
         on_change=lambda: rag.i18n.set_language(st.session_state[LANG] or rag.i18n.current()))


def error(headline: str, detail: str | None = None) -> None:
    """A short error; the program's own message (often long, with commands to run; rag writes it
    in this run's language too) one click away."""
    st.error(headline, icon=":material/error:")
    if detail:
        with st.expander(i18n.t("details")):
            st.caption(detail)
