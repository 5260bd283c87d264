"""End to end in a real browser: `streamlit run` as a subprocess, Playwright driving Debian's
chromium through the walk-through a new user makes, in French then in English."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.fixtures.streamlit_server import streamlit_server

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
QUESTION = "Dans quelle clé de registre se règle MaxTokenSize ?"
ANSWER = ("MaxTokenSize se règle sous HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters [1]. "
          "Les symptômes du token bloat sont décrits aussi [2].")
MINUTE = 60_000  # Playwright counts milliseconds


def require_chromium() -> None:
    """Skip without Debian's chromium, except on CI, which must run the browser tests."""
    if not CHROMIUM.exists():
        missing = f"{CHROMIUM} is missing: install Debian's chromium (`make browser`)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"{missing}; CI must run the browser test")
        pytest.skip(missing)


def settle(page) -> None:
    """Wait for the script run to finish: until then Streamlit keeps the previous run's elements.

    The app's own run state, not the "Running..." widget: the widget shows only after a delay, so a
    run just requested by a click could pass for finished."""
    page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
                           '[data-test-script-state="notRunning"]', state="attached", timeout=5 * MINUTE)
    from playwright.sync_api import expect

    # Elements of the previous run still on screen are marked stale until the run replaces them.
    expect(page.locator('[data-stale="true"]')).to_have_count(0, timeout=MINUTE)


@pytest.fixture
def app_url(tmp_path: Path, lmstudio) -> str:
    lmstudio.answer = ANSWER
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("RAG_") and not k.startswith("STREAMLIT_")}
    env.update(RAG_DATA_DIR=str(tmp_path / "data"), RAG_EMBED_MODEL="embedded", RAG_EMBED_THREADS="2",
               RAG_LLM_URL=lmstudio.url)
    with streamlit_server("streamlit_app.py", env, tmp_path / "streamlit.log") as url:
        yield url


SHOTS = ROOT / "tests" / "screenshots"  # git-ignored: look at them after a run


def shoot(page, name: str) -> Path:
    """A screenshot of the page as it stands, once the run has finished drawing."""
    settle(page)
    page.wait_for_timeout(600)  # expanders and charts finish their animation
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=path)
    return path


SCROLLER = '[data-testid="stAppScrollToBottomContainer"]'  # the page's scrolling box, pinned to a chat's bottom


def scroll_at_rest(page) -> None:
    """Wait until the page's scroll position has stopped moving. A change of window size (or a new
    message) starts the chat's own glide to its bottom; a click during that glide is undone by it."""
    page.wait_for_function(
        """sel => new Promise(done => {
             const box = document.querySelector(sel) || document.scrollingElement;
             const top = box.scrollTop;
             setTimeout(() => done(Math.abs(box.scrollTop - top) < 1), 250);
           })""", arg=SCROLLER, polling=300, timeout=MINUTE)


def jump_to_citation(page, turn, n: int, anchor: str, out_of_sight: bool = True, shot: str | None = None):
    """Click `[n]` in one turn's answer and see its target on screen, in this tab. A laptop-sized
    window, scrolled with the wheel until the link shows near its top, as a reader would; with
    `out_of_sight`, the target is then below the window's edge."""
    from playwright.sync_api import expect

    # While a run still draws (the refusal shown, its journal line and sidebar not yet), the chat
    # follows what it draws: the page glides back to its bottom, as it does for a reader.
    settle(page)
    target = page.locator(f"#{anchor}")
    expect(target).to_have_count(1)
    link = turn.get_by_role("link", name=f"[{n}]", exact=True)
    expect(link).to_have_attribute("href", f"#{anchor}")
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": 600})
    try:
        scroll_at_rest(page)
        # The wheel, not a script's scroll: the chat keeps a script's scroll pinned to its bottom.
        # Over the page's own margin: over a cited passage's box (it scrolls on its own), the wheel
        # would scroll that box instead of the page.
        left = page.evaluate("sel => { const box = document.querySelector(sel);"
                             " return box ? box.getBoundingClientRect().left : 0; }", SCROLLER)
        page.mouse.move(left + 6, 300)
        # Just after a change of window size the page may still be laying out, and the chat glides
        # back to its bottom while it does: a reader who sees the page jump back scrolls again.
        page.wait_for_timeout(1000)
        for attempt in range(2):
            for _ in range(3):
                for _ in range(60):
                    top = link.evaluate("e => e.getBoundingClientRect().top")
                    if 150 < top < 450:
                        break
                    page.mouse.wheel(0, -150 if top <= 150 else 150)
                    page.wait_for_timeout(50)
                scroll_at_rest(page)
                if 0 < link.evaluate("e => e.getBoundingClientRect().top") < 560:
                    break
            expect(link).to_be_in_viewport()
            if out_of_sight and not attempt:
                expect(target).not_to_be_in_viewport()
            link.click()
            try:
                expect(target).to_be_in_viewport(timeout=10_000)
                break
            except AssertionError:
                if attempt:
                    raise
                # On a loaded machine the passage was sometimes out of the window after the jump
                # (about one CI run in four, never alone; cause not found): a reader who sees the
                # page elsewhere scrolls back and clicks again, and the second click must land.
        expect(target).to_be_visible()
        assert page.url.endswith(f"#{anchor}") and len(page.context.pages) == 1
        return shoot(page, shot) if shot else None
    finally:
        page.set_viewport_size(size)


