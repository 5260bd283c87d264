"""The ask page's pieces: the empty-collection start, example questions, one chat turn."""

from __future__ import annotations

import time
from typing import Any, Callable

import streamlit as st

from ui.present import answer as answer_display
from rag.answer.pipeline import AskResult
from ui.present.charts import score_chart
from rag.chunking import DEFAULT_STRATEGY
from rag.demo import DEMO_COLLECTION, DEMO_DIR, QUESTIONS_PATH
from rag.demo import calibrate as demo_calibrate
from rag.errors import LLMError, RagError
from rag.evaluate.questions import load_questions
from ui.present.safe_markdown import sanitize_markdown
from rag.sources.files import iter_folder
from ui import access, indexing, lang
from ui import resources
from rag.i18n.numbers import threshold_text
from ui.i18n import t, tn
from ui.present.safe_markdown import escape_link_text

HISTORY = "history"
# Questions asked in this session, across conversations: a turn's number, so that a new conversation
# never reuses the link anchors of the last one (the page's URL may still name one).
ASKED = "turns_asked"
CHOSEN = "example_chosen"
EXAMPLES = 4
PASSAGES_HEIGHT = 520  # px: the passages scroll in their own box, the page stays short


def load_demo_button(settings: Any, store: Any) -> None:
    """The newcomer's first step: the bundled articles in their own collection, calibrated."""
    demo = store.collection_info(DEMO_COLLECTION) if settings.collection != DEMO_COLLECTION else None
    if demo and demo.get("points"):
        st.info(t("ask.demo_exists", name=DEMO_COLLECTION))
        if st.button(t("ask.open_demo"), type="primary", icon=":material/library_books:", key="open_demo"):
            st.session_state[resources.NEXT_COLLECTION] = DEMO_COLLECTION
            st.rerun()
        return
    if not resources.can_edit():  # indexing is an editor's: a reader is told there is nothing to read
        st.info(t("ask.nothing_to_read", name=escape_link_text(settings.collection)))
        return
    st.info(t("ask.empty", name=escape_link_text(settings.collection)))
    if st.button(t("ask.load_demo"), type="primary", icon=":material/library_books:", key="load_demo"):
        report = indexing.run(list(iter_folder(DEMO_DIR)), settings, store, DEMO_COLLECTION, DEFAULT_STRATEGY)
        if report is not None and report.ok:
            with st.spinner(t("ask.calibrating")):
                demo_calibrate(store, resources.embedder_for(settings, store.collection_info(DEMO_COLLECTION)))
            resources.refresh_status()
            st.session_state[resources.NEXT_COLLECTION] = DEMO_COLLECTION
            st.rerun()
        if report is not None:
            indexing.show_report(report)


def new_conversation_button() -> None:
    def clear() -> None:
        st.session_state[HISTORY] = []

    st.button(t("ask.new"), icon=":material/add_comment:", key="new_conversation", on_click=clear, width="stretch",
              disabled=not st.session_state.get(HISTORY))


@st.cache_data(show_spinner=False)
def _example_questions() -> list[tuple[str, str]]:
    questions = [q for q in load_questions(QUESTIONS_PATH) if q.in_base]
    return [(q.expected_source or "", q.question) for q in questions[:EXAMPLES]]


def _choose(question: str) -> None:
    st.session_state[CHOSEN] = question


def chosen_example() -> str | None:
    """The example question clicked in the previous run, if any (asked once)."""
    return st.session_state.pop(CHOSEN, None)


def example_buttons(store: Any, collection: str) -> None:
    """A few questions the demo corpus answers, when it is loaded and nothing was asked yet."""
    examples = _example_questions()
    if st.session_state.get(HISTORY) or not examples:
        return
    if not store.points_for_url(collection, examples[0][0], payload=["url"]):
        return  # not the demo corpus
    st.caption(t("ask.try"))
    for i, (_, question) in enumerate(examples):
        st.button(question, key=f"example_{i}", on_click=_choose, args=(question,))


def _answer_block(result: AskResult, slot: Any, turn: int) -> None:
    if result.refused:
        slot.info(answer_display.answer_markdown(result), icon=":material/block:")
        st.caption(answer_display.refusal_details(result))
    elif result.llm_error:
        slot.warning(answer_display.no_answer_reason(result), icon=":material/warning:")
        with st.expander(t("details")):
            st.caption(result.llm_error)
    else:
        slot.markdown(answer_display.answer_markdown(result, turn))


