"""End to end in a real browser: `streamlit run` as a subprocess, Playwright driving Debian's
chromium. Load the demo corpus, ask a question, get a cited answer, run the evaluation."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.net import free_port, stop_process, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
QUESTION = "Dans quelle clé de registre se règle MaxTokenSize ?"
ANSWER = "MaxTokenSize se règle sous HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters [1]."
MINUTE = 60_000  # Playwright counts milliseconds


def settle(page) -> None:
    """Wait for the script run to finish: until then Streamlit keeps the previous run's elements."""
    from playwright.sync_api import expect

    running = page.locator('[data-testid="stStatusWidget"] [data-testid^="stStatusWidgetRunning"]')
    expect(running).to_have_count(0, timeout=2 * MINUTE)


@pytest.fixture
def app_url(tmp_path: Path, lmstudio) -> str:
    lmstudio.answer = ANSWER
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("RAG_") and not k.startswith("STREAMLIT_")}
    env.update(RAG_DATA_DIR=str(tmp_path / "data"), RAG_EMBED_MODEL="embedded", RAG_EMBED_THREADS="2",
               RAG_LLM_URL=lmstudio.url)
    port = free_port()
    log = tmp_path / "streamlit.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "streamlit_app.py", "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(f"{url}/_stcore/health", 60, process=proc, name="streamlit", details=log.read_text,
                      ready=lambda response: response.text == "ok", interval=0.3)
        yield url
    finally:
        stop_process(proc, timeout=15)


@pytest.mark.slow  # a streamlit server, chromium, the demo corpus indexed by the app
@pytest.mark.timeout(420)
def test_demo_corpus_to_cited_answer_and_evaluation(app_url, lmstudio, tmp_path):
    if not CHROMIUM.exists():
        missing = f"{CHROMIUM} is missing: install Debian's chromium (`make browser`)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"{missing}; CI must run the browser test")
        pytest.skip(missing)
    from playwright.sync_api import expect, sync_playwright

    shots = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1500})
            page.goto(app_url)

            # 1. An empty workbench offers the demo corpus; loading it leads to example questions.
            page.get_by_role("button", name="Load the demo corpus").click(timeout=MINUTE)
            expect(page.get_by_role("button", name=QUESTION)).to_be_visible(timeout=4 * MINUTE)
            settle(page)
            shots["demo loaded"] = tmp_path / "1-ask-demo-loaded.png"
            page.screenshot(path=shots["demo loaded"])

            # 2. A question typed in the chat gets a streamed answer citing [1], and its sources.
            chat = page.get_by_test_id("stChatInputTextArea")
            chat.fill(QUESTION)
            chat.press("Enter")
            answer = page.get_by_test_id("stChatMessage").filter(has_text="Sources")
            expect(answer).to_be_visible(timeout=MINUTE)
            expect(answer).to_contain_text("Kerberos\\Parameters [1]")
            expect(answer).to_contain_text("[1] MaxTokenSize")
            expect(answer.get_by_text("passages retrieved")).to_be_visible()
            settle(page)
            expect(page.get_by_role("button", name=QUESTION)).to_have_count(0)  # examples make room
            answer.get_by_text("passages retrieved").click()  # every passage, its score, the chart
            expect(answer.locator(".js-plotly-plot")).to_be_visible(timeout=MINUTE)
            expect(answer).to_contain_text("passed")
            expect(answer.get_by_text("Modifier MaxTokenSize").last).to_be_visible()  # a passage's text
            page.wait_for_timeout(800)  # let the expander finish opening before the screenshot
            answer.evaluate("element => element.scrollIntoView({block: 'start'})")
            assert lmstudio.chat_calls == 1
            shots["answer"] = tmp_path / "2-ask-cited-answer.png"
            page.screenshot(path=shots["answer"])

            # 3. The evaluation runs on the shipped question set and draws the calibration chart.
            page.get_by_role("link", name="Evaluate").click()
            page.get_by_role("button", name="Run the evaluation").click(timeout=MINUTE)
            expect(page.locator(".js-plotly-plot").first).to_be_visible(timeout=3 * MINUTE)
            expect(page.get_by_test_id("stMetric").filter(has_text="hit@1")).to_be_visible()
            settle(page)
            shots["evaluation"] = tmp_path / "3-evaluate.png"
            page.screenshot(path=shots["evaluation"])

            # 4. The ingest page previews the chunking of a demo document.
            page.get_by_role("link", name="Ingest").click()
            rendering = page.get_by_test_id("stHtml").first  # the document drawn with its chunks
            expect(rendering).to_contain_text("certutil", timeout=MINUTE)
            settle(page)
            page.get_by_text("Chunking preview").scroll_into_view_if_needed()
            shots["ingest"] = tmp_path / "4-ingest.png"
            page.screenshot(path=shots["ingest"])
        finally:
            browser.close()
    for name, path in shots.items():
        assert path.stat().st_size > 10_000
        print(f"screenshot ({name}): {path}")
