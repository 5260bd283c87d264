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


def _browser() -> tuple[str | None, str | None]:
    # st.context is empty outside a browser session (AppTest, bare mode): then French.
    try:
        return st.context.locale, st.context.headers.get("Accept-Language")
    except Exception:  # noqa: BLE001 - no browser context to read
        return None, None


def apply() -> str:
    """Decide this session's language once, and set it for this run."""
    if not st.session_state.get(LANG):
        st.session_state[LANG] = rag.i18n.pick_language(raw_from_env()["ui_lang"], *_browser())
    rag.i18n.set_language(st.session_state[LANG])
    return st.session_state[LANG]


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
