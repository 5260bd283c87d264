"""The charts on a phone, in a real browser: a French chromium page 390 px wide. The score chart is
drawn by the Ask page's own render_result (an editor's passages), the Evaluate page's charts by
their builders with the dashboard's toolbar settings. Nothing is cut at the right edge, no label
lies under Plotly's toolbar or across the threshold's line, and the toolbar's tips are French."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.chromium import chromium_page
from tests.fixtures.streamlit_server import script_page
from tests.ui.test_browser import MINUTE, SHOTS, settle

pytestmark = pytest.mark.slow

SCRIPT = """
import pandas as pd
import streamlit as st
from rag.answer.pipeline import AskResult
from rag.answer.retrieve import Passage
from rag.auth.access import EDITOR
from ui import ask_view, frame, resources
from ui.i18n import t
from ui.present.charts import calibration_chart, category_chart, gate_chart, plotly_config

frame.page_config()  # the dashboard's: a wide page

# The walk-through's case: a passage at 0.82 just under the threshold 0.83.
passages = [Passage(n, s, f"Article {n}", "Section", f"a{n}.md", "MaxTokenSize se règle dans le registre.")
            for n, s in enumerate([0.82, 0.86, 0.79, 0.84], 1)]
result = AskResult(question="?", answer="MaxTokenSize [2].", refused=False, passages=passages,
                   sources=passages[1:2], threshold=0.83, accepted=[2, 4], cited=[2], collection="blog")
st.session_state[resources.ROLE] = EDITOR  # what the access gate sets in open mode: the scores are editors'
with st.chat_message("assistant"):
    ask_view.render_result(result, 0)

def row(i, in_base, names, cos, cov):
    return {"id": f"q{i}", "question": "?", "in_base": in_base, "cosine": cos, "top1_score": cos,
            "coverage": cov, "passage_coverage": cov, "unknown": 1 - cov, "unknown_names": names,
            "subject_words": names}

rows = [row(0, True, [], 0.86, 0.9), row(1, True, ["Okta"], 0.84, 0.8), row(2, False, [], 0.80, 0.3),
        row(3, False, ["Okta"], 0.83, 0.7), row(4, True, [], 0.81, 0.95), row(5, False, [], 0.78, 0.1)]
# The closeness floor near the plot's right end, where the toolbar is.
st.plotly_chart(gate_chart(rows, 0.85, {"min_cosine": 0.845}), key="gate",
                config=plotly_config())
