"""Plotly figures for the dashboard: passage scores against the threshold, and calibration.

Pure figure builders (no streamlit): the pages only hand them to st.plotly_chart.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import plotly.graph_objects as go

PASSED = "#2e7d32"
BELOW = "#9e9e9e"
IN_BASE = "#1f77b4"
OFF_TOPIC = "#d62728"


def _threshold_line(fig: go.Figure, value: float, label: str, color: str, dash: str, vertical: bool) -> None:
    common = dict(line_color=color, line_dash=dash, line_width=2, annotation_text=f"{label} {value:.3f}")
    if vertical:
        fig.add_vline(x=value, annotation_position="top", **common)
    else:
        fig.add_hline(y=value, annotation_position="top left", **common)


def score_chart(rows: Sequence[Mapping[str, Any]], threshold: float | None) -> go.Figure:
    """One bar a retrieved passage ([n] on x, dense cosine on y), the threshold as a line."""
    scores = [float(r["score"]) for r in rows]
    fig = go.Figure(
        go.Bar(
            x=[f"[{r['n']}]" for r in rows],
            y=scores,
            marker_color=[PASSED if r.get("passed") else BELOW for r in rows],
            text=[f"{s:.3f}" for s in scores],
            textposition="outside",
            hovertext=[str(r.get("label", "")) for r in rows],
            hovertemplate="%{x} %{hovertext}<br>score %{y:.3f}<extra></extra>",
        )
    )
    if threshold is not None:
        _threshold_line(fig, float(threshold), "threshold", "#e65100", "dash", vertical=False)
    # Cosine scores of one model sit in a narrow band: zoom on it so differences are visible.
    low = min(scores + ([threshold] if threshold is not None else []), default=0.0)
    fig.update_layout(
        height=260, margin=dict(l=10, r=10, t=30, b=10), showlegend=False,
        yaxis=dict(title="score", range=[max(0.0, low - 0.05), 1.0]), xaxis=dict(title="passage"),
    )
    return fig


def _jitter(i: int) -> float:
    # Deterministic spread so identical scores stay visible and the chart is stable across reruns.
    return ((i * 37) % 11 - 5) / 40


def calibration_chart(
    rows: Sequence[Mapping[str, Any]],
    current: float | None = None,
    suggested: float | None = None,
    chosen: float | None = None,
) -> go.Figure:
    """Top-1 scores as dots, in-base and off-topic on two lanes, with the thresholds as lines."""
    fig = go.Figure()
    for lane, (name, in_base, color) in enumerate(
        (("in-base (the blog answers)", True, IN_BASE), ("off-topic (it does not)", False, OFF_TOPIC))
    ):
        group = [r for r in rows if bool(r.get("in_base")) == in_base and r.get("top1_score") is not None]
        fig.add_trace(
            go.Scatter(
                x=[float(r["top1_score"]) for r in group],
                y=[lane + _jitter(i) for i in range(len(group))],
                mode="markers",
                name=f"{name}: {len(group)}",
                marker=dict(color=color, size=9, opacity=0.75, line=dict(width=1, color="white")),
                hovertext=[f"{r.get('id')}: {str(r.get('question', ''))[:80]}" for r in group],
                hovertemplate="%{hovertext}<br>top-1 score %{x:.3f}<extra></extra>",
            )
        )
    if current is not None:
        _threshold_line(fig, float(current), "current", "#e65100", "dash", vertical=True)
    if suggested is not None and suggested != current:
        _threshold_line(fig, float(suggested), "suggested", PASSED, "dot", vertical=True)
    if chosen is not None and chosen not in (current, suggested):
        _threshold_line(fig, float(chosen), "slider", "#6a1b9a", "solid", vertical=True)
    fig.update_layout(
        height=320, margin=dict(l=10, r=10, t=40, b=10),
        xaxis=dict(title="score of the best passage (dense cosine)"),
        yaxis=dict(tickvals=[0, 1], ticktext=["in-base", "off-topic"], range=[-0.6, 1.6]),
        legend=dict(orientation="h", y=-0.25),
    )
    return fig
