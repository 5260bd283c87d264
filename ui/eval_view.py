"""The evaluate page's pieces: question set, run with progress, metrics, calibration, tables."""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

import streamlit as st

from rag.auth import access
from ui.present import evaluation
from ui.present.evaluation import WordChecks
from ui.present.charts import calibration_chart, category_chart, gate_chart, plotly_config
from ui.present.safe_markdown import escape_link_text, sanitize_markdown
from rag.answer.gate import save_calibration
from rag.answer.threshold import MODEL_DEFAULT
from rag.errors import QuestionSetError, RagError
from rag.evaluate.calibration import small_sample_warning
from rag.evaluate.report import incomplete_notes
from rag.evaluate.compare import compare
from rag.evaluate.results import Comparison, GateShares, QuestionRow, Results, Summary, ThresholdShares
from rag.evaluate.session import EvalSession
from rag.evaluate.runs import list_runs, load_run, new_run_dir, write_results
from rag.evaluate.runs import results_csv
from rag.evaluate.questions import Question, questions_from_bytes
from rag.evaluate.question_sets import DEMO, load_set, saved_sets, set_path
from ui import before_sign_in, lang, question_set_editor, stop_button, uploads
from ui import resources
from ui.i18n import formatter, option_of, t, tn
from ui.kept import kept
from rag.i18n import current
from rag.i18n.numbers import decimal

STOP = "eval_stop"
RESULTS = "eval_results"  # {"runs": {collection: results}, "paths": {collection: folder}}
SAVED = "eval_saved"  # (collection, threshold) just saved: said once, after the rerun that shows it
SHIPPED, SAVED_SET, UPLOADED = "shipped", "saved", "uploaded"
_SET_WORDS = {SHIPPED: "eval.shipped", SAVED_SET: "eval.saved_set", UPLOADED: "eval.upload"}


def question_set() -> tuple[list[Question], str] | None:
    data_dir = resources.settings().data_dir
    saved = [n for n in saved_sets(data_dir) if n != DEMO]
    kinds = (SHIPPED, SAVED_SET, UPLOADED) if saved else (SHIPPED, UPLOADED)
    if st.session_state.get("question_set_kind_kept") not in kinds:  # a saved set since deleted
        st.session_state["question_set_kind_kept"] = SHIPPED
    # Kept apart from the widget (ui.kept): its label changes with the language, and the browser
    # then drew the shipped set chosen beside the uploaded set's results.
    kind = option_of(kept(st.radio, t("eval.set"), "question_set_kind_kept", "question_set_kind", options=kinds,
                          horizontal=True, format_func=formatter(kinds, _SET_WORDS.get)), kinds, _SET_WORDS.get)
    if kind in (SHIPPED, SAVED_SET):
        if st.session_state.get("question_set_name_kept") not in saved:
            st.session_state["question_set_name_kept"] = saved[0] if saved else None
        name = DEMO if kind == SHIPPED else kept(st.selectbox, t("eval.saved_set"), "question_set_name_kept",
                                                 "question_set_name", options=saved, placeholder=t("select.choose"))
        try:
            questions = load_set(data_dir, name)
        except QuestionSetError as exc:
            lang.error(str(exc))
            return None
        if kind == SHIPPED and set_path(data_dir, DEMO).exists():
            st.caption(t("eval.demo_edited", path=str(set_path(data_dir, DEMO))))
        question_set_editor.editor(data_dir, name, questions)
        return questions, name
    upload = uploads.file_uploader(t("eval.set"), ["jsonl", "ndjson", "json", "csv"], key="question_upload",
                                   label_visibility="collapsed")
    st.markdown(t("eval.format") + "\n\n" + t("eval.format_rows"))
    if upload is None:
        return None
    try:
        return questions_from_bytes(upload.getvalue(), upload.name), upload.name
    except QuestionSetError as exc:
        lang.error(str(exc))
        return None