st.plotly_chart(calibration_chart(rows, 0.85, 0.845, 0.855), key="calibration", config=plotly_config())
kinds = pd.DataFrame({t("col.category"): ["identifiant", "procédure", "piège"], t("col.well"): [90, 60, 30]})
st.plotly_chart(category_chart(kinds), key="kinds", config=plotly_config())
"""

# Every box a chart draws, in page pixels: the figure, its toolbar (shown on hover), its legend,
# the texts of its annotations (the lines' labels) and bars, its title, and the lines themselves.
BOXES = """plot => {
    const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top,
                                                                       bottom: r.bottom, text: e.textContent}; };
    const all = sel => [...plot.querySelectorAll(sel)].map(box);
    return {figure: box(plot.querySelector('.main-svg')), toolbar: all('.modebar'), legend: all('g.legend'),
            labels: all('g.annotation-text-g'), bars: all('.bartext'), title: all('.gtitle'),
            lines: all('.shapelayer path'),
            tips: [...plot.querySelectorAll('.modebar-btn')].map(b => b.getAttribute('data-title'))};
}"""


def _overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.fixture
def page_url(tmp_path: Path):
    with script_page(tmp_path, SCRIPT, RAG_UI_LANG="fr", RAG_DATA_DIR=str(tmp_path / "data")) as url:
        yield url


@pytest.mark.parametrize("width,height", [(390, 844), (1366, 768)])  # a phone, a laptop
def test_the_charts_are_whole_and_readable_on_a_phone(page_url, width, height):
    from playwright.sync_api import expect

    with chromium_page(page_url, width=width, height=height, locale="fr-FR") as page:
        turn = page.get_by_test_id("stChatMessage")
        expect(turn).to_contain_text("Sources", timeout=MINUTE)
        turn.get_by_text("passages trouvés").click()
        plots = page.locator(".js-plotly-plot")
        expect(plots).to_have_count(4, timeout=MINUTE)
        settle(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        seen = {}
        for name, plot in zip(("scores", "gate", "calibration", "kinds"), plots.all()):
            plot.scroll_into_view_if_needed()
            plot.hover()  # the toolbar shows while the pointer (or a finger) is on the chart
            expect(plot.locator(".modebar")).to_be_visible()
            page.wait_for_timeout(400)  # the chart's transitions
            plot.screenshot(path=SHOTS / f"chart-{width}-{name}.png")
            seen[name] = boxes = plot.evaluate(BOXES)
            figure, toolbar = boxes["figure"], boxes["toolbar"][0]
            assert figure["right"] <= width, (name, figure)
            for legend in boxes["legend"]:  # nothing of a legend beyond the figure's right edge
                assert legend["right"] <= figure["right"] + 1 and legend["bottom"] <= figure["bottom"] + 1, (name, legend)
            for text in boxes["labels"] + boxes["bars"] + boxes["title"]:
                assert not _overlap(text, toolbar), (name, text, toolbar)
                assert text["right"] <= figure["right"] + 1, (name, text)
            # French tips on the toolbar, no English one, no Streamlit "Fullscreen".
            assert boxes["tips"] == ["Télécharger le graphique (PNG)", "Zoomer sur une zone", "Déplacer",
                                     "Revenir à la vue d'origine"], (name, boxes["tips"])
        # On the score chart, no bar's score is crossed by the threshold's line (the one shape drawn).
        scores = seen["scores"]
        assert [b["text"] for b in scores["bars"]] == ["0,82", "0,86", "0,79", "0,84"]
        assert len(scores["lines"]) == 1
        for bar in scores["bars"]:
            assert not _overlap(bar, scores["lines"][0]), (bar, scores["lines"][0])
        # The gate's legend holds its four entries whole, the closeness floor's label is shown.
        gate = seen["gate"]
        assert "seuil 0,850" in [label["text"] for label in gate["labels"]]
        assert len(gate["legend"]) == 1 and "un mot rare" in gate["legend"][0]["text"]
        assert gate["legend"][0]["text"].count("(×) : 1") == 2


# A page in the dashboard's frame (its page config, .streamlit/config.toml) whose run lasts long
# enough for Streamlit to show its "Running..." status and "Stop" (half a second in, in 1.67).
SLOW_RUN = """
import time
import streamlit as st
from ui import frame

frame.page_config()
st.button("Relancer")
st.write("Début")
time.sleep(4)
st.write("Fin")
"""


def test_streamlits_english_menu_and_stop_are_not_drawn(tmp_path):
    """Bug: the top right of every page showed Streamlit's ⋮ menu ("System / Light / Dark / About /
    Made with Streamlit v1.67.0") and, during every run, "Running..." with "Stop", in English."""
    from playwright.sync_api import expect

    with script_page(tmp_path, SLOW_RUN, RAG_UI_LANG="fr") as url, \
            chromium_page(url, width=390, height=844, locale="fr-FR") as page:
        expect(page.get_by_text("Début")).to_be_visible(timeout=MINUTE)
        for run in range(2):  # the first run, then a rerun, as after every widget change
            page.wait_for_timeout(2000)  # well into the run's four seconds
            # Counted now, during the run (an expect would wait for the run's end, when they go).
            running = page.locator('[data-testid="stApp"][data-test-script-state="running"]')
            assert running.count() == 1, "the run is over already: the check would see nothing"
            drawn = {test_id: page.get_by_test_id(test_id).count()
                     for test_id in ("stStatusWidget", "stMainMenu", "stToolbarActions", "stAppDeployButton")}
            assert drawn == dict.fromkeys(drawn, 0), (run, drawn)
            assert page.get_by_text("Stop", exact=True).count() == 0
            if not run:
                page.screenshot(path=SHOTS / "phone-during-a-run.png")
                expect(page.get_by_text("Fin")).to_be_visible(timeout=MINUTE)
                settle(page)
                page.get_by_role("button", name="Relancer").click()
