"""Indexing one long file from the Ingest page, in a real browser, in French: the bar moves
passage by passage with the count and the time left, the page shows no greyed copy of its
controls meanwhile, and the side-by-side switch shows the state the preview is in."""

from __future__ import annotations

import re

import pytest

from tests.ui import test_browser
from tests.ui.test_browser import MINUTE, french_page, require_chromium, settle, upload_on_ingest
from tests.ui.test_browser_sign_in import chromium

app_url = test_browser.app_url  # the fixture: `streamlit run` over an empty data folder, open to an editor

SECTIONS = 22


def _article() -> str:
    sections = "\n\n".join(
        f"## Étape {j} : rotation de la clé du compte krbtgt\n\n"
        f"La commande Get-ADUser -Identity krbtgt -Properties msDS-KeyVersionNumber lit la version {j} de la clé; "
        f"on attend la réplication vers chaque contrôleur de domaine du site {j} avant la seconde rotation, "
        f"sans quoi les tickets émis avant la première sont refusés par les serveurs du site {j}."
        for j in range(1, SECTIONS + 1))
    return f"# Rotation du compte krbtgt\n\n{sections}\n"


@pytest.mark.slow  # a streamlit server, chromium, the embedded model on one long file
@pytest.mark.timeout(900)
def test_one_long_file_indexes_with_a_moving_bar_and_no_greyed_copies(app_url, tmp_path):
    from playwright.sync_api import expect

    require_chromium()
    path = tmp_path / "krbtgt.md"
    path.write_text(_article(), encoding="utf-8")
    with chromium() as browser:
        page = french_page(browser)
        upload_on_ingest(page, app_url, str(path))
        index = page.get_by_role("button", name="Indexer 1 document")
        expect(index).to_be_visible(timeout=2 * MINUTE)
        settle(page)
        switch = page.get_by_label("Côte à côte", exact=True)
        page.get_by_text("Côte à côte", exact=True).click()
        settle(page)
        page.screenshot(path="/tmp/i37/side.png", full_page=True)
        expect(switch).to_be_checked()
        index.click()
        texts, greyed = [], []
        for _ in range(1200):
            now = page.get_by_test_id("stProgress").all_inner_texts()
            if now and re.search(r"— [1-9]\d* passages? sur", now[0]):  # under way: a passage count
                # Each control of the index section once: no second, greyed copy beside the button.
                greyed += [label for label in ("Stratégie", "Enrichissement")
                           if page.get_by_text(label, exact=True).count() != 1]
            texts += now
            if page.get_by_test_id("stMetric").count():
                break
            page.wait_for_timeout(100)
        moving = [m for m in (re.search(r"— (\d+) passages? sur (\d+)", x) for x in texts) if m]
        done = [int(m[1]) for m in moving]
        assert done == sorted(done) and len(set(done)) >= 3, texts  # the bar moved passage by passage
        assert any(0 < d < int(m[2]) for d, m in zip(done, moving)), texts
        assert any("restant" in x for x in texts), texts  # a time left while it works
        assert not greyed, greyed
        settle(page)
        expect(page.get_by_test_id("stMetric").filter(has_text="nouveaux")).to_be_visible()
        expect(page.get_by_label("Côte à côte", exact=True)).to_be_checked()  # the preview is still side by side
