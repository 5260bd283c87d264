"""In a real browser: questions asked and refused appear on the editors' Journal page, with the
reader's thumbs down; from there a refused question goes into the demo set as off-topic and an answered one with its
expected article, and replaying the set shows both in the results."""

from __future__ import annotations

import csv
import io
import os

import pytest

from rag.journal.store import Journal
from tests.ui.test_browser import CHROMIUM, CHROMIUM_ARGS, MINUTE, QUESTION, app_url, go, settle  # noqa: F401

REFUSED = "Comment planter des tulipes ?"  # not in the demo set, nor in its articles
ASKED = "Où se règle MaxTokenSize dans le registre Kerberos ?"  # not in the demo set yet


@pytest.mark.slow  # a streamlit server, chromium, the demo corpus indexed by the app
@pytest.mark.timeout(1800)
def test_asked_refused_and_disliked_questions_reach_the_journal_and_the_question_set(app_url, lmstudio, tmp_path):  # noqa: F811
    if not CHROMIUM.exists():
        missing = f"{CHROMIUM} is missing: install Debian's chromium (`make browser`)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"{missing}; CI must run the browser test")
        pytest.skip(missing)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1700}, locale="en-US", accept_downloads=True)
            page.set_default_timeout(MINUTE)
            page.goto(app_url)
            page.get_by_role("button", name="Load the demo corpus").click(timeout=MINUTE)
            expect(page.get_by_role("button", name=QUESTION)).to_be_visible(timeout=10 * MINUTE)

            chat = page.get_by_test_id("stChatInputTextArea")
            chat.fill(ASKED)
            chat.press("Enter")
            expect(page.get_by_test_id("stChatMessage").filter(has_text="Sources")).to_contain_text(
                "Kerberos\\Parameters [1]", timeout=MINUTE)
            settle(page)
            chat.fill(REFUSED)
            chat.press("Enter")
            # Refused by its own words: the words no article holds are named.
            expect(page.get_by_test_id("stChatMessage").filter(has_text="No article mentions").filter(has_text="tulipes")) \
                .to_be_visible(timeout=MINUTE)
            settle(page)
            # The reader dislikes the answer with the thumbs under it (the first turn's; up, then down).
            thumb_down = page.get_by_test_id("stFeedback").first.get_by_test_id("stFeedbackButton").nth(1)
            thumb_down.click()
            settle(page)
            journal = Journal.open(tmp_path / "data", secrets=[])
            answered = journal.entries(outcome="answered")
            assert [e.question for e in answered] == [ASKED]
            if not _votes(journal, answered[0].id):
                # On a busy machine the click can land while the turn is being drawn again: once more.
                thumb_down.click()
                settle(page)
            assert _votes(journal, answered[0].id) == [(-1, "")]

            go(page, app_url, "Journal")
            expect(page.get_by_role("heading", name="Question journal")).to_be_visible()
            rows = page.get_by_test_id("stExpander")
            refused_row = rows.filter(has_text=f"refused by the gate · {REFUSED}")
            answered_row = rows.filter(has_text=f"answered · {ASKED}")
            expect(refused_row).to_have_count(1)
            expect(answered_row).to_have_count(1)
            answered_row.get_by_text(ASKED).first.click()
            expect(answered_row).to_contain_text("👎 1")
            expect(answered_row).to_contain_text("Kerberos")  # the passages' articles, by their titles
            page.get_by_role("tab", name="Subjects with no article").click()
            expect(page.get_by_text(REFUSED).last).to_be_visible()
            page.get_by_role("tab", name="Questions").click()

            # Into the demo set: the refusal as off-topic (its default), the answer with its article.
            refused_row.get_by_text(REFUSED).first.click()
            refused_row.get_by_role("button", name="Add to the set").click()
            settle(page)
            added = page.get_by_text("Question added to the set “demo”")
            if not _in_demo_set(tmp_path, REFUSED):
                # On a busy machine the click can land while the form is being drawn again: once more.
                refused_row.get_by_role("button", name="Add to the set").click()
                settle(page)
            assert _in_demo_set(tmp_path, REFUSED)
            if not added.is_visible():  # the entry was drawn closed again by the run that saved it
                refused_row.get_by_text(REFUSED).first.click()
            expect(added).to_be_visible()
            answered_row = page.get_by_test_id("stExpander").filter(has_text=f"answered · {ASKED}")
            if not answered_row.get_by_role("button", name="Add to the set").is_visible():
                answered_row.get_by_text(ASKED).first.click()
            # Its expected article searched by title, with a span of the article as the expected answer.
            answered_row.get_by_label("… or search an article by its title").fill("MaxTokenSize")
            answered_row.get_by_role("button", name="Add to the set").click()
            settle(page)
            expect(page.get_by_text("Question added to the set “demo”")).to_be_visible()

            go(page, app_url, "Evaluate")
            expect(page.get_by_text("The demo set, in its edited version")).to_be_visible()
            page.get_by_role("button", name="Run the evaluation").click()
            expect(page.get_by_text("Done: 70 questions on demo.")).to_be_visible(timeout=5 * MINUTE)
            settle(page)
            with page.expect_download() as download:
                page.get_by_role("button", name="Download the results (CSV)").click()
            table = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8-sig").read())))
            by_question = {row["question"]: row for row in table}
            assert by_question[REFUSED]["in_base"].lower() == "false"
            assert by_question[ASKED]["in_base"].lower() == "true"
            assert by_question[ASKED]["expected_source"] == "maxtokensize-token-bloat.md"
        finally:
            browser.close()


def _votes(journal: Journal, entry_id: str, wait: float = 20.0) -> list[tuple[int, str]]:
    """The (rating, reader) votes on an entry, waiting up to `wait` seconds for the first."""
    import time

    deadline = time.monotonic() + wait
    while True:
        votes = [(f.rating, f.reader) for f in journal.entry(entry_id).feedback]
        if votes or time.monotonic() > deadline:
            return votes
        time.sleep(0.5)


def _in_demo_set(tmp_path, question: str, wait: float = 20.0) -> bool:
    """Whether the edited demo set holds `question`, waiting up to `wait` seconds for the save."""
    import time

    from rag.evaluate.question_sets import load_set

    deadline = time.monotonic() + wait
    while True:
        try:
            if any(q.question == question for q in load_set(tmp_path / "data", "demo")):
                return True
        except Exception:  # noqa: BLE001 - not written yet, or being written
            pass
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
