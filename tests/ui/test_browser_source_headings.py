"""In a real browser, a source's heading with a long title wraps as the small text it is: its lines
sit as close as the passage's own, not 34 px apart (the h3's size and line height around 14 px
type), and its `[n]` still jumps to it. The turn is drawn by the Ask page's own render_result."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fixtures.streamlit_server import streamlit_server
from tests.fixtures.chromium import chromium_page
from tests.ui.test_browser import MINUTE, ROOT, jump_to_citation, settle

pytestmark = pytest.mark.slow

SCRIPT = """
import streamlit as st
from rag.answer.pipeline import AskResult
from rag.answer.retrieve import Passage
from ui import ask_view

LONG = ("Kerberos et Active Directory : diagnostiquer les erreurs KDC_ERR_ETYPE_NOSUPP, KRB_AP_ERR_MODIFIED "
        "et le token bloat sur un domaine Windows Server 2022 en production")
sources = [Passage(1, 0.9, LONG, "Augmenter MaxTokenSize dans le registre sans redémarrer les contrôleurs",
                   "https://blog.example.com/kerberos-token-bloat", "MaxTokenSize se règle dans le registre. " * 80),
           Passage(2, 0.8, "klist", "purge", "klist.md", "klist purge efface les tickets. " * 12)]
answer = " ".join(f"mot{i}" for i in range(200)) + " MaxTokenSize [1], puis klist purge [2]."
result = AskResult(question="?", answer=answer, refused=False, passages=sources, sources=sources, collection="blog")
with st.chat_message("assistant"):
    ask_view.render_result(result, 0)
"""


@pytest.fixture
def page_url(tmp_path: Path):
    script = tmp_path / "turn.py"
    script.write_text(SCRIPT, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_") and not k.startswith("STREAMLIT_")}
    env.update(PYTHONPATH=str(ROOT), RAG_UI_LANG="fr", RAG_DATA_DIR=str(tmp_path / "data"))
    with streamlit_server(str(script), env, tmp_path / "streamlit.log") as url:
        yield url


def _lines(heading) -> dict[str, float]:
    """The heading's text: its font size, the height of one of its lines, and how many lines it takes."""
    return heading.evaluate("""h => {
        const text = h.querySelector('[data-heading-text] > span') || h;
        const style = getComputedStyle(text);
        const rects = [...text.getClientRects()];
        const tops = new Set(rects.map(r => Math.round(r.top)));
        const span = rects.length ? Math.max(...rects.map(r => r.bottom)) - Math.min(...rects.map(r => r.top)) : 0;
        return {size: parseFloat(style.fontSize), line: span / Math.max(tops.size, 1), lines: tops.size};
    }""")


def test_a_long_source_title_wraps_without_gaps_and_its_citation_still_jumps_to_it(page_url):
    from playwright.sync_api import expect

    with chromium_page(page_url, width=700, locale="fr-FR") as page:
        turn = page.get_by_test_id("stChatMessage")
        expect(turn).to_contain_text("Sources", timeout=MINUTE)
        settle(page)
        long_one, short_one = page.locator("#cite-blog-t0-1"), page.locator("#cite-blog-t0-2")
        wrapped, single = _lines(long_one), _lines(short_one)
        assert wrapped["lines"] >= 2, wrapped  # the window is narrow: the long title wraps
        assert single["lines"] == 1, single
        # Wrapped lines sit as close as a paragraph's (about 1.5 times the type), not 2.4 times.
        assert wrapped["line"] <= 1.7 * wrapped["size"], wrapped
        # The heading is as tall as its lines: no h3 padding around small type.
        box = long_one.bounding_box()
        assert box["height"] <= wrapped["lines"] * wrapped["line"] + 16, (box, wrapped)
        # [2] and [1] still jump to their sources, in this tab; from the bottom of the page, where
        # a chat keeps its reader, [2]'s source is out of sight below [1]'s long passage.
        page.mouse.wheel(0, 20_000)
        jump_to_citation(page, turn, 2, "cite-blog-t0-2")
        jump_to_citation(page, turn, 1, "cite-blog-t0-1", out_of_sight=False)