def estimate(questions: int, collections: int, with_llm: bool, settings: Any) -> str:
    """How long the run will take, said before it starts."""
    guess = evaluation.estimate_seconds(list_runs(settings), questions, collections, with_llm)
    text = tn("eval.eta", collections, questions=questions, estimate=evaluation.duration_text(guess.seconds))
    if guess.chat_seconds is not None:
        text += " " + t("eval.eta_chat", chat=evaluation.duration_text(guess.chat_seconds))
    if getattr(settings, "query_rewrite", "off") != "off" or getattr(settings, "llm_rerank", False):
        text += " " + t("eval.eta_levers")  # the search itself waits for the chat model then
    return text + " " + t("eval.eta_learnt" if guess.learnt else "eval.eta_first")


def set_elsewhere(questions: Sequence[Question], collections: Sequence[str], store: Any) -> None:
    """Before a run: a collection holding none of the articles the set expects (the demo's set on
    the reader's own articles) would only count misses; said, with where a fitting set comes from."""
    from rag.evaluate.runner import unknown_sources

    expected = {u for q in questions if q.in_base for u in q.accepted_urls}
    for name in collections if expected else ():
        if len(unknown_sources(store, name, questions, resources.groups())) == len(expected):
            st.warning(tn("eval.set_elsewhere", len(expected), name=escape_link_text(name)), icon=":material/warning:")


def why_no_run(picked: Any, chosen: Sequence[str], names: Sequence[str], session_collection: str) -> None:
    """Under a greyed-out run button: what is missing and where to get it."""
    reasons = evaluation.why_no_run(bool(picked), chosen, names, session_collection)
    if not reasons:
        return
    st.info("\n\n".join(reasons), icon=":material/info:")
    if not chosen and session_collection not in names:  # nothing indexed to choose: the pages that index
        with st.container(horizontal=True):
            st.page_link("app_pages/2_Ingest.py", label=t("nav.ingest"), icon=":material/upload_file:")
            st.page_link("app_pages/1_Ask.py", label=t("nav.ask"), icon=":material/forum:")


def run(questions: Sequence[Question], label: str, collections: Sequence[str], with_llm: bool,
        settings: Any, store: Any) -> None:
    """Replay the set on each collection, keep the results in the session and in the run history.

    Two collections are measured at one threshold (rag.evaluate.compare.shared_threshold), so a
    threshold saved on one of them does not read as a strategy effect.
    """
    bar = st.progress(0.0, text=t("eval.starting"))
    stop = stop_button.offer(STOP, t("eval.stop"), t("eval.stop_said"))
    runs, paths = {}, {}
    total = len(questions) * len(collections)
    session = EvalSession(settings, store, questions, question_set=label, with_llm=with_llm,
                          llm=resources.llm(settings) if with_llm else None, mode=resources.mode(),
                          groups=resources.groups(), embedder_for=lambda info: resources.embedder_for(settings, info))
    shared = session.shared_floor(collections)
    for i, name in enumerate(collections):
        def progress(done: int, count: int, qid: str, i: int = i, name: str = name) -> None:
            overall = i * count + done
            bar.progress(overall / total, text=t("eval.progress", name=name, done=done, count=count,
                                                 overall=overall, total=total))

        try:
            results = session.run(name, shared, progress)
        except RagError as exc:
            bar.empty()
            stop.empty()
            lang.error(t("eval.failed", name=name), str(exc))
            return
        folder = new_run_dir(settings, name)
        write_results(results, folder)
        runs[name], paths[name] = results, str(folder)
        st.session_state.pop(f"slider_{name}", None)  # a new run starts at its own threshold
    stop.empty()
    bar.progress(1.0, text=t("eval.done", n=len(questions), names=", ".join(collections)))
    resources.refresh_status()  # a run with the model may have found LM Studio gone: the sidebar says so now
    st.session_state[RESULTS] = {"runs": runs, "paths": paths}


