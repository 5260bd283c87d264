"""Uploads with names no file system takes, in a real browser, in French: a 282-byte accented
name and a file named `.md` are counted as failures (their names and reasons in the page's table),
the other file is indexed, and no error trace reaches the page."""

from __future__ import annotations

import pytest

from tests.ui import test_browser
from tests.ui.test_app_ingest import LONG_NAME
from tests.ui.test_browser import MINUTE, french_page, require_chromium, settle, upload_on_ingest
from tests.ui.test_browser_sign_in import chromium

app_url = test_browser.app_url  # the fixture: `streamlit run` over an empty data folder, open to an editor


def _file(name: str, text: str) -> dict:
    # Sent as the browser sends it: a name no file on this disk could have.
    return {"name": name, "mimeType": "text/markdown", "buffer": text.encode("utf-8")}


@pytest.mark.slow  # a streamlit server, chromium, the embedded model
@pytest.mark.timeout(600)
def test_unusable_upload_names_are_failures_and_the_other_file_is_indexed(app_url):
    from playwright.sync_api import expect

    require_chromium()
    with chromium() as browser:
        page = french_page(browser)
        upload_on_ingest(page, app_url, [
            _file("ok.md", "# LAPS\n\nLe mot de passe de l'administrateur local change tous les 30 jours.\n"),
            _file(LONG_NAME, "# Procédure\n\nUn texte au nom trop long.\n"),
            _file(".md", "# Point\n\nUn texte sans nom.\n"),
        ])
        index = page.get_by_role("button", name="Indexer 1 document")
        expect(index).to_be_visible(timeout=2 * MINUTE)
        settle(page)
        index.click()
        metrics = page.get_by_test_id("stMetric")
        expect(metrics.filter(has_text="nouveaux")).to_be_visible(timeout=3 * MINUTE)
        settle(page)
        new = metrics.filter(has_text="nouveaux").get_by_test_id("stMetricValue").inner_text()
        failed = metrics.filter(has_text="en échec").get_by_test_id("stMetricValue").inner_text()
        assert (new, failed) == ("1", "2")
        expect(page.get_by_test_id("stException")).to_have_count(0)
        body = page.locator("body").inner_text()
        assert "Traceback" not in body and "File name too long" not in body and "rag-upload-" not in body
