"""The evaluate page's pieces: question set, run with progress, metrics, calibration, tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Sequence

import streamlit as st

from ui.present import evaluation
from ui.present.charts import calibration_chart
from rag.demo import QUESTIONS_PATH
from rag.errors import QuestionSetError, RagError
from rag.evaluate.report import incomplete_notes
from rag.evaluate.runner import (CSV_FILE, compare, list_runs, load_run, make_answer_fn, new_run_dir, run_eval,
                            write_results)
from rag.evaluate.questions import Question, load_questions, questions_from_bytes
from ui import resources

RESULTS = "eval_results"  # {"runs": {collection: results}, "paths": {collection: folder}}
SHIPPED, UPLOADED = "The shipped demo set", "Upload a set (JSONL or CSV)"


def question_set() -> tuple[list[Question], str] | None:
    kind = st.radio("Question set", (SHIPPED, UPLOADED), horizontal=True)
    if kind == SHIPPED:
        return load_questions(QUESTIONS_PATH), "demo"
    upload = st.file_uploader("Question set", type=["jsonl", "ndjson", "json", "csv"], key="question_upload",
                              help="columns: id, question, expected_source, expected_answer, in_base, category, also_in")
    if upload is None:
        return None
    try:
        return questions_from_bytes(upload.getvalue(), upload.name), upload.name
    except QuestionSetError as exc:
        st.error(str(exc))
        return None


def run(questions: Sequence[Question], label: str, collections: Sequence[str], with_llm: bool,
        settings: Any, store: Any) -> None:
    """Replay the set on each collection, keep the results in the session and in the run history."""
    bar = st.progress(0.0, text="Starting…")
    runs, paths = {}, {}
    total = len(questions) * len(collections)
    for i, name in enumerate(collections):
        def progress(done: int, count: int, qid: str, i: int = i, name: str = name) -> None:
            bar.progress((i * count + done) / total, text=f"{name}: {done} of {count} questions ({qid})")

        try:
            info = store.collection_info(name)
            embedder = resources.embedder_for(settings, info)
            answer_fn = make_answer_fn(settings, llm=resources.llm(settings)) if with_llm else None
            results = run_eval(questions, store, embedder, name, top_k=settings.top_k, mode=resources.mode(),
                               threshold=settings.threshold, answer_fn=answer_fn, progress=progress,
                               groups=resources.groups(), question_set=label)
        except RagError as exc:
            bar.empty()
            st.error(f"{name}: {exc}")
            return
        folder = new_run_dir(settings, name)
        write_results(results, folder)
        runs[name], paths[name] = results, str(folder)
    bar.progress(1.0, text=f"Done: {len(questions)} questions on {', '.join(collections)}.")
    st.session_state[RESULTS] = {"runs": runs, "paths": paths}


def metrics(summary: Mapping[str, Any]) -> None:
    cards = evaluation.metric_cards(summary)
    for start in range(0, len(cards), 3):
        for col, card in zip(st.columns(3), cards[start:start + 3]):
            col.metric(card["label"], card["value"], border=True)
            col.caption(card["caption"])


def _use_suggested(key: str, value: float) -> None:
    st.session_state[key] = value


def calibration(name: str, results: Mapping[str, Any], store: Any) -> float:
    """The chart of top-1 scores and a threshold slider; returns the slider's threshold."""
    summary, rows = results["summary"], results["questions"]
    current, suggested = summary.get("threshold"), summary.get("suggested_threshold")
    cal = summary.get("calibration") or {}
    scores = [s for pair in evaluation.top1_scores(rows) for s in pair]
    low = round(max(0.0, min(scores + [current or 1.0]) - 0.05), 2)
    high = round(min(1.0, max(scores + [current or 0.0]) + 0.03), 2)
    key = f"slider_{name}"
    chosen = st.slider("Threshold", low, high, value=min(max(current or low, low), high), step=0.005,
                       format="%.3f", key=key,
                       help="move it: the counts and the table follow, nothing is re-run")
    at = evaluation.counts_at(rows, chosen)
    cols = st.columns(2)
    cols[0].metric("in-base answered at the slider", f"{at['in_base_accepted_count']} of {at['in_base_count']}")
    cols[1].metric("off-topic refused at the slider", f"{at['out_of_base_refused_count']} of {at['out_of_base_count']}")
    st.plotly_chart(calibration_chart(rows, current, suggested, chosen), key=f"calibration_{name}")
    st.caption(cal.get("overlap_sentence") or "")
    source = summary.get("threshold_source") or "setting"
    if suggested is None:
        st.caption(f"No suggested threshold: {cal.get('reason')}")
    else:
        st.caption(f"Current threshold {current:.3f} ({source}); suggested {suggested:.3f} ({cal.get('criterion')}).")
    cols = st.columns(2)
    if suggested is not None:
        cols[0].button(f"Set the slider to the suggested {suggested:.3f}", key=f"suggest_{name}",
                       on_click=_use_suggested, args=(key, suggested))
    if cols[1].button(f"Save {chosen:.3f} as the threshold of {name}", key=f"save_{name}"):
        try:
            store.set_threshold(name, chosen)
        except RagError as exc:
            st.error(str(exc))
        else:
            resources.refresh_status()
            st.success(f"Saved: questions on {name} now use the threshold {chosen:.3f} (unless a session threshold is set).")
    return chosen


