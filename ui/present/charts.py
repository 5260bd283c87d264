"""Plotly figures for the dashboard: passage scores against the threshold, and calibration.

Pure figure builders (no streamlit): the pages only hand them to st.plotly_chart.
"""

from __future__ import annotations

import math
import textwrap
from datetime import date
from typing import Any, Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from rag.evaluate.results import GateShares, QuestionRow, rows_of
from rag.i18n import current
from rag.i18n.dates import day_text
from rag.i18n.numbers import PLOTLY_SEPARATORS, decimal, percent, percent_sign, threshold_text
from ui.i18n import t

PASSED = "#2e7d32"
BELOW = "#9e9e9e"
IN_BASE = "#1f77b4"
OFF_TOPIC = "#d62728"


def _localized(fig: go.Figure) -> go.Figure:
    """Axis ticks and %{x:.3f} in hover texts with the reader's decimal mark (0,84 in French)."""
    fig.update_layout(separators=PLOTLY_SEPARATORS[current()])
    return fig


LABEL_STEP = 16  # px between the labels of vertical lines drawn close together
RIGHT_LABELS = 80  # px of right margin for a horizontal line's label, which sits there
# px at the top of every figure left to Plotly's toolbar (its buttons are 26 px high, 2 px from the
# top, over the figure's right end): a line's label drawn there would be hidden under it.
TOOLBAR = 32
LINE_LABEL = 18  # px a line's label takes above the plot (12 px type)
LEGEND_ROW = 40  # the room a one-row legend under a chart takes
LEGEND_CHARS = 40  # a legend entry wraps after this many characters: a phone's 390 px hold 45
TITLE_CHARS = 48  # a title too (its type is a little larger than the legend's)

# What the chart's toolbar keeps: a picture of the chart (the editors' download), zoom, pan and back.
# Plotly's zoom in/out and autoscale are left out (a double click zooms back out), and so is
# Streamlit's own "Fullscreen" button, whose tip Streamlit writes in English: naming the buttons
# (modeBarButtons) draws exactly these.
TOOLBAR_BUTTONS = ["toImage", "zoom2d", "pan2d", "resetScale2d"]
# Plotly's own words on those buttons and in the notes they show, with the catalogue key that says
# them in the page's language (Plotly's dictionary format: its English text -> the shown text).
TOOLBAR_WORDS = {
    "Download plot as a PNG": "chart.tb_png",
    "Download plot": "chart.tb_download",
    "Zoom": "chart.tb_zoom",
    "Pan": "chart.tb_pan",
    "Reset axes": "chart.tb_reset",
    "Double-click to zoom back out": "chart.tb_double_click",
    "Taking snapshot - this may take a few seconds": "chart.tb_taking",
    "Snapshot succeeded": "chart.tb_taken",
    "Sorry, there was a problem downloading your image!": "chart.tb_failed",
}


def plotly_config() -> dict[str, Any]:
    """st.plotly_chart's `config` for every chart of the dashboard: the toolbar's buttons, their
    tips in the page's language (a locale given to Plotly with its dictionary: Streamlit's bundle of
    Plotly holds English alone), no Plotly logo, and a picture named in that language."""
    lang = current()
    words = {english: t(key) for english, key in TOOLBAR_WORDS.items()}
    return {
        "displaylogo": False,
        "modeBarButtons": [list(TOOLBAR_BUTTONS)],
        "locale": lang,
        "locales": {lang: {"dictionary": words}},
        "toImageButtonOptions": {"format": "png", "filename": t("chart.file"), "scale": 2},
    }


def wrapped(text: str, width: int = LEGEND_CHARS) -> str:
    """`text` broken into lines of at most `width` characters at spaces (Plotly's <br>): a legend
    entry or a title Plotly would otherwise cut at the right edge of a phone's screen. French puts a
    space before : ; ? ! that never begins a line, and a last word as short as a count stays on the
    line before it."""
    for mark in ":;?!":
        text = text.replace(f" {mark}", f"\u00a0{mark}")  # textwrap breaks at ASCII spaces alone
    lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
    if len(lines) > 1 and len(lines[-1]) <= 3:
        lines[-2:] = [f"{lines[-2]} {lines[-1]}"]
    return "<br>".join(lines).replace("\u00a0", " ") or text  # Plotly breaks at <br> alone


