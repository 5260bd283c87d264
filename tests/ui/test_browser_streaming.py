"""In Chromium: the demo loads in seconds (its vectors ship with the package), and a clicked
example question does not leave the greyed example buttons under the answer while it streams."""

from __future__ import annotations

import pytest

from tests.ui.test_browser import CHROMIUM, CHROMIUM_ARGS, MINUTE, QUESTION, app_url, require_chromium, settle  # noqa: F401


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_example_buttons_go_at_once_when_an_example_is_asked(app_url, lmstudio):  # noqa: F811
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1400}, locale="en-US")
            page.set_default_timeout(MINUTE)
            page.goto(app_url)
            page.get_by_role("button", name="Load the demo corpus").click(timeout=MINUTE)
            example = page.get_by_role("button", name=QUESTION)
            expect(example).to_be_visible(timeout=2 * MINUTE)
            settle(page)
            lmstudio.delay = 6.0  # the model takes its time: the run is still going while we look
            example.click()
            expect(page.get_by_test_id("stChatMessage").first).to_contain_text(QUESTION, timeout=MINUTE)
            # While the answer is on its way, no example button is left on the page, greyed or not.
            expect(page.get_by_role("button", name=QUESTION)).to_have_count(0, timeout=3_000)
            expect(page.get_by_text("Try one of these questions", exact=False)).to_have_count(0, timeout=1_000)
            assert page.locator('[data-testid="stApp"][data-test-script-state="running"]').count() == 1
            answer = page.get_by_test_id("stChatMessage").filter(has_text="Sources")
            expect(answer).to_contain_text("Kerberos\\Parameters [1]", timeout=MINUTE)
        finally:
            browser.close()