def questions_table(name: str, rows: Sequence[Mapping[str, Any]], threshold: float) -> None:
    which = st.radio("Show", evaluation.FILTERS, horizontal=True, key=f"filter_{name}",
                     captions=[evaluation.FILTER_HELP[f] for f in evaluation.FILTERS])
    shown = evaluation.filter_rows(rows, which, threshold)
    st.caption(f"{len(shown)} of {len(rows)} questions")
    st.dataframe(evaluation.table_rows(shown, threshold), hide_index=True, key=f"questions_{name}")


def downloads(name: str, results: Mapping[str, Any], folder: str) -> None:
    cols = st.columns(2)
    csv = Path(folder) / CSV_FILE
    cols[0].download_button("Download the results (CSV)", csv.read_bytes() if csv.exists() else b"",
                            file_name=f"{name}-results.csv", mime="text/csv", key=f"csv_{name}")
    cols[1].download_button("Download the results (JSON)", json.dumps(results, ensure_ascii=False, indent=1),
                            file_name=f"{name}-results.json", mime="application/json", key=f"json_{name}")
    st.caption(f"Saved in {folder}")


def show_run(name: str, results: Mapping[str, Any], folder: str, store: Any) -> None:
    s = results["summary"]
    st.caption(
        f"{s.get('questions')} questions ({s.get('in_base')} in-base, {s.get('out_of_base')} off-topic) · "
        f"model `{s.get('model')}` · strategy `{s.get('strategy')}` · {s.get('mode')} retrieval · top {s.get('k')}"
        + (" · with the chat model" if s.get("llm") else " · retrieval only")
    )
    for note in incomplete_notes(s):
        st.warning(note.removeprefix("warning: "))
    metrics(s)
    st.markdown("#### Threshold calibration")
    chosen = calibration(name, results, store)
    st.markdown("#### Questions")
    questions_table(name, results["questions"], chosen)
    downloads(name, results, folder)


def comparison(a: Mapping[str, Any], b: Mapping[str, Any]) -> None:
    cmp = compare(a, b)
    st.caption(f"A = {cmp['a'].get('collection')} ({cmp['a'].get('date')}), "
               f"B = {cmp['b'].get('collection')} ({cmp['b'].get('date')})")
    st.dataframe(evaluation.comparison_rows(cmp), hide_index=True)
    found = cmp["found"]
    st.markdown(f"Expected article found by both: **{len(found['both'])}**, by A only: **{len(found['a_only'])}**, "
                f"by B only: **{len(found['b_only'])}**, by neither: **{len(found['neither'])}**")
    if cmp["rank_changes"]:
        st.dataframe(cmp["rank_changes"], hide_index=True)


def earlier_runs(settings: Any, current: Mapping[str, Any] | None) -> None:
    runs = list_runs(settings)
    if not runs:
        st.caption("No run saved yet.")
        return
    st.dataframe(evaluation.runs_table(runs), hide_index=True, key="runs")
    if current is None:
        return
    labels = {r["path"]: evaluation.run_label(r) for r in runs}
    path = st.selectbox("Compare the first run above with", list(labels), format_func=labels.get, index=None,
                        key="earlier_run")
    if path:
        try:
            comparison(load_run(path), current)
        except RagError as exc:
            st.error(str(exc))
