"""The language chosen in the sidebar, in a real French browser, survives a reload (F5) on any page;
it was lost, the page coming back in French. Chosen back, the address no longer names it."""

from __future__ import annotations

import re

import pytest

from tests.fixtures.chat_app import chat_app  # noqa: F401 - the fixture
from tests.ui.test_browser import settle


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(600)
def test_the_language_chosen_survives_a_reload_on_every_page(chat_app):  # noqa: F811 - the fixture imported above
    from playwright.sync_api import expect

    from tests.fixtures.chromium import chromium_page

    url, _ = chat_app
    with chromium_page(url, width=1366, height=900, locale="fr-FR") as page:
        settle(page)
        sidebar = page.get_by_test_id("stSidebar")
        expect(page.get_by_role("heading", name="Questions")).to_be_visible()
        sidebar.get_by_text("English", exact=True).click()
        settle(page)
        expect(page.get_by_role("heading", name="Ask")).to_be_visible()
        page.reload()
        settle(page)
        expect(page.get_by_role("heading", name="Ask")).to_be_visible()

        page.get_by_test_id("stSidebarNav").get_by_text("Journal").click()
        settle(page)
        expect(page.get_by_role("heading", name="Question journal")).to_be_visible()
        page.reload()
        settle(page)
        expect(page.get_by_role("heading", name="Question journal")).to_be_visible()

        sidebar.get_by_text("Français", exact=True).click()
        settle(page)
        expect(page.get_by_role("heading", name="Journal des questions")).to_be_visible()
        expect(page).not_to_have_url(re.compile("lang="))
        page.reload()
        settle(page)
        expect(page.get_by_role("heading", name="Journal des questions")).to_be_visible()