def metrics(summary: Summary, rows: Sequence[QuestionRow]) -> None:
    failure = evaluation.llm_failure(summary, rows)
    if failure and failure[0] == "down":
        st.error(t("eval.llm_down", n=failure[1], total=failure[2]), icon=":material/cloud_off:")
    elif failure:
        st.warning(t("eval.llm_some", n=failure[1], total=failure[2]), icon=":material/warning:")
    cards = evaluation.metric_cards(summary, with_answers=not (failure and failure[0] == "down"))
    for start in range(0, len(cards), 3):
        for col, card in zip(st.columns(3), cards[start:start + 3]):
            col.metric(card["label"], card["value"], border=True)
            col.caption(card["caption"])


def number_slider(label: str, low: float, high: float, step: float, places: int, key: str, initial: float,
                  keep: Sequence[float | None] = (), help: str | None = None) -> float:
    """A slider over numbers written the reader's way (0,833 in French): st.slider's printf format
    cannot write a decimal comma, a select_slider's format_func can.

    The value lives in the session only (no `value=`; a button's callback may set it). It is written
    back as a number before the widget: the widget keeps the text of its option, and that text
    changes with the language, so a French 0,833 would not be found among English options.
    """
    value = st.session_state.get(key)
    if not isinstance(value, (int, float)) or not low <= value <= high:
        value = min(max(initial, low), high)
    options = evaluation.slider_options(low, high, step, places, (*keep, value))
    st.session_state[key] = min(options, key=lambda option: abs(option - value))
    lang = current()  # Streamlit may format the options outside this run (AppTest does)
    return st.select_slider(label, options, format_func=lambda v: decimal(v, places, lang=lang), key=key, help=help)


def calibration(name: str, results: Results, store: Any, live_words: WordChecks | None = None) -> float:
    """The chart of top-1 scores and the page's one threshold slider; returns its threshold.

    With word statistics the slider is drawn in the gate section beside the word checks
    (`live_words`, from gate()): this section counts, charts, suggests and saves with them.
    """
    summary, rows = results.summary, results.questions
    measured = summary.threshold
    live, current, suggested = _floors(name, summary, store)
    cal = summary.calibration
    words = _words(summary, live_words)  # None: the cosine alone decides
    points = evaluation.chart_rows(rows, words)  # where the gate compares each question with the line
    key = f"slider_{name}"
    chosen = st.session_state[key] if live_words is not None else threshold_slider(name, results, store)
    counted = evaluation.threshold_counts(summary, rows, chosen, words)
    at = ThresholdShares.of(counted)
    if words is not None:
        st.caption(t("eval.with_words"))
    cols = st.columns(2)
    cols[0].metric(t("eval.at_slider_in"), t("eval.of", n=at.in_base_accepted_count, total=at.in_base_count))
    cols[1].metric(t("eval.at_slider_out"), t("eval.of", n=at.out_of_base_refused_count, total=at.out_of_base_count))
    st.plotly_chart(calibration_chart(points, current, suggested, chosen), key=f"calibration_{name}",
                    config=plotly_config())
    if words is not None:
        st.caption(t("eval.chart_compared"))
    with st.expander(t("details")):
        explained = _suggestion_source(summary, words, cal)
        st.caption(explained.overlap_sentence or "")
        if explained.criterion:
            st.caption(explained.criterion)
        if words is not None and cal.suggested is not None:
            alone = cal.at_suggested or ThresholdShares()
            st.caption(t("eval.score_alone", value=decimal(cal.suggested, 3), accepted=alone.in_base_accepted_count,
                         n_in=alone.in_base_count, refused=alone.out_of_base_refused_count,
                         n_out=alone.out_of_base_count))
    if suggested is None:
        reason = _suggestion_source(summary, words, cal).reason or cal.reason
        st.caption(t("eval.current_no_suggestion", value=decimal(measured, 3), reason=reason))
    elif (same := evaluation.same_counts(summary, rows, measured, suggested, words)) is not None:
        st.caption(t("eval.current_same", value=decimal(measured, 3), suggested=decimal(suggested, 3),
                     accepted=same.in_base_accepted_count, n_in=same.in_base_count,
                     refused=same.out_of_base_refused_count, n_out=same.out_of_base_count))
    else:
        st.caption(t("eval.current", value=decimal(measured, 3), suggested=decimal(suggested, 3)))
    if live is not None and live != measured:
        st.caption(t("eval.saved_now", value=decimal(live, 3)))
    cols = st.columns(2)
    if suggested is not None:
        cols[0].button(t("eval.use_suggested", value=decimal(suggested, 3)), key=f"suggest_{name}",
                       on_click=_use_suggested, args=(name, suggested))
    may_save = access.can(resources.role(), access.SAVE_THRESHOLD)
    if may_save and cols[1].button(t("eval.save", value=decimal(chosen, 3), name=name), key=f"save_{name}"):
        try:
            access.require(resources.role(), access.SAVE_THRESHOLD)  # checked again when it happens
            if words is None:
                store.set_threshold(name, chosen)
            else:  # the floor with the word checks it was counted with: what questions will now get
                save_calibration(store, name, counted, summary.question_set)
        except RagError as exc:
            lang.error(t("eval.save_failed"), str(exc))
        else:
            # Rerun now: the sidebar and the chart, drawn before this button, show the new value.
            resources.refresh_status()
            st.session_state[SAVED] = (name, chosen)
            st.rerun()
    saved = st.session_state.get(SAVED)
    if saved and saved[0] == name:
        st.session_state.pop(SAVED)
        st.success(t("eval.saved", name=name, value=decimal(saved[1], 3)), icon=":material/check_circle:")
        small_sample_note(summary)
    return chosen


