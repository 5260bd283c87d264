"""The documentation's pictures of the dashboard, taken from the real app in headless chromium.

    .venv/bin/python scripts/docs_screenshots.py            # writes docs/images/*.png (about 3 minutes)
    .venv/bin/python scripts/docs_screenshots.py --out /tmp/shots

The app runs as `make run` runs it, over a fresh data folder, with the bundled embedding model and
the shipped demo corpus (loaded from its button, as a new user does). The chat model is the LM
Studio emulator of the tests (tests/fixtures/lmstudio.py), so that the pictures do not depend on
which model someone has loaded: its answer is a fixed sentence citing the passages; everything else
on the pictures (passages, sources, refusals, charts, the journal) is the product's own. Pictures
are written as 8-bit palette PNGs to keep them small. Needs Debian's chromium (`make browser`).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rag.answer import followup  # noqa: E402 - the repository's root first
from tests.fixtures.lmstudio import LMStudioEmulator  # noqa: E402
from tests.fixtures.streamlit_server import streamlit_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
MINUTE = 60_000  # Playwright counts milliseconds
WIDTH, HEIGHT = 1280, 900

QUESTION_FR = "Dans quelle clé de registre se règle MaxTokenSize ?"
ANSWER_FR = ("MaxTokenSize se règle sous HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters [1]. "
             "Les symptômes du token bloat sont décrits aussi [2].")
QUESTION_EN = "Where is MaxTokenSize set in the registry?"
ANSWER_EN = ("MaxTokenSize is set under HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters [1]; "
             "65535 bytes is the largest value advised [1].")
# Refused by the gate outright (a question it is unsure of would get the emulator's fixed answer).
OFF_TOPIC = ("Comment faire une pâte à crêpes ?", "Quelle est la recette de la tarte Tatin ?",
             "Quel temps fera-t-il à Lyon demain ?")


def answer(messages: list[dict]) -> str:
    """The emulated chat model: a faithful standalone form when asked for one (the question as it
    was asked), else the fixed answer in the question's language."""
    if followup.is_rewrite_request(messages):
        last = str(messages[-1]["content"])
        for label in ("Dernière question : ", "Last question: "):
            last = last.rsplit(label, 1)[-1]
        return last.split("\n", 1)[0]
    return ANSWER_EN if any(QUESTION_EN in str(m.get("content", "")) for m in messages) else ANSWER_FR


def settle(page) -> None:
    """Until the script run has ended and no element of the previous run is left on screen."""
    from playwright.sync_api import expect

    page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
                           '[data-test-script-state="notRunning"]', state="attached", timeout=5 * MINUTE)
    expect(page.locator('[data-stale="true"]')).to_have_count(0, timeout=MINUTE)
    page.wait_for_timeout(700)  # expanders and charts finish their animation


def save(shot: bytes, path: Path) -> None:
    """The screenshot as a palette PNG: a fifth of the size, the same to read."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(shot)).convert("RGB")
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size // 1024} KB")


def answer_shot(page) -> bytes:
    """The last question and its answer, with the citations and the sources under it."""
    messages = page.get_by_test_id("stChatMessage")
    question, answer = messages.nth(-2), messages.nth(-1)
    question.scroll_into_view_if_needed()
    top, bottom = question.bounding_box(), answer.bounding_box()
    return shot_of(page, question, bottom["y"] + bottom["height"] - top["y"])


def below(page, element, height: int) -> bytes:
    """`height` pixels of the main column from `element` down."""
    element.scroll_into_view_if_needed()
    return shot_of(page, element, height)


def shot_of(page, element, height: float) -> bytes:
    """The main column from `element`'s top, `height` pixels tall: the window grows to hold it."""
    page.set_viewport_size({"width": WIDTH, "height": int(height) + 200})
    settle(page)
    element.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)
    main = page.get_by_test_id("stMainBlockContainer").bounding_box()
    box = element.bounding_box()
    shot = page.screenshot(clip={"x": main["x"], "y": max(box["y"] - 16, 0), "width": main["width"],
                                 "height": min(int(height) + 32, int(height) + 200 - max(box["y"] - 16, 0))})
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    return shot


def go(page, label: str) -> None:
    page.get_by_role("link", name=label).click()
    settle(page)


def ask(page, question: str, text: str) -> None:
    from playwright.sync_api import expect

    messages = page.get_by_test_id("stChatMessage")
    before = messages.count()
    chat = page.get_by_test_id("stChatInputTextArea")
    chat.fill(question)
    chat.press("Enter")
    expect(messages).to_have_count(before + 2, timeout=2 * MINUTE)
    expect(messages.last).to_contain_text(text, timeout=2 * MINUTE)
    settle(page)


def take(url: str, out: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT}, locale="fr-FR")
            page.set_default_timeout(MINUTE)
            page.goto(url)
            settle(page)

            # Ask, in French: the demo loaded from its button, a cited answer, then a refusal.
            page.get_by_role("button", name="Charger le corpus de démonstration").click()
            expect(page.get_by_role("button", name=QUESTION_FR)).to_be_visible(timeout=10 * MINUTE)
            settle(page)
            ask(page, QUESTION_FR, "Sources")
            save(answer_shot(page), out / "ask.fr.png")
            for question in OFF_TOPIC:  # refusals, for the journal
                ask(page, question, "Je ne trouve pas cette information")

            # Ingest, in French: the demo corpus as the source.
            go(page, "Import")
            page.get_by_text("Corpus de démonstration", exact=True).click()
            settle(page)
            save(page.screenshot(), out / "ingest.fr.png")

            # The same in English, through the sidebar's switch; then one article cut four ways.
            page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
            settle(page)
            save(page.screenshot(), out / "ingest.png")
            page.get_by_test_id("stMainBlockContainer").get_by_test_id("stSelectbox").first.click()
            page.get_by_role("option", name="klist").first.click()
            settle(page)
            toggle = page.get_by_text("Side by side", exact=True)
            toggle.click()
            settle(page)
            save(below(page, toggle, 1500), out / "ingest-side-by-side.png")

            # Evaluate: the demo set replayed, then its calibration chart.
            go(page, "Evaluate")
            page.get_by_role("button", name="Run the evaluation").click()
            expect(page.get_by_text("Done: ", exact=False).first).to_be_visible(timeout=10 * MINUTE)
            settle(page)
            chart = page.locator(".js-plotly-plot").first
            chart.scroll_into_view_if_needed()
            page.mouse.wheel(0, -120)
            settle(page)
            save(page.screenshot(), out / "evaluate.png")

            # The journal, then Ask in English.
            go(page, "Journal")
            save(page.screenshot(), out / "journal.png")
            go(page, "Ask")
            page.get_by_role("button", name="New conversation").click()
            settle(page)
            ask(page, QUESTION_EN, "Sources")
            save(answer_shot(page), out / "ask.png")
        finally:
            browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="folder of the pictures")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    emulator = LMStudioEmulator().up()
    emulator.answer = answer
    try:
        with tempfile.TemporaryDirectory(prefix="rag-shots-") as scratch:
            env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "STREAMLIT_"))}
            env.update(RAG_DATA_DIR=str(Path(scratch) / "data"), RAG_EMBED_MODEL="embedded", RAG_EMBED_THREADS="2",
                       RAG_LLM_URL=emulator.url, PYTHONPATH=str(ROOT))
            with streamlit_server("streamlit_app.py", env, Path(scratch) / "streamlit.log") as url:
                take(url, args.out)
    finally:
        emulator.down()
    return 0


if __name__ == "__main__":
    sys.exit(main())
