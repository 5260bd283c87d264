"""The dashboard's charts on a phone (390 px wide) as on a laptop: legends under the plot with
entries short enough not to be cut at the right edge, no label under Plotly's toolbar (the band at
the figure's top right), no score written across the threshold's line, and the toolbar's tips in
the page's language. The figures are pure (ui.present.charts); tests/ui/test_browser_phone_charts.py
looks at them drawn in chromium."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rag.i18n
from ui.present import charts
from ui.present.charts import (LEGEND_CHARS, LINE_LABEL, SCORE_PLOT, TITLE_CHARS, TOOLBAR, bar_text_positions,
                               calibration_chart, category_chart, gate_chart, journal_weeks_chart, plotly_config,
                               score_chart, score_range, wrapped)

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = [
    {"id": f"q{i}", "question": "?", "in_base": in_base, "cosine": cos, "top1_score": cos, "coverage": cov,
     "passage_coverage": cov, "unknown": 1 - cov, "unknown_names": names, "subject_words": names}
    for i, (in_base, names, cos, cov) in enumerate([
        (True, [], 0.86, 0.9), (True, ["Okta"], 0.84, 0.8), (False, [], 0.80, 0.3), (False, ["Okta"], 0.83, 0.7),
        (True, [], 0.81, 0.95), (False, [], 0.78, 0.1)])
]


@pytest.fixture(params=["fr", "en"])
def lang(request):
    with rag.i18n.language(request.param):
        yield request.param


def _lines(text: str) -> list[str]:
    return text.split("<br>")


def test_legends_sit_under_the_plot_with_entries_a_phone_can_show(lang):
    """Bug: at 390 px the gate chart's legend was cut on the right ("…ne mentionne (×, r")."""
    figures = [gate_chart(QUESTIONS, 0.82), calibration_chart(QUESTIONS, current=0.82),
               journal_weeks_chart([{"week": "2026-W48", "answered": 3, "refused": 1, "up": 1, "down": 0}])]
    for fig in figures:
        legend = fig.layout.legend
        assert (legend.orientation, legend.yref, legend.y, legend.yanchor) == ("h", "container", 0, "bottom")
        assert fig.layout.margin.b >= 60  # the x axis's title keeps its place above the legend
        for trace in fig.data:
            assert all(len(line) <= LEGEND_CHARS for line in _lines(trace.name)), trace.name
    long_names = [tr.name for tr in figures[0].data if "<br>" in tr.name]
    assert len(long_names) == 2  # the two "a rare word in no article" entries are wrapped
    assert all(name.endswith(": 1") or name.endswith(": 2") for name in long_names)  # the count kept on its line


def test_wrapping_never_starts_a_line_with_french_punctuation_or_leaves_a_count_alone():
    text = "question piège, nomme ce qu'aucun article ne mentionne (×, refusée) : 12"
    lines = _lines(wrapped(text, 36))
    assert len(lines) == 2 and lines[-1].endswith("(×, refusée) : 12") and not lines[-1].startswith(":")
    assert " ".join(lines) == text
    assert wrapped("un article répond : 2") == "un article répond : 2"


def test_no_line_label_is_drawn_in_the_toolbars_band(lang):
    """Bug: "proximité 0,820" above the gate chart was under the toolbar on a phone."""
    gate = gate_chart(QUESTIONS, 0.85)
    assert gate.layout.margin.t >= TOOLBAR + LINE_LABEL
    for lines in ((0.82,), (0.82, 0.815), (0.82, 0.815, 0.825)):
        fig = calibration_chart(QUESTIONS, *lines)
        highest = max((a.yshift or 0) for a in fig.layout.annotations)
        # A label's top, counted from the figure's top: the margin less its raise and its height.
        assert fig.layout.margin.t - highest - LINE_LABEL >= TOOLBAR, lines
    scores = score_chart([{"n": 1, "score": 0.9, "passed": True}], 0.8)
    assert scores.layout.margin.t >= TOOLBAR
    weeks = category_chart(_kinds())
    title = weeks.layout.title
    assert (1 - title.y) * weeks.layout.height >= TOOLBAR and title.yanchor == "top"
    assert len(_lines(title.text)) == 2 and all(len(line) <= TITLE_CHARS for line in _lines(title.text))


def _kinds():
    import pandas as pd

    from ui.i18n import t

    return pd.DataFrame({t("col.category"): ["identifiant", "procédure", "piège"], t("col.well"): [90, 60, 30]})