def _legend_below() -> dict[str, Any]:
    """A legend under the x axis's title, whatever the plot's height: placed from the figure's bottom
    (the margin grows to hold its rows), its entries side by side while they fit the width."""
    return dict(orientation="h", yref="container", y=0, yanchor="bottom", x=0, xanchor="left")


def _color_key(fig: go.Figure, entries: Sequence[tuple[str, str]]) -> None:
    """A legend for bars coloured one by one: an entry (label, colour) a colour, drawn with no bar
    of its own; the bars themselves stay one trace, out of the legend."""
    fig.data[0].showlegend = False
    for label, color in entries:
        fig.add_trace(go.Bar(x=[None], y=[None], name=wrapped(label), marker_color=color, showlegend=True,
                             hoverinfo="skip"))


def _threshold_line(fig: go.Figure, value: float, label: str, color: str, dash: str, vertical: bool,
                    level: int = 0) -> None:
    """A threshold as a line with its label; `level` raises a vertical line's label by one row, so
    that labels of nearby lines (current, suggested, slider) do not overlap."""
    common = dict(line_color=color, line_dash=dash, line_width=2, annotation_text=label)
    if vertical:
        fig.add_vline(x=value, annotation_position="top", annotation_yshift=LABEL_STEP * level,
                      annotation_font_color=color, **common)
    else:
        # Right of the plot area, in the margin: over the bars it would hide bar [1]'s label.
        fig.add_hline(y=value, annotation_position="right", annotation_font_color=color, **common)


SCORE_HEIGHT = 260
# px of the score chart's plot area: its height less the margins and the x axis's ticks and title.
SCORE_PLOT = SCORE_HEIGHT - TOOLBAR - 10 - 45


def score_range(scores: Sequence[float], threshold: float | None) -> tuple[float, float]:
    """The y axis's range: zoomed on the band a model's cosine scores sit in, so that differences
    show, with room under the lowest bar (or the line) for a score written inside a bar."""
    low = min([*scores, *([threshold] if threshold is not None else [])], default=0.0)
    share = (LINE_LABEL + 6) / SCORE_PLOT  # of the axis's span, one label's height with its padding
    room = max(0.05, share * (1.0 - low) / (1.0 - share))
    return max(0.0, low - room), 1.0


def bar_text_positions(scores: Sequence[float], threshold: float | None, span: tuple[float, float],
                       plot_px: float = SCORE_PLOT) -> list[str]:
    """Where each bar's score is written: above the bar, unless the threshold's line runs through
    that place (a bar a little under the line); then inside the bar, at its top, under the line."""
    if threshold is None:
        return ["outside"] * len(scores)
    per_px = (span[1] - span[0]) / plot_px
    return ["inside" if s - 2 * per_px <= threshold <= s + (LINE_LABEL + 2) * per_px else "outside" for s in scores]


def _label_rows(rows: int) -> int:
    """The top margin for `rows` rows of line labels above the plot, under the toolbar's band."""
    return TOOLBAR + (LINE_LABEL + LABEL_STEP * (rows - 1) if rows else 0)


def score_chart(rows: Sequence[Mapping[str, Any]], threshold: float | None) -> go.Figure:
    """One bar a retrieved passage ([n] on x, dense cosine on y), the threshold as a line."""
    scores = [float(r["score"]) for r in rows]
    line = float(threshold) if threshold is not None else None
    span = score_range(scores, line)
    fig = go.Figure(
        go.Bar(
            x=[f"[{r['n']}]" for r in rows],
            y=scores,
            marker_color=[PASSED if r.get("passed") else BELOW for r in rows],
            text=[decimal(s, 2) for s in scores],
            textposition=bar_text_positions(scores, line, span),
            insidetextanchor="end",
            hovertext=[str(r.get("label", "")) for r in rows],
            hovertemplate="%{x} %{hovertext}<br>%{y:.3f}<extra></extra>",
        )
    )
    if line is not None:
        _threshold_line(fig, line, t("chart.threshold", value=threshold_text(line)), "#e65100", "dash",
                        vertical=False)
    used = {r.get("passed", False) for r in rows}
    _color_key(fig, [(t("chart.key_passed"), PASSED)] * (True in used) + [(t("chart.key_below"), BELOW)] * (False in used))
    fig.update_layout(
        height=SCORE_HEIGHT + LEGEND_ROW, margin=dict(l=10, r=RIGHT_LABELS, t=TOOLBAR, b=10 + LEGEND_ROW),
        showlegend=True, legend=_legend_below(),
        yaxis=dict(title=t("chart.score"), range=list(span)), xaxis=dict(title=t("chart.passage")),
    )
    return _localized(fig)


