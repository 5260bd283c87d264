"""The Evaluate page's choice of question set, in a real browser, across a switch of language: the
reader picked an uploaded set, switched to English, and the choice went back to the shipped set
while the page still showed the uploaded set's results."""

from __future__ import annotations

import pytest

from tests.evaluate.eval_corpus import NEAR_DOMAIN_JSONL
from tests.ui import test_browser
from tests.ui.test_browser import french_page, open_page, require_chromium, settle
from tests.ui.test_browser_sign_in import chromium

app_url = test_browser.app_url  # the fixture: `streamlit run` over an empty data folder, open to an editor


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_the_chosen_question_set_survives_a_switch_of_language(app_url):
    from playwright.sync_api import expect

    require_chromium()
    with chromium() as browser:
        page = french_page(browser)
        open_page(page, app_url, "Évaluation")
        page.get_by_text("Charger un jeu (JSON Lines ou CSV)", exact=True).click()
        settle(page)
        page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
            {"name": "q.jsonl", "mimeType": "text/plain", "buffer": NEAR_DOMAIN_JSONL.encode()})
        settle(page)
        expect(page.get_by_text("q.jsonl")).to_be_visible()
        page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
        settle(page)
        expect(page.get_by_role("heading", name="Evaluate")).to_be_visible()
        uploaded = page.get_by_role("radio", name="Upload a set (JSON Lines or CSV)")
        expect(uploaded).to_be_checked()
        expect(page.get_by_text("q.jsonl")).to_be_visible()  # the file with it