def go(page, url: str, label: str) -> None:
    page.get_by_role("link", name=label).click()
    settle(page)


def french_page(browser):
    """A French editor's tab at laptop size, waiting up to a minute for what it expects."""
    page = browser.new_context(locale="fr-FR", viewport={"width": 1366, "height": 1400}).new_page()
    page.set_default_timeout(MINUTE)
    return page


def open_page(page, app_url: str, label: str) -> None:
    """The app, then its page named `label` in the navigation."""
    page.goto(app_url)
    settle(page)
    go(page, app_url, label)


def upload_on_ingest(page, app_url: str, files) -> None:
    """The Ingest page, source Fichiers, with `files` dropped on its uploader."""
    open_page(page, app_url, "Import")
    page.get_by_text("Fichiers", exact=True).click()
    settle(page)
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(files)


@pytest.mark.slow  # a streamlit server, chromium, the demo corpus indexed by the app
@pytest.mark.timeout(1800)
def test_the_walk_through_in_french_then_english(app_url, lmstudio, tmp_path):
    """The walk-through of issue 16 replayed in Chromium, with a screenshot of each page in each
    language: demo load, ask, new conversation, chunk settings kept across a source switch,
    evaluation with the chat model down, saving a threshold."""
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    # A busy CI machine (load 10 on 2 cores) can take longer than Playwright's 5 s default to redraw
    # a page; waits still end as soon as the page is right.
    expect.set_options(timeout=30_000)
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            # A French browser gets the French dashboard, with no developer chrome.
            page = browser.new_page(viewport={"width": 1440, "height": 1700}, locale="fr-FR")
            page.set_default_timeout(MINUTE)
            page.goto(app_url)
            load = page.get_by_role("button", name="Charger le corpus de démonstration")
            load.click(timeout=MINUTE)
            expect(page.get_by_role("button", name=QUESTION)).to_be_visible(timeout=10 * MINUTE)  # a busy machine
            expect(page.get_by_text("Deploy", exact=True)).to_have_count(0)
            sidebar = page.get_by_test_id("stSidebar")
            expect(sidebar).to_contain_text("(calibré)")  # the demo's own collection, calibrated
            shots.append(shoot(page, "fr-1-questions-demo"))

            # Ask: a cited answer with its sources, then a second question; the first turn is
            # kept short; a new conversation starts empty.
            chat = page.get_by_test_id("stChatInputTextArea")
            chat.fill(QUESTION)
            chat.press("Enter")
            answer = page.get_by_test_id("stChatMessage").filter(has_text="Sources")
            expect(answer).to_contain_text("Kerberos\\Parameters [1]", timeout=MINUTE)
            settle(page)
            # [2] in the answer is a link to the cited passage [2], shown under its source: a click
            # brings it into view, in this tab, above the collapsed list of every passage. The cited
            # passages scroll in short boxes, so [2] may already show below its link on a laptop
            # (test_browser_ask_gestures jumps to it from out of sight, on a phone).
            shots.append(jump_to_citation(page, answer, 2, "cite-demo-t0-2", out_of_sight=False,
                                          shot="fr-2-questions-citation"))
            answer.get_by_text("passages trouvés").click()
            expect(answer.locator(".js-plotly-plot")).to_be_visible(timeout=MINUTE)
            expect(answer).to_contain_text("assez proche")
            page.mouse.wheel(0, 5000)  # down to the chart and the list, under the cited passages
            shots.append(shoot(page, "fr-2-questions-answer"))
            chat.fill("Quelle est la recette de la tarte tatin ?")
            chat.press("Enter")
            refusal = page.get_by_test_id("stChatMessage").filter(has_text="Je ne trouve pas cette information")
            expect(refusal).to_be_visible(timeout=MINUTE)
            # Refused by its own words: the refusal names the rare one no article holds, not "tarte".
            expect(refusal).to_contain_text("Aucun article ne parle de : tatin ;")
            expect(page.get_by_test_id("stChatMessage")).to_have_count(4)
            shots.append(shoot(page, "fr-3-questions-conversation"))
            # The first turn, now short, keeps its links: [1] jumps to its own source line [1].
            jump_to_citation(page, answer, 1, "cite-demo-t0-1", out_of_sight=False)
            page.get_by_role("button", name="Nouvelle conversation").click()
            settle(page)
            expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
            assert lmstudio.chat_calls == 1  # the refusal never reached the model

            # Ingest: a chunk setting survives a switch of source.
            go(page, app_url, "Import")
            size = page.get_by_role("spinbutton", name="Taille", exact=True)
            size.fill("300")
            size.press("Enter")
            settle(page)
            page.get_by_text("Texte collé").click()
            settle(page)
            area = page.get_by_role("textbox", name="Markdown")
            area.fill("# Note\n\n## Partie\n\n" + "Du texte sur klist purge. " * 40)
            area.press("Control+Enter")
            settle(page)
            expect(size).to_have_value("300")
            expect(page.get_by_test_id("stDataFrame").nth(1)).to_be_visible()
            expect(page.get_by_text("1 document trouvé", exact=True)).to_be_visible()
            shots.append(shoot(page, "fr-4-import"))

            # Evaluate with the chat model down: said plainly, no answer metric; then save the
            # suggested threshold and see it in the sidebar at once.
            lmstudio.down()
            go(page, app_url, "Évaluation")
            page.get_by_text("Vérifier aussi les réponses du modèle").click()
            settle(page)
            expect(page.get_by_text("environ", exact=False).first).to_be_visible()
            page.get_by_role("button", name="Lancer l'évaluation").click()
            expect(page.get_by_text("Le modèle de chat est injoignable")).to_be_visible(timeout=3 * MINUTE)
            settle(page)
            expect(page.get_by_text("réponses avec le texte attendu")).to_have_count(0)
            shots.append(shoot(page, "fr-5-evaluation-model-down"))
            suggest = page.get_by_role("button", name="Placer le curseur sur la suggestion")
            value = suggest.inner_text().split()[-1]
            assert re.fullmatch(r"0,\d{3}", value), value  # a French decimal comma, not 0.833
            suggest.click()
            settle(page)
            # The page's one save button (the floor with the words' share), once the rerun has put
            # the slider on the suggestion: until that run ends the old button may linger.
            save = page.get_by_role("button", name=f"Enregistrer {value} comme seuil")
            expect(save).to_have_count(1)
            settle(page)  # the slider's new value may bring one more run: click once it is over
            expect(save).to_have_count(1)
            save.click()
            settle(page)
            expect(sidebar).to_contain_text(f"seuil {value} (calibré)")
            expect(page.get_by_text(f"utilisent maintenant le seuil {value}")).to_be_visible()
            page.get_by_text("Par type de question").scroll_into_view_if_needed()
            shots.append(shoot(page, "fr-6-evaluation-saved"))

            # The same pages in English, through the sidebar's switch.
            lmstudio.up()
            sidebar.get_by_text("English", exact=True).click()
            settle(page)
            expect(page.get_by_role("heading", name="Evaluate")).to_be_visible()
            expect(sidebar).to_contain_text(f"threshold {value.replace(',', '.')} (calibrated)")
            page.get_by_role("button", name="Run the evaluation").click()
            expect(page.get_by_text("Done: 68 questions on demo.")).to_be_visible(timeout=5 * MINUTE)
            expect(page.get_by_test_id("stMetric").filter(has_text="right article first")).to_be_visible()
            shots.append(shoot(page, "en-3-evaluate"))
            go(page, app_url, "Ingest")
            size = page.get_by_role("spinbutton", name="Chunk size", exact=True)
            expect(size).to_have_value("300")
            expect(page.get_by_text("chunk size 300", exact=False).first).to_be_visible()
            # Emptied, the field goes back to each strategy's default; it was put back to 1 (chunks
            # of one character in the preview, and in the index had it been built).
            size.fill("")
            size.press("Enter")
            settle(page)
            expect(size).to_have_value("")
            assert "chunk size 1," not in page.locator("body").inner_text()
            shots.append(shoot(page, "en-2-ingest"))
            go(page, app_url, "Ask")
            page.get_by_test_id("stChatInputTextArea").fill(QUESTION)
            page.get_by_test_id("stChatInputTextArea").press("Enter")
            expect(page.get_by_test_id("stChatMessage").filter(has_text="Sources")).to_be_visible(timeout=MINUTE)
            shots.append(shoot(page, "en-1-ask"))
        finally:
            browser.close()
    for path in shots:
        assert path.stat().st_size > 10_000
        print(f"screenshot: {path}")