def _jitter(i: int) -> float:
    # Deterministic spread so identical scores stay visible and the chart is stable across reruns.
    return ((i * 37) % 11 - 5) / 40


def calibration_chart(
    rows: Sequence[QuestionRow | Mapping[str, Any]],
    current: float | None = None,
    suggested: float | None = None,
    chosen: float | None = None,
) -> go.Figure:
    """Top-1 scores as dots, in-base and off-topic on two lanes, with the thresholds as lines.

    `rows`: results rows, or the points of ui.present.evaluation.chart_rows."""
    points = [QuestionRow.of(r) for r in rows]
    fig = go.Figure()
    for lane, (name, in_base, color) in enumerate(
        ((t("chart.in_base"), True, IN_BASE), (t("chart.off_topic"), False, OFF_TOPIC))
    ):
        group = [r for r in points if bool(r.in_base) == in_base and r.top1_score is not None]
        fig.add_trace(
            go.Scatter(
                x=[float(r.top1_score) for r in group],
                y=[lane + _jitter(i) for i in range(len(group))],
                mode="markers",
                name=wrapped(t("chart.legend_count", name=name, n=len(group))),
                marker=dict(color=color, size=9, opacity=0.75, line=dict(width=1, color="white")),
                hovertext=[f"{r.id}: {str(r.question or '')[:80]}" for r in group],
                hovertemplate="%{hovertext}<br>%{x:.3f}<extra></extra>",
            )
        )
    lines = []
    if current is not None:
        lines.append((float(current), t("chart.current", value=decimal(float(current), 3)), "#e65100", "dash"))
    if suggested is not None and suggested != current:
        lines.append((float(suggested), t("chart.suggested", value=decimal(float(suggested), 3)), PASSED, "dot"))
    if chosen is not None and chosen not in (current, suggested):
        lines.append((float(chosen), t("chart.slider", value=decimal(float(chosen), 3)), "#6a1b9a", "solid"))
    for level, (value, label, color, dash) in enumerate(lines):  # one row of labels a line: none overlaps
        _threshold_line(fig, value, label, color, dash, vertical=True, level=level)
    fig.update_layout(
        height=340, margin=dict(l=10, r=10, t=_label_rows(len(lines)), b=70),
        xaxis=dict(title=t("chart.best_score")),
        yaxis=dict(tickvals=[0, 1], ticktext=[t("chart.lane_in"), t("chart.lane_out")], range=[-0.6, 1.6]),
        legend=_legend_below(),
    )
    return _localized(fig)


# The colours of the kinds chart, best first, with what each says (its legend).
_BANDS = (("chart.key_well", PASSED), ("chart.key_half", IN_BASE), ("chart.key_poor", OFF_TOPIC))


def _band_color(well: float) -> str:
    return PASSED if well >= 80 else IN_BASE if well >= 50 else OFF_TOPIC


def category_chart(table: pd.DataFrame) -> go.Figure:
    """One bar a kind of question: the share handled well (ui.present.evaluation.categories_frame)."""
    rows = table.iloc[::-1]  # plotly draws the first bar at the bottom
    well, kinds = rows[t("col.well")].tolist(), rows[t("col.category")].tolist()
    fig = go.Figure(go.Bar(
        x=well, y=kinds, orientation="h",
        marker_color=[_band_color(w) for w in well],
        text=[percent(w / 100) for w in well], textposition="auto",
        # "{name} : {n}" in French; %{x} has the axis's % already.
        hovertemplate=t("chart.legend_count", name="%{y}", n="%{x}") + "<extra></extra>",
    ))
    bands = [(t(key), color) for key, color in _BANDS if color in {_band_color(w) for w in well}]
    _color_key(fig, bands)
    height = TOOLBAR + 44 + 34 * len(well) + LEGEND_ROW
    fig.update_layout(
        height=height, margin=dict(l=10, r=10, t=TOOLBAR + 34, b=10 + LEGEND_ROW), showlegend=True,
        legend=_legend_below(),
        # Under the toolbar's band, above the bars: its two lines fit the margin left there.
        title=dict(text=wrapped(t("eval.well_chart"), TITLE_CHARS), font=dict(size=12),
                   yref="container", y=1 - TOOLBAR / height, yanchor="top"),
        xaxis=dict(range=[0, 100], ticksuffix=percent_sign()),
    )
    return _localized(fig)