def test_a_bar_just_under_the_threshold_has_its_score_inside_not_across_the_line():
    """Bug: on the Ask page, the label 0,82 above a bar of 0.82 was crossed by the 0.83 line."""
    rows = [{"n": n, "score": s, "passed": s >= 0.83} for n, s in enumerate([0.82, 0.86, 0.79, 0.84], 1)]
    fig = score_chart(rows, 0.83)
    assert list(fig.data[0].textposition) == ["inside", "outside", "outside", "outside"]
    assert fig.data[0].insidetextanchor == "end"  # at the bar's top, under the line
    assert list(fig.data[0].text) == ["0.82", "0.86", "0.79", "0.84"]
    # Far from every bar's label, the line leaves them all above their bars.
    assert bar_text_positions([0.95, 0.70], 0.83, (0.6, 1.0)) == ["outside", "outside"]
    assert bar_text_positions([0.95], None, (0.6, 1.0)) == ["outside"]


@pytest.mark.parametrize("low", [0.78, 0.5, 0.2])
def test_the_lowest_bar_is_tall_enough_for_its_score_inside(low):
    bottom, top = score_range([low, 0.9], 0.85)
    assert top == 1.0 and bottom < low
    assert (low - bottom) / (top - bottom) * SCORE_PLOT >= LINE_LABEL + 4


def test_the_toolbar_speaks_the_pages_language_and_keeps_the_editors_picture():
    with rag.i18n.language("fr"):
        fr = plotly_config()
    with rag.i18n.language("en"):
        en = plotly_config()
    assert fr["locale"] == "fr" and en["locale"] == "en"
    words = fr["locales"]["fr"]["dictionary"]
    assert words["Download plot as a PNG"] == "Télécharger le graphique (PNG)" and words["Pan"] == "Déplacer"
    assert set(words) == set(charts.TOOLBAR_WORDS) and all(words[k] != k for k in words if k != "Zoom")
    assert en["locales"]["en"]["dictionary"]["Reset axes"] == "Reset axes"
    # Named buttons alone: the picture, zoom, pan and back; no logo, no Streamlit "Fullscreen".
    assert fr["modeBarButtons"] == [["toImage", "zoom2d", "pan2d", "resetScale2d"]] and fr["displaylogo"] is False
    assert fr["toImageButtonOptions"]["filename"] == "graphique" and en["toImageButtonOptions"]["filename"] == "chart"


def test_every_chart_of_the_dashboard_is_drawn_with_that_toolbar():
    calls = 0
    for path in [*(ROOT / "ui").rglob("*.py"), *(ROOT / "app_pages").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "plotly_chart":
                calls += 1
                config = {k.arg: k.value for k in node.keywords}.get("config")
                assert (isinstance(config, ast.Call) and isinstance(config.func, ast.Name)
                        and config.func.id == "plotly_config"), f"{path.name}:{node.lineno}"
    assert calls >= 5


def test_every_chart_says_what_its_colours_mean():
    """The kinds chart's green, blue and red bars and the Ask page's green and grey ones had no
    legend: every chart names each colour it draws, in the reader's language."""
    from ui.present import evaluation
    from ui.present.charts import calibration_chart, category_chart, score_chart

    rows = [{"id": "a", "question": "qa", "in_base": True, "top1_score": 0.9, "rank": 1, "category": "identifier",
             "retrieved": [{"url": "x.md", "score": 0.9}]},
            {"id": "b", "question": "qb", "in_base": True, "top1_score": 0.7, "rank": None, "category": "table",
             "retrieved": []}]
    with rag.i18n.language("fr"):
        figures = {
            "kinds": category_chart(evaluation.categories_frame(rows, 0.85)),
            "scores": score_chart([{"n": 1, "score": 0.9, "passed": True}, {"n": 2, "score": 0.8, "passed": False}], 0.85),
            "calibration": calibration_chart(rows, current=0.85, suggested=0.8),
        }
    for name, fig in figures.items():
        entries = [trace.name for trace in fig.data if trace.showlegend is not False and trace.name]
        assert fig.layout.showlegend is not False and entries, name
    kinds = [trace.name for trace in figures["kinds"].data if trace.showlegend]
    assert kinds == ["80 % ou plus bien traitées", "moins de 50 %"]  # the colours drawn, no other
    assert [trace.name for trace in figures["scores"].data if trace.showlegend] == ["au-dessus du seuil", "sous le seuil"]
