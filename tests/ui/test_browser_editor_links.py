"""A reader following a link to an editor's page, in a real browser in French: the page says it is
for editors and how to sign in as one, in the reader's language, and shows none of its controls;
it was Streamlit's English "Page not found" dialog."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import pytest

from tests.ui.test_browser import settle
from tests.ui.test_browser_sign_in import READER_PASSWORD, _serve, _session_cookie, chromium


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path)


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_a_french_reader_following_a_link_to_an_editor_page_is_told_how_to_become_one(served):
    from playwright.sync_api import expect

    with chromium() as browser:
        context = browser.new_context(locale="fr-FR", timezone_id="Europe/Paris")
        page = context.new_page()
        page.goto(served)
        settle(page)
        page.get_by_label("Mot de passe", exact=True).fill(READER_PASSWORD)
        page.get_by_role("button", name="Entrer").click()
        settle(page)
        expect(page.get_by_test_id("stSidebar")).to_contain_text("mot de passe lecteur")
        _session_cookie(context, page, present=True)  # set by the page's fetch, after it is drawn
        for path in ("Ingest", "Evaluate", "Journal"):
            page.goto(f"{served.rstrip('/')}/{path}")
            settle(page)
            main = page.get_by_test_id("stMain")
            expect(main).to_contain_text("Cette page est réservée aux éditeurs : un lecteur ne peut pas l'ouvrir.")
            expect(main).to_contain_text("cliquez sur « Se déconnecter »")
            expect(page.get_by_text("Page not found")).to_have_count(0)
            expect(page.get_by_role("dialog")).to_have_count(0)
            expect(main.get_by_role("button")).to_have_count(0)
            expect(main.locator("input, textarea, [data-testid='stFileUploader']")).to_have_count(0)
            for title in ("Import", "Évaluation", "Journal"):  # the navigation lists the reader's pages only
                expect(page.get_by_test_id("stSidebarNav").get_by_text(title)).to_have_count(0)
            # The page said to choose "Questions" in the sidebar, where a reader has no navigation.
            expect(main).to_contain_text("suivez « Questions » ci-dessous")
        main.get_by_role("link", name="Questions").click()
        # The Ask page, the app's first; waited for, since the click navigates inside the page
        # and a loaded machine may take a while to draw it.
        expect(page).to_have_url(re.compile(re.escape(served.rstrip("/")) + "/?$"))
        settle(page)
        expect(page.get_by_test_id("stMain")).not_to_contain_text("réservée aux éditeurs")
        expect(page.get_by_role("heading", name="Questions")).to_have_count(1)
        context.close()
