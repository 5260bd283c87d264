"""The ask page's pieces: the empty-collection start, example questions, one chat turn."""

from __future__ import annotations

import time
from typing import Any, Callable

import streamlit as st

from ui.present import answer as answer_display
from rag.answer import followup, small_talk
from rag.answer.pipeline import AskResult
from ui.present.charts import plotly_config, score_chart
from rag.chunking import DEFAULT_STRATEGY
from rag.demo import DEMO_COLLECTION, DEMO_DIR, QUESTIONS_PATH
from rag.demo import calibrate as demo_calibrate
from rag.demo import demo_embedder
from rag.answer.retrieve import QuestionError
from rag.errors import LLMError, RagError
from rag.evaluate.questions import load_questions
from ui.present.safe_markdown import sanitize_markdown
from rag.sources.files import iter_folder
from ui import access, answer_versions, chat_actions, conversations, indexing, lang, scroll
from ui import resources
from rag.i18n.numbers import threshold_text
from ui.i18n import t, tn
from ui.present.safe_markdown import escape_link_text

HISTORY = "history"
# Questions asked in this session, across conversations: a turn's number, so that a new conversation
# never reuses the link anchors of the last one (the page's URL may still name one).
ASKED = "turns_asked"
CHOSEN = "example_chosen"
TO_SHORTEN = "question_to_shorten"  # (question, why) the search refused as asked: kept to be edited
SHORTENED = "shorten_text"
EXAMPLES = 4
PASSAGES_HEIGHT = 520  # px: the passages scroll in their own box, the page stays short
EARLIER_PASSAGE_HEIGHT = 180  # px: a cited passage of an earlier turn, in its own scrolling box
# px: a cited passage of the latest turn: a few paragraphs, in a scrolling box of its own, so that a
# one-line answer with two sources is not a few screens tall before its gestures
LATEST_PASSAGE_HEIGHT = 260
SHORT_PASSAGE = 400  # characters: a passage this short fits its box; a fixed height would leave it blank


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
        _load_demo(settings, store)


def _load_demo(settings: Any, store: Any) -> None:
    """Index and calibrate the demo; the shipped vectors stand in for the bundled model's when
    they fit (rag.demo.vectors), so that this takes seconds, not minutes."""
    embedder = indexing.embedder_or_error(settings, store.collection_info(DEMO_COLLECTION))
    if embedder is None:
        return
    embedder = demo_embedder(embedder)
    report = indexing.run(list(iter_folder(DEMO_DIR)), settings, store, DEMO_COLLECTION, DEFAULT_STRATEGY,
                          embedder=embedder)
    if report is not None:
        if report.ok:
            with st.spinner(t("ask.calibrating")):
                demo_calibrate(store, embedder)
            resources.refresh_status()
            st.session_state[resources.NEXT_COLLECTION] = DEMO_COLLECTION
            st.rerun()
        indexing.show_report(report)


def new_conversation_button() -> None:
    def clear() -> None:
        st.session_state[HISTORY] = []
        st.session_state.pop(TO_SHORTEN, None)
        conversations.forget_current()

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


def example_buttons(store: Any, collection: str, slot: Any = None) -> None:
    """A few questions the demo corpus answers, when it is loaded and nothing was asked yet, in
    `slot` (an st.empty the page empties when a question is asked)."""
    examples = _example_questions()
    if st.session_state.get(HISTORY) or not examples:
        return
    if not store.points_for_url(collection, examples[0][0], payload=["url"]):
        return  # not the demo corpus
    with (slot or st.empty()).container():
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
        citation_popovers(result, turn)