def _floors(name: str, summary: Summary, store: Any) -> tuple[float | None, float | None, float | None]:
    """The floor saved on the collection since the run (or None), the floor questions use now,
    and the suggested floor (the gate's, with the words, when the run has word statistics)."""
    live = (store.collection_info(name) or {}).get("threshold")
    current = live if live is not None else summary.threshold
    suggested = summary.suggested_threshold
    words = evaluation.gate_words(summary)
    if words is not None:
        suggested = words.suggested.min_cosine if words.suggested else None
    return live, current, suggested


def threshold_slider(name: str, results: Results, store: Any) -> float:
    """The page's one closeness floor: the gate, the chart, the counts and the tables read it."""
    summary, rows = results.summary, results.questions
    _, current, suggested = _floors(name, summary, store)
    measured = summary.threshold
    points = evaluation.chart_rows(rows, evaluation.gate_words(summary))
    scores = [s for pair in (*evaluation.top1_scores(rows), *evaluation.top1_scores(points)) for s in pair]
    ends = [v for v in (current, suggested) if v is not None]
    low = round(max(0.0, min(scores + ends + [1.0]) - 0.05), 2)
    high = round(min(1.0, max(scores + ends + [0.0]) + 0.03), 2)
    return number_slider(t("eval.slider"), low, high, 0.005, 3, f"slider_{name}", initial=current or low,
                         keep=(current, suggested, measured), help=t("eval.slider_help"))


def small_sample_note(summary: Summary) -> None:
    """Beside a saved threshold: a warning when the run had too few questions to calibrate it."""
    few = small_sample_warning(int(summary.in_base or 0), int(summary.out_of_base or 0))
    if few:
        st.warning(few, icon=":material/warning:")


def _use_suggested(name: str, value: float) -> None:
    st.session_state[f"slider_{name}"] = value


def _suggestion_source(summary: Summary, words: WordChecks | None, cal: Any) -> Any:
    """What explains the suggested floor (its criterion, overlap and reason): the gate's calibration
    whenever the run had the gate (with its word checks, or with them off, where it suggests the floor
    alone), else the cosine calibration of a run without it."""
    if words is not None:
        return words
    return summary.gate.calibration if summary.gate is not None else cal


def _words(summary: Summary, live_words: WordChecks | None) -> WordChecks | None:
    """The word checks the page counts with: the gate section's controls, else the run's suggestion."""
    return live_words if live_words is not None else evaluation.gate_words(summary)


