"""The sidebar's score threshold typed by a French editor in a real browser: "0,85" then Enter sets
it (a number input had turned it into "085", marked it invalid and said "Press Enter to apply" in
English, and Enter did nothing)."""

from __future__ import annotations

import pytest

from tests.ui import test_browser
from tests.ui.test_browser import require_chromium, settle
from tests.ui.test_browser_sign_in import chromium

app_url = test_browser.app_url  # the fixture: `streamlit run` over an empty data folder, open to an editor


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_a_french_editor_types_a_threshold_with_a_comma(app_url):
    from playwright.sync_api import expect

    require_chromium()
    with chromium() as browser:
        context = browser.new_context(locale="fr-FR", timezone_id="Europe/Paris")
        page = context.new_page()
        page.goto(app_url)
        settle(page)
        sidebar = page.get_by_test_id("stSidebar")
        sidebar.get_by_text("Réglages de la session").click()
        field = sidebar.get_by_role("textbox", name="Seuil de score")
        field.fill("0,85")
        expect(page.get_by_text("Press Enter to apply")).to_be_hidden()
        field.press("Enter")
        settle(page)
        expect(field).to_have_value("0,850")  # read as 0.85, then written back as the page writes it
        expect(sidebar.get_by_test_id("stAlertContentError")).to_have_count(0)

        field.fill("0,8x")
        field.press("Enter")
        settle(page)
        expect(sidebar).to_contain_text("« 0,8x » n'est pas un seuil : tapez un nombre entre 0 et 1")
        sidebar.get_by_role("textbox", name="Seuil de score").fill("0.8")  # a point too
        sidebar.get_by_role("textbox", name="Seuil de score").press("Enter")
        settle(page)
        expect(sidebar.get_by_role("textbox", name="Seuil de score")).to_have_value("0,800")
        expect(sidebar.get_by_test_id("stAlertContentError")).to_have_count(0)
        context.close()