def _sources(result: AskResult, turn: int, compact: bool) -> None:
    """Each cited source as a small heading that its `[n]` links jump to (the anchor is ours:
    answer_display.citation_anchor), followed in the last turn by the cited passage itself, so
    that the jump lands on text the reader can see, outside the collapsed list of passages."""
    st.markdown(f"**{t('ask.sources')}**")
    st.html(answer_display.SOURCE_HEADINGS_CSS)  # style only: Streamlit adds it without taking room
    with st.container(gap=None if compact else "small", key=answer_display.sources_key(turn)):
        for p in result.sources:
            anchor = answer_display.citation_anchor(result.collection or "", turn, p.n)
            cited = answer_display.cited_source(p, result.raw_answer or "")
            st.subheader(answer_display.source_heading(p, cited.section), anchor=anchor)
            # An earlier turn keeps its cited passage too (in a shorter box), so that its [n] still
            # lands on the text it stands for. The box's height is at most its text's.
            height = EARLIER_PASSAGE_HEIGHT if compact else LATEST_PASSAGE_HEIGHT
            long = len(cited.before) + len(cited.cited) + len(cited.after) > SHORT_PASSAGE
            with st.container(border=True, height=height if long else "content"):
                cited_body(cited, answer_display.cited_key(turn, p.n, "source"))


def cited_body(cited: answer_display.CitedSource, key: str) -> None:
    """What the citation rests on first, highlighted (in view without scrolling its box), then the
    whole passage as the model received it, the same text highlighted in its place."""
    if not cited.cited:
        st.markdown(cited.before)
        return
    with st.container(key=key):
        st.markdown(cited.cited)
    if not (cited.before or cited.after):
        return
    st.caption(t("ask.cited_whole"))
    if cited.before:
        st.markdown(cited.before)
    with st.container(key=f"{key}-in-place"):
        st.markdown(cited.cited)
    if cited.after:
        st.markdown(cited.after)


def citation_popovers(result: AskResult, turn: int) -> None:
    """Under the answer, [1] [2]…: each opens what the citation rests on, in its passage as the model
    received it, the same text as its source (a button: a keyboard, a finger or a mouse opens it)."""
    if not result.sources:
        return
    with st.container(horizontal=True, gap="small", key=f"citation-popovers-{turn}"):
        for p in result.sources:
            cited = answer_display.cited_source(p, result.raw_answer or "")
            with st.popover(f"[{p.n}]", help=t("ask.cite_open", n=p.n)):
                st.markdown(answer_display.source_heading(p, cited.section))
                cited_body(cited, answer_display.cited_key(turn, p.n, "popover"))


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
    if not result.passages or (compact and chat_actions.has_answer(result)):
        return  # an earlier turn without an answer (refused, none written) keeps its passages: they were its answer
    accepted = set(result.accepted)
    editor = resources.can_edit()
    label = passages_label(result, editor)
    # Without an answer, the passages are what the reader came for: show them open.
    with st.expander(label, icon=":material/format_list_numbered:", expanded=bool(result.llm_error) and not compact):
        if editor:  # scores against the threshold: the editors' tuning, not the reader's
            st.plotly_chart(score_chart(answer_display.passage_rows(result), result.threshold), key=f"scores_{turn}",
                            config=plotly_config())
        note = answer_display.order_note(result)
        if note:
            st.caption(note)
        with st.container(height=PASSAGES_HEIGHT, border=False):
            for p in result.passages:
                st.markdown(answer_display.passage_markdown(p, p.n in accepted, result.threshold))
                with st.container(border=True):
                    st.markdown(answer_display.passage_text_markdown(p))


def previous_turns() -> list[followup.Turn]:
    """The conversation so far as the follow-up rewrite reads it: each question as it was searched."""
    turns = []
    for item in [i for i in st.session_state.get(HISTORY, []) if "result" in i][-followup.MAX_TURNS:]:
        result = item["result"]
        searched = (item.get("understood") or {}).get("standalone") or item["question"]
        said = result.raw_answer if chat_actions.has_answer(result) else ""
        turns.append(followup.Turn(searched, said or ""))
    return turns


def understood_caption(understood: dict[str, Any] | None) -> None:
    """What the gate and the retrieval saw, when it is not the question as asked."""
    if not understood or understood.get("standalone") == understood.get("asked"):
        return
    if understood.get("method") == followup.TERMS:
        line = t("ask.understood_terms", terms=", ".join(understood.get("terms") or []))
    else:
        line = t("ask.understood", question=understood.get("standalone") or "")
    st.caption(f":material/manage_search: {sanitize_markdown(line, images=False, links=False)}")


