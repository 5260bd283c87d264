"""The Ingest page reading a real WordPress (tests/fixtures/real_wordpress.py) in Chromium: the
site's posts with the application password, and the refusal of a wrong one, said as such."""

from __future__ import annotations

import pytest

from tests.fixtures.real_wordpress import CONTENT, FILLER
from tests.ui.test_browser import CHROMIUM, CHROMIUM_ARGS, MINUTE, app_url, go, require_chromium, settle  # noqa: F401 - app_url: a fixture


def _read_site(page, url: str, user: str, password: str) -> None:
    page.get_by_role("textbox", name="Adresse du site").fill(url)
    page.get_by_role("textbox", name="Utilisateur (facultatif)").fill(user)
    page.get_by_role("textbox", name="Mot de passe d'application (facultatif)").fill(password)
    page.get_by_role("button", name="Lire les articles").click()
    settle(page)


@pytest.mark.slow  # a streamlit server, chromium and the real WordPress
@pytest.mark.timeout(900)
def test_the_ingest_page_reads_the_real_site(app_url, real_wordpress):  # noqa: F811 - the fixture imported above
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    # Published posts and the private one, over two pages of results; the protected one is skipped.
    readable = FILLER + sum(1 for v in CONTENT.values() if v.get("type", "post") == "post"
                            and v.get("status", "publish") in ("publish", "private") and not v.get("password"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1400}, locale="fr-FR")
            page.set_default_timeout(MINUTE)
            page.goto(app_url)
            settle(page)
            go(page, app_url, "Import")
            page.get_by_text("Site WordPress", exact=True).click()
            settle(page)

            _read_site(page, real_wordpress.url, real_wordpress.username, "abcd efgh ijkl mnop qrst uvwx")
            main = page.get_by_test_id("stMain")
            expect(main).to_contain_text("Le site n'a pas pu être lu.")
            expect(main).to_contain_text("a refusé les identifiants")
            expect(main).not_to_contain_text("Invalid parameter")

            _read_site(page, real_wordpress.url, real_wordpress.username, real_wordpress.app_password)
            expect(page.get_by_text(f"{readable} documents trouvés", exact=True)).to_be_visible(timeout=2 * MINUTE)
            expect(main).not_to_contain_text("Privé")
            expect(main).not_to_contain_text("a refusé les identifiants")
        finally:
            browser.close()