UNKNOWN_NAME = "#ff9800"


# The gate chart's probability axis is logarithmic (drawn as log10 on a linear axis, whose lines'
# labels Plotly places right): the refusal cut-off sits near the bottom of a linear one, where the
# off-topic questions crowd. It starts here, and is labelled at PROBABILITY_TICKS.
LOWEST_PROBABILITY = 0.001
PROBABILITY_TICKS = (0.001, 0.01, 0.1, 0.5, 1.0)


def _log_p(p: float) -> float:
    return math.log10(max(LOWEST_PROBABILITY, min(1.0, p)))


def _gate_trace(fig: go.Figure, group: Sequence[tuple[QuestionRow, float, list[str]]], name: str, color: str,
                unknown: bool) -> None:
    fig.add_trace(go.Scatter(
        x=[float(r.cosine) for r, _, _ in group],
        y=[_log_p(p) for _, p, _ in group], customdata=[p for _, p, _ in group],
        mode="markers", name=wrapped(t("chart.legend_count", name=name, n=len(group))),
        marker=dict(color=color, size=9, opacity=0.75, symbol="x" if unknown else "circle",
                    line=dict(width=1, color="white")),
        hovertext=[f"{r.id}: {str(r.question or '')[:80]}"
                   + ("<br>" + t("chart.unknown_names", names=", ".join(words)) if words else "")
                   for r, _, words in group],
        hovertemplate="%{hovertext}<br>" + t("chart.gate_point") + "<extra></extra>",
    ))