def _keep(question: str, result: AskResult, turn: int, understood: dict[str, Any] | None,
          stopped: bool = False, gate_inputs: list[Any] | None = None) -> dict[str, Any]:
    """The finished turn (recorded by the engine) into the conversation, with what its gate decided on."""
    history = st.session_state.setdefault(HISTORY, [])
    item = {"question": question, "result": result, "turn": turn, "understood": understood,
            "entry_id": result.journal_id, "stopped": stopped, "rating": None}
    if gate_inputs is not None:
        item["gate_inputs"] = gate_inputs
    history.append(item)
    st.session_state[ASKED] = max(st.session_state.get(ASKED, 0), turn + 1)
    return item


def _recorder(settings: Any, index: int, gate_inputs: list[Any]) -> Callable[[AskResult, str], None]:
    """The engine's recorder for this turn: the journal, in the session's conversation, at `index`,
    with what the gate decided on (a reopened refusal is offered again only once that changed)."""
    def record(result: AskResult, origin: str) -> None:
        result.gate_inputs = gate_inputs
        result.journal_id = conversations.record(settings, result, index=index,
                                                 standalone=result.standalone_question)
    return record


def finish_stopped(settings: Any) -> None:
    """An answer whose stream a new run ended (Stop, or any click meanwhile) becomes its turn, with
    the text streamed so far, recorded as stopped, unless the conversation it belonged to has been left."""
    state = st.session_state.pop(chat_actions.STREAMING, None)
    if not state:
        return
    if state["index"] != len(st.session_state.get(HISTORY, [])) or state["conversation"] != conversations.current():
        return
    result = state["turn"].stop()
    result.collection = state["collection"]
    _keep(state["question"], result, state["turn_number"], state["understood"], stopped=True)


def passages_label(result: AskResult, editor: bool) -> str:
    """"6 passages found", with the threshold they were judged by for an editor."""
    if editor:
        return tn("ask.passages", len(result.passages), threshold=threshold_text(result.threshold))
    return tn("ask.passages_plain", len(result.passages))


REDRAW_EVERY = 0.1  # seconds between two renders of an answer being streamed


def stream_live(stream: Any, live: Any, clock: Callable[[], float] = time.monotonic,
                keep: dict[str, Any] | None = None) -> LLMError | None:
    """Show the answer as it streams; the error that stopped it, if any. `keep["text"]` follows the
    text so far (what a Stop keeps).

    Each render passes the whole text so far through the answer's sanitiser (no link can form,
    even for a moment, from what the model streams), so it happens at most every REDRAW_EVERY
    seconds, not at every piece: per piece, the work grew with the square of the answer's length.
    The finished answer is rendered once more by render_result.
    """
    last: float | None = None
    try:
        for _ in stream:
            if keep is not None:
                keep["text"] = stream.text
            now = clock()
            if last is None or now - last >= REDRAW_EVERY:
                live.markdown(answer_display.answer_text_markdown(stream.text))
                last = now
    except LLMError as exc:
        return exc
    return None


def answer(question: str, settings: Any, store: Any, info: dict) -> AskResult | None:
    """One turn, played by the engine (AnswerEngine.chat: small talk, the follow-up judged then made
    standalone, the gate, the stream), rendered as it comes."""
    turn_number = st.session_state.get(ASKED, 0)
    index = len(st.session_state.get(HISTORY, []))
    st.session_state.pop(TO_SHORTEN, None)  # another question: the one to shorten is given up
    user = st.chat_message("user")
    with user:
        st.markdown(sanitize_markdown(question, images=False))
    scroll.to_new_question()
    with st.chat_message("assistant"):
        try:
            now = _gate_inputs(settings, info)
            engine = resources.answer_engine(settings, store, info, reader=access.reader_id(access.mode()),
                                             recorders=[_recorder(settings, index, now)])
            turn = engine.chat(question, previous_turns())
        except QuestionError as exc:  # the reader's to fix (a pasted log too long): said, and kept to edit
            st.session_state[TO_SHORTEN] = (question, str(exc))
            st.session_state[SHORTENED] = question
            to_shorten()
            return None
        except RagError as exc:
            lang.error(t("ask.search_failed"), str(exc))
            return None
        if turn.small_talk:
            _keep_small_talk(question, turn.small_talk, settings, turn_number, turn.result.journal_id)
            return None
        understood = turn.understood.to_dict()
        understood_caption(understood)
        slot = st.empty()
        if turn.streams:
            stop = chat_actions.stop_button(turn_number)
            state = {"question": question, "turn_number": turn_number, "index": index, "turn": turn,
                     "text": "", "understood": understood, "collection": settings.collection,
                     "conversation": conversations.current()}
            st.session_state[chat_actions.STREAMING] = state
            with slot.container():
                stream_live(turn, st.empty(), keep=state)
            st.session_state.pop(chat_actions.STREAMING, None)
            stop.empty()
        result = turn.result
        render_result(result, turn_number, slot)
        item = _keep(question, result, turn_number, understood, gate_inputs=now)
        answer_versions.browser(settings, HISTORY, index)
        chat_actions.turn_actions(item, index, True, settings, _again(), now)
    with user:
        chat_actions.edit_button(item, index, _again())
    return result


