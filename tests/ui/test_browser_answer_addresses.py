"""In a real browser, no form of address a model writes becomes a link (Streamlit's Markdown,
GFM autolinks included): each is shown as code. The inputs are those of
tests/answer/test_answer_addresses.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.answer.test_answer_addresses import HOSTILE
from tests.fixtures.streamlit_server import streamlit_server
from tests.ui.test_browser import CHROMIUM, CHROMIUM_ARGS, MINUTE, ROOT, settle

pytestmark = pytest.mark.slow

SCRIPT = """
import json, sys
import streamlit as st
from ui.present.answer import answer_text_markdown
for text in json.loads(open(sys.argv[1], encoding="utf-8").read()):
    st.markdown(answer_text_markdown("Voir " + text + " pour la suite [1]."))
st.markdown("[témoin](https://example.com/ok)")
"""


@pytest.fixture
def page_url(tmp_path: Path):
    script, inputs = tmp_path / "show.py", tmp_path / "inputs.json"
    script.write_text(SCRIPT, encoding="utf-8")
    inputs.write_text(json.dumps(list(HOSTILE)), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_") and not k.startswith("STREAMLIT_")}
    env["PYTHONPATH"] = str(ROOT)
    with streamlit_server(str(script), env, tmp_path / "streamlit.log", args=(str(inputs),)) as url:
        yield url


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_no_address_a_model_writes_is_a_link_in_the_browser(page_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(page_url, timeout=MINUTE)
            page.get_by_text("témoin").wait_for(timeout=MINUTE)
            settle(page)
            blocks = page.locator('[data-testid="stMarkdownContainer"]')
            assert blocks.count() == len(HOSTILE) + 1
            links = page.locator('[data-testid="stMarkdownContainer"] a')
            hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
            assert hrefs == ["https://example.com/ok"]  # the control link renders: links would show
            codes = page.locator('[data-testid="stMarkdownContainer"] code').all_inner_texts()
            for address in HOSTILE.values():
                assert address in codes
        finally:
            browser.close()