def gate_chart(
    rows: Sequence[QuestionRow | Mapping[str, Any]],
    min_cosine: float,
    suggested: GateShares | Mapping[str, Any] | None = None,
    model: Any = None,
    min_coverage: float | None = None,
) -> go.Figure:
    """Each question at (best passage's cosine, the gate's probability that the articles answer
    it at the floor `min_cosine`), in-base and off-topic coloured, with the boundaries the live
    gate decides by: left of the floor or under the model's refusal cut-off a question is refused;
    between the cut-offs it goes to the chat model (unsure); from `answer_from` it is answered,
    unless a rare word of it is in no article (a cross: never answered with no doubt)."""
    from rag.answer.gate import load_model
    from rag.evaluate.calibration import row_decision, row_signals

    model = model or load_model()
    # Each row with the words its decision reads (`Signals.named`): a cross is a row never answered
    # with no doubt. A row the cosine alone decides (no word of it weighs) has no probability.
    placed = [(r, *row_decision(r, min_cosine, min_coverage, model=model), row_signals(r).named)
              for r in rows_of(rows) if r.cosine is not None]
    points = [(r, p, words) for r, _, p, words in placed if p is not None]
    alone = [(r, verdict) for r, verdict, p, _ in placed if p is None]
    fig = go.Figure()
    # One trace a colour and a mark, so that the legend explains each (a red dot, a blue cross).
    for name, in_base, color in ((t("chart.in_base"), True, IN_BASE), (t("chart.off_topic"), False, OFF_TOPIC)):
        for unknown in (False, True):
            group = [point for point in points if bool(point[0].in_base) == in_base and bool(point[2]) == unknown]
            if group:
                _gate_trace(fig, group, t("chart.names_unknown", kind=name) if unknown else name, color, unknown)
    if alone:  # at the top when let through, at the bottom when refused: the legend still counts every row
        fig.add_trace(go.Scatter(
            x=[float(r.cosine) for r, _ in alone],
            y=[_log_p(LOWEST_PROBABILITY if verdict == "refuse" else 1.0) for _, verdict in alone],
            mode="markers", name=wrapped(t("chart.legend_count", name=t("chart.closeness_alone"), n=len(alone))),
            marker=dict(color=[IN_BASE if r.in_base else OFF_TOPIC for r, _ in alone], size=9, opacity=0.75,
                        symbol="diamond", line=dict(width=1, color="white")),
            hovertext=[f"{r.id}: {str(r.question or '')[:80]}" for r, _ in alone],
            hovertemplate="%{hovertext}<br>" + t("chart.closeness_point") + "<extra></extra>",
        ))
    target = GateShares.of(suggested) if suggested else None
    floors = [min_cosine] + ([float(target.min_cosine)] if target is not None and target.min_cosine is not None else [])
    xs = [float(r.cosine) for r, _, _ in points] + [float(r.cosine) for r, _ in alone] + floors
    low, high = min(xs) - 0.01, max(xs) + 0.01
    fig.add_shape(type="rect", x0=min_cosine, x1=high, y0=_log_p(model.answer_from), y1=0.0,
                  fillcolor=PASSED, opacity=0.08, line_width=0)
    fig.add_shape(type="rect", x0=min_cosine, x1=high, y0=_log_p(model.refuse_below), y1=_log_p(model.answer_from),
                  fillcolor=UNKNOWN_NAME, opacity=0.08, line_width=0)
    _threshold_line(fig, min_cosine, t("chart.closeness", value=decimal(min_cosine, 3)), "#e65100", "dash", vertical=True)
    if len(floors) > 1:
        _threshold_line(fig, floors[1], t("chart.suggested", value=decimal(floors[1], 3)), PASSED, "dot",
                        vertical=True, level=1)
    _threshold_line(fig, _log_p(model.refuse_below), t("chart.refuse_below", value=decimal(model.refuse_below, 2)),
                    OFF_TOPIC, "dash", vertical=False)
    _threshold_line(fig, _log_p(model.answer_from), t("chart.answer_from", value=decimal(model.answer_from, 2)),
                    PASSED, "dash", vertical=False)
    fig.update_layout(
        # The cut-offs' labels sit right of the plot; the floors' above it, under the toolbar's band.
        height=460, margin=dict(l=10, r=RIGHT_LABELS, t=_label_rows(len(floors)), b=70),
        xaxis=dict(title=t("eval.gate_cosine"), range=[low, high]),
        yaxis=dict(title=t("eval.gate_probability"), range=[_log_p(LOWEST_PROBABILITY) - 0.1, 0.1],
                   tickvals=[_log_p(v) for v in PROBABILITY_TICKS],
                   ticktext=[decimal(v, 3).rstrip("0").rstrip(",.") for v in PROBABILITY_TICKS]),
        legend=_legend_below(),
    )
    return _localized(fig)


def journal_weeks_chart(weeks: Sequence[Mapping[str, Any]]) -> go.Figure:
    """Per week: questions answered, answered with the passages only and refused (stacked bars),
    thumbs up and down (lines)."""
    # The Monday each week starts, as the reader writes a day ("30 nov. 2026"), not ISO 8601.
    x = [day_text(date.fromisoformat(w["week"])) for w in weeks]
    fig = go.Figure()
    fig.add_bar(x=x, y=[w["answered"] for w in weeks], name=t("jr.chart_answered"), marker_color=PASSED)
    fig.add_bar(x=x, y=[w.get("passages_only", 0) for w in weeks], name=t("jr.chart_passages_only"),
                marker_color=UNKNOWN_NAME)
    fig.add_bar(x=x, y=[w["refused"] for w in weeks], name=t("jr.chart_refused"), marker_color=OFF_TOPIC)
    fig.add_scatter(x=x, y=[w["up"] for w in weeks], name=t("jr.chart_up"), mode="lines+markers",
                    line_color=IN_BASE)
    fig.add_scatter(x=x, y=[w["down"] for w in weeks], name=t("jr.chart_down"), mode="lines+markers",
                    line_color=BELOW, line_dash="dash")
    fig.update_layout(barmode="stack", height=340, margin=dict(l=10, r=10, t=TOOLBAR, b=60),
                      xaxis_title=t("jr.chart_week"), yaxis_title=t("jr.chart_count"),
                      legend=_legend_below())  # above the plot, the toolbar would cover its right end
    fig.update_xaxes(type="category")
    return _localized(fig)