def small_talk_reply(kind: str, settings: Any) -> str:
    replies = {small_talk.GREETING: t("ask.hello", name=escape_link_text(settings.collection)),
               small_talk.THANKS: t("ask.thanks_reply"), small_talk.GOODBYE: t("ask.goodbye_reply")}
    return replies.get(kind, replies[small_talk.THANKS])


def _keep_small_talk(message: str, kind: str, settings: Any, turn: int, entry_id: str | None) -> None:
    """"Bonjour", "Merci !": a word back, nothing searched nor refused; kept in its place in the
    conversation (and in the journal, out of the editors' lists), so that a reload shows it."""
    st.markdown(small_talk_reply(kind, settings))
    st.session_state.setdefault(HISTORY, []).append({"question": message, "small_talk": kind, "turn": turn,
                                                     "entry_id": entry_id})
    st.session_state[ASKED] = max(st.session_state.get(ASKED, 0), turn + 1)


def _again() -> Any:
    return chat_actions.ask_again(HISTORY, CHOSEN)


def _gate_inputs(settings: Any, info: dict | None) -> list[Any]:
    return chat_actions.gate_inputs(settings, info, resources.mode(), resources.groups())


def to_shorten() -> None:
    """The question the search could not take as it was, with why, in a box to edit and send
    again: a reader who pasted a long log keeps it, and cuts it down there."""
    pending = st.session_state.get(TO_SHORTEN)
    if not pending:
        return

    def resend() -> None:
        text = (st.session_state.get(SHORTENED) or "").strip()
        if text:
            st.session_state.pop(TO_SHORTEN, None)
            st.session_state[CHOSEN] = text

    st.warning(pending[1], icon=":material/short_text:")
    st.text_area(t("ask.shorten_label"), key=SHORTENED, height=200)
    st.button(t("ask.resend"), key="shorten_send", icon=":material/send:", type="primary", on_click=resend)


def history(settings: Any, compact_all: bool = False, info: dict | None = None) -> None:
    """The conversation so far: earlier turns compact, the last one in full unless a new
    question follows in this run; the gestures under each. `info`: the collection as it stands."""
    turns = st.session_state.get(HISTORY, [])
    now = _gate_inputs(settings, info)
    for i, item in enumerate(turns):
        last = i == len(turns) - 1 and not compact_all
        if item.get("small_talk"):
            with st.chat_message("user"):
                st.markdown(sanitize_markdown(item["question"], images=False))
            with st.chat_message("assistant"):
                st.markdown(small_talk_reply(item["small_talk"], settings))
            continue
        with st.chat_message("user"):
            st.markdown(sanitize_markdown(item["question"], images=False))
            chat_actions.edit_button(item, i, _again())
        with st.chat_message("assistant"):
            understood_caption(item.get("understood"))
            render_result(item["result"], item["turn"], compact=not last)
            answer_versions.browser(settings, HISTORY, i)  # "‹ 1/2 ›" once an answer was regenerated
            chat_actions.turn_actions(item, i, last, settings, _again(), now)
    if st.session_state.get(TO_SHORTEN) and not compact_all:
        with st.chat_message("assistant"):
            to_shorten()
