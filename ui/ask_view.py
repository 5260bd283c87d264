"""The ask page's pieces: the empty-collection start, example questions, one chat turn."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui.present import answer as answer_display
from rag.answer.pipeline import AskResult, finalize, prepare
from ui.present.charts import score_chart
from rag.demo import DEMO_DIR, QUESTIONS_PATH
from rag.errors import LLMError, RagError
from rag.evaluate.questions import load_questions
from rag.answer.retrieve import retrieve
from ui.present.safe_markdown import sanitize_markdown
from rag.sources import iter_folder
from rag.answer.threshold import resolve_threshold
from ui import indexing
from ui import resources

HISTORY = "history"
CHOSEN = "example_chosen"
DEMO_STRATEGY = "sections"
EXAMPLES = 4


def load_demo_button(settings: Any, store: Any) -> None:
    """The newcomer's first step: index the bundled articles into the current collection."""
    st.info(
        f"The collection **{settings.collection}** is empty. Load the demo corpus (14 French articles "
        "on Windows security) to try the workbench, or index your own source on the Ingest page."
    )
    if st.button("Load the demo corpus", type="primary", icon=":material/library_books:", key="load_demo"):
        report = indexing.run(list(iter_folder(DEMO_DIR)), settings, store, settings.collection, DEMO_STRATEGY)
        if report is not None and report.ok:
            st.rerun()
        if report is not None:
            indexing.show_report(report)


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
    st.caption("Try one of these questions:")
    for i, (_, question) in enumerate(examples):
        st.button(question, key=f"example_{i}", on_click=_choose, args=(question,))


def render_result(result: AskResult, turn: int, answer_slot: Any = None) -> None:
    """Answer or refusal, warnings, sources, then every retrieved passage with its score."""
    slot = answer_slot or st.empty()
    if result.refused:
        slot.info(answer_display.answer_markdown(result), icon=":material/block:")
        st.caption(answer_display.refusal_details(result))
    elif result.llm_error:
        slot.warning(answer_display.no_answer_reason(result))
    else:
        slot.markdown(answer_display.answer_markdown(result))
    for flag in answer_display.answer_flags(result):
        st.warning(flag)
    if result.sources:
        st.markdown("**Sources**\n\n" + answer_display.sources_markdown(result.sources))
    if not result.passages:
        return
    accepted = set(result.accepted)
    # Without an answer, the passages are what the reader came for: show them open.
    with st.expander(f"{len(result.passages)} passages retrieved (threshold {result.threshold:.3f})",
                     expanded=bool(result.llm_error)):
        st.plotly_chart(score_chart(answer_display.passage_rows(result), result.threshold), key=f"scores_{turn}")
        for p in result.passages:
            st.markdown(answer_display.passage_markdown(p, p.n in accepted, result.threshold))
            with st.container(border=True, height=220):
                st.markdown(answer_display.passage_text_markdown(p))


def answer(question: str, settings: Any, store: Any, info: dict) -> AskResult | None:
    """Retrieve, then stream the answer (or refuse, or say why not), and render the turn."""
    turn = len(st.session_state.get(HISTORY, []))
    with st.chat_message("user"):
        st.markdown(sanitize_markdown(question, images=False))
    with st.chat_message("assistant"):
        try:
            embedder = resources.embedder_for(settings, info)
            passages = retrieve(question, store, embedder, settings.collection, top_k=settings.top_k,
                                mode=resources.mode(), groups=resources.groups())
        except RagError as exc:
            st.error(str(exc))
            return None
        threshold, source = resolve_threshold(settings.threshold, info, embedder.model_id)
        llm = resources.llm(settings)
        prepared = prepare(question, passages, llm, threshold, source, log_dir=settings.logs_dir)
        slot = st.empty()
        if prepared.result is not None:
            result = prepared.result
        else:
            stream = llm.stream_chat(prepared.messages, **prepared.chat_params())
            failure: list[LLMError] = []

            def pieces():
                try:
                    yield from answer_display.stream_safe_pieces(stream)
                except LLMError as exc:
                    failure.append(exc)

            with slot.container():
                st.write_stream(pieces())
            result = finalize(prepared, stream.text, error=failure[0] if failure else None,
                              usage=stream.usage, model=stream.model)
        result.collection = settings.collection
        render_result(result, turn, slot)
    st.session_state.setdefault(HISTORY, []).append({"question": question, "result": result})
    return result


def history() -> None:
    for turn, item in enumerate(st.session_state.get(HISTORY, [])):
        with st.chat_message("user"):
            st.markdown(sanitize_markdown(item["question"], images=False))
        with st.chat_message("assistant"):
            render_result(item["result"], turn)