def categories(name: str, summary: Summary, rows: Sequence[QuestionRow], threshold: float,
               live_words: WordChecks | None = None) -> None:
    """Results per kind of question (the set's `category`), as a table and a chart."""
    table = evaluation.categories_frame(rows, threshold, _words(summary, live_words))
    if len(table) < 2:
        return
    st.markdown(f"#### {t('eval.categories')}")
    st.caption(t("eval.categories_note"))
    st.dataframe(table, hide_index=True, key=f"categories_{name}")
    st.plotly_chart(category_chart(table), key=f"category_chart_{name}", config=plotly_config())


def _gate_shares_line(key: str, shares: GateShares | None) -> str:
    if not shares:
        return t("eval.gate_none")
    return t(key, cosine=decimal(shares.min_cosine, 3),
             answered=shares.in_base_answered_count, inside=shares.in_base_count,
             refused=shares.off_topic_refused_count, outside=shares.off_topic_count)


def gate(name: str, results: Results, store: Any) -> WordChecks | None:
    """The answerability gate: the page's one threshold slider and where the live gate places
    each question at that floor. Returns the word checks the rest of the page counts with (None
    without word statistics or with the checks off: the threshold section draws the slider, the
    cosine alone decides)."""
    summary, rows = results.summary, results.questions
    words = evaluation.gate_words(summary)
    if words is None:
        # Without the word checks the live gate decides by the closeness alone: it has no probability
        # to place a question by, and the threshold's own chart is the gate's.
        st.caption(t("eval.gate_words_off" if summary.gate and summary.gate.terms else "eval.gate_no_terms"))
        return None
    info = summary.gate
    suggested = info.suggested
    cosine = threshold_slider(name, results, store)
    st.plotly_chart(gate_chart(rows, cosine, suggested, min_coverage=words.min_coverage), key=f"gate_chart_{name}",
                    config=plotly_config())
    st.caption(t("eval.gate_chart_help"))
    # The model's default floor is only where closeness is measured from; the slider's, like a
    # saved one, is a floor no passage under it crosses: the two counts can differ at one value.
    default = info.params.source == MODEL_DEFAULT
    st.caption(_gate_shares_line("eval.gate_current_default" if default else "eval.gate_current", info.at_current))
    st.caption(_gate_shares_line("eval.gate_suggested", suggested))
    return words


def questions_table(name: str, summary: Summary, rows: Sequence[QuestionRow], threshold: float,
                    live_words: WordChecks | None = None) -> None:
    words = _words(summary, live_words)  # refused and accepted as the threshold's counts say
    which = option_of(st.radio(t("eval.show"), evaluation.FILTERS, horizontal=True, key=f"filter_{name}",
                               format_func=formatter(evaluation.FILTERS, _filter_words),
                               captions=[evaluation.filter_help(f) for f in evaluation.FILTERS]),
                      evaluation.FILTERS, _filter_words)
    shown = evaluation.filter_rows(rows, which, threshold, words)
    st.caption(t("eval.count", n=len(shown), total=len(rows)))
    st.dataframe(evaluation.questions_frame(shown, threshold, words), hide_index=True, key=f"questions_{name}")


def false_refusals_table(name: str, rows: Sequence[QuestionRow]) -> None:
    """First what the gate got wrong: in-base questions it refused, with the word that decided."""
    from rag.evaluate.false_refusals import refused_in_base

    found = refused_in_base(rows)
    st.markdown(f"#### {t('eval.false_refusals')}")
    if not found:
        st.caption(t("eval.false_refusals_none"))
        return
    st.caption(tn("eval.false_refusals_help", len(found)))
    st.dataframe([{t("eval.fr_question"): f.question, t("eval.fr_words"): ", ".join(f.words),
                   t("eval.fr_reason"): t(f"eval.fr_reason.{f.reason}"),
                   t("eval.fr_score"): decimal(f.cosine, 3) if f.cosine is not None else ""}
                  for f in found], hide_index=True, key=f"false_refusals_{name}")