def _sources(result: AskResult, turn: int, compact: bool) -> None:
    """Each cited source as a small heading that its `[n]` links jump to (the anchor is ours:
    answer_display.citation_anchor), followed in the last turn by the cited passage itself, so
    that the jump lands on text the reader can see, outside the collapsed list of passages."""
    st.markdown(f"**{t('ask.sources')}**")
    with st.container(gap=None if compact else "small"):
        for p in result.sources:
            anchor = answer_display.citation_anchor(result.collection or "", turn, p.n)
            st.subheader(answer_display.source_heading(p), anchor=anchor)
            if not compact:
                with st.container(border=True):
                    st.markdown(answer_display.passage_text_markdown(p))


def render_result(result: AskResult, turn: int, answer_slot: Any = None, compact: bool = False) -> None:
    """Answer or refusal, warnings, sources, then every retrieved passage with its score.

    `compact` (an earlier turn): the answer and its sources only, labelled with the collection.
    """
    _answer_block(result, answer_slot or st.empty(), turn)
    if not compact:
        for flag in answer_display.answer_flags(result):
            st.warning(flag)
    if result.sources:
        _sources(result, turn, compact)
    if result.collection:
        st.caption(f":material/folder_open: {t('ask.collection', name=escape_link_text(result.collection))}")
    if compact or not result.passages:
        return
    accepted = set(result.accepted)
    label = tn("ask.passages", len(result.passages), threshold=threshold_text(result.threshold))
    # Without an answer, the passages are what the reader came for: show them open.
    with st.expander(label, icon=":material/format_list_numbered:", expanded=bool(result.llm_error)):
        st.plotly_chart(score_chart(answer_display.passage_rows(result), result.threshold), key=f"scores_{turn}")
        note = answer_display.order_note(result)
        if note:
            st.caption(note)
        with st.container(height=PASSAGES_HEIGHT, border=False):
            for p in result.passages:
                st.markdown(answer_display.passage_markdown(p, p.n in accepted, result.threshold))
                with st.container(border=True):
                    st.markdown(answer_display.passage_text_markdown(p))


REDRAW_EVERY = 0.1  # seconds between two renders of an answer being streamed


def stream_live(stream: Any, live: Any, clock: Callable[[], float] = time.monotonic) -> LLMError | None:
    """Show the answer as it streams; the error that stopped it, if any.

    Each render passes the whole text so far through the answer's sanitiser (no link can form,
    even for a moment, from what the model streams), so it happens at most every REDRAW_EVERY
    seconds, not at every piece: per piece, the work grew with the square of the answer's length.
    The finished answer is rendered once more by render_result.
    """
    last: float | None = None
    try:
        for _ in stream:
            now = clock()
            if last is None or now - last >= REDRAW_EVERY:
                live.markdown(answer_display.answer_text_markdown(stream.text))
                last = now
    except LLMError as exc:
        return exc
    return None


def answer(question: str, settings: Any, store: Any, info: dict) -> AskResult | None:
    """Ask the answer engine, stream what it writes, and render the turn."""
    turn = st.session_state.get(ASKED, 0)
    with st.chat_message("user"):
        st.markdown(sanitize_markdown(question, images=False))
    with st.chat_message("assistant"):
        try:
            response = resources.answer_engine(settings, store, info,
                                                reader=access.reader_id(access.mode())).ask(question)
        except RagError as exc:
            lang.error(t("ask.search_failed"), str(exc))
            return None
        slot = st.empty()
        if response.streams:
            with slot.container():
                stream_live(response, st.empty())
        result = response.result
        render_result(result, turn, slot)
    st.session_state[ASKED] = turn + 1
    st.session_state.setdefault(HISTORY, []).append({"question": question, "result": result, "turn": turn,
                                                     "entry_id": result.journal_id})
    return result


def history(compact_all: bool = False) -> None:
    """The conversation so far: earlier turns compact, the last one in full unless a new
    question follows in this run."""
    turns = st.session_state.get(HISTORY, [])
    for i, item in enumerate(turns):
        with st.chat_message("user"):
            st.markdown(sanitize_markdown(item["question"], images=False))
        with st.chat_message("assistant"):
            render_result(item["result"], item["turn"], compact=compact_all or i < len(turns) - 1)