def _filter_words(which: str) -> str:
    return f"filter.{which}"


def downloads(name: str, results: Results, folder: str) -> None:
    data = results.to_dict()  # the file as written, every key in its place
    cols = st.columns(2)
    cols[0].download_button(t("eval.download_csv"), results_csv(data),
                            file_name=f"{name}-results.csv", mime="text/csv", key=f"csv_{name}")
    cols[1].download_button(t("eval.download_json"), json.dumps(data, ensure_ascii=False, indent=1),
                            file_name=f"{name}-results.json", mime="application/json", key=f"json_{name}")
    st.caption(t("eval.saved_in", folder=folder))


def show_run(name: str, results: Results | Mapping[str, Any], folder: str, store: Any) -> None:
    results = Results.of(results)  # the run as the session keeps it (results.json's dict), read once
    s, rows = results.summary, results.questions
    st.caption(
        t("eval.summary", questions=s.questions, in_base=s.in_base, out=s.out_of_base, strategy=s.strategy, k=s.k)
        + " · " + (t("eval.with_model") if s.llm else t("eval.retrieval_only"))
    )
    for note in incomplete_notes(s):
        # It names the set's own ids and addresses: shown as text, no link made of them.
        st.warning(sanitize_markdown(note, images=False, links=False))
    metrics(s, rows)
    false_refusals_table(name, rows)
    st.markdown(f"#### {t('eval.gate')}")
    words = gate(name, results, store)  # with word statistics, the one threshold slider is drawn there
    st.markdown(f"#### {t('eval.calibration')}")
    chosen = calibration(name, results, store, words)
    categories(name, s, rows, chosen, words)
    st.markdown(f"#### {t('eval.questions')}")
    questions_table(name, s, rows, chosen, words)
    downloads(name, results, folder)


def comparison(a: Results | Mapping[str, Any], b: Results | Mapping[str, Any]) -> None:
    cmp = Comparison.of(compare(a, b))
    st.caption(t("eval.cmp_sides", a=f"{cmp.a.collection} ({evaluation.run_date(cmp.a)})",
                 b=f"{cmp.b.collection} ({evaluation.run_date(cmp.b)})"))
    thresholds = cmp.metric("threshold")
    if thresholds.a is not None and thresholds.a == thresholds.b:
        st.caption(t("eval.cmp_threshold", value=decimal(thresholds.a, 3)))
    elif thresholds.a is not None and thresholds.b is not None:
        st.warning(t("eval.cmp_thresholds", a=decimal(thresholds.a, 3), b=decimal(thresholds.b, 3)))
    st.dataframe(evaluation.comparison_frame(cmp), hide_index=True)
    found = cmp.found
    st.markdown(t("eval.found_line", both=len(found.both), a=len(found.a_only), b=len(found.b_only),
                  none=len(found.neither)))
    if cmp.rank_changes:
        st.dataframe(evaluation.rank_changes_frame(cmp), hide_index=True)


def earlier_runs(settings: Any, current: Results | Mapping[str, Any] | None) -> None:
    runs = [Summary.of(r) for r in list_runs(settings, resources.groups())]  # only runs made with groups this session holds
    unlisted = before_sign_in.runs_note(settings, resources.groups())
    if unlisted:
        st.info(unlisted, icon=":material/lock:")
    if not runs:
        st.caption(t("eval.no_runs"))
        return
    st.dataframe(evaluation.runs_frame(runs), hide_index=True, key="runs")
    if current is None:
        return
    # The run on the page is listed too (it is saved): comparing it with itself says nothing.
    mine = Results.of(current).summary
    labels = {r.path: evaluation.run_label(r) for r in runs if (r.date, r.collection) != (mine.date, mine.collection)}
    if not labels:
        return
    path = st.selectbox(t("eval.compare_with"), list(labels), format_func=labels.get, index=None,
                        placeholder=t("eval.compare_placeholder"), key="earlier_run")
    if path:
        try:
            comparison(load_run(path), current)
        except RagError as exc:
            lang.error(str(exc))
