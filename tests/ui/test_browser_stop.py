"""Stopping a long indexing from the Ingest page, in a real browser, in French: Streamlit's own
English "Stop" is not drawn (ui.frame), so the page offers its own, which keeps what was indexed
and says so; a second click on the index button finishes the rest."""

from __future__ import annotations

import re

import pytest

from tests.ui import test_browser
from tests.ui.test_browser import MINUTE, french_page, go, require_chromium, settle, upload_on_ingest
from tests.ui.test_browser_sign_in import chromium

app_url = test_browser.app_url  # the fixture: `streamlit run` over an empty data folder, open to an editor

FILES = 60  # each a few passages for the embedded model: several seconds of indexing on two cores


def _article(i: int) -> str:
    sections = "\n\n".join(
        f"## Étape {j} pour le serveur {i}\n\nLa commande Get-ADUser -Identity compte{i}x{j} lit l'attribut "
        f"msDS-KeyVersionNumber{i}{j} avant la rotation numéro {j} de la clé du compte de service {i}."
        for j in range(1, 7))
    return f"# Note d'exploitation {i}\n\n{sections}\n"


@pytest.mark.slow  # a streamlit server, chromium, the embedded model on sixty files
@pytest.mark.timeout(900)
def test_an_indexing_stopped_from_the_page_keeps_what_was_done_and_finishes_on_the_next_click(app_url, tmp_path):
    from playwright.sync_api import expect

    require_chromium()
    files = []
    for i in range(FILES):
        path = tmp_path / "upload" / f"note-{i:02d}.md"
        path.parent.mkdir(exist_ok=True)
        path.write_text(_article(i), encoding="utf-8")
        files.append(str(path))
    with chromium() as browser:
        page = french_page(browser)
        upload_on_ingest(page, app_url, files)
        index = page.get_by_role("button", name=f"Indexer {FILES} documents")
        expect(index).to_be_visible(timeout=2 * MINUTE)
        settle(page)
        index.click()
        stop = page.get_by_role("button", name="Arrêter l'indexation")
        expect(stop).to_be_visible()
        expect(page.get_by_text(re.compile(r"\b[1-9]\d*/60 documents"))).to_be_visible(timeout=2 * MINUTE)  # some done
        stop.click()
        settle(page)
        expect(page.get_by_text("Indexation arrêtée à votre demande")).to_be_visible()
        expect(stop).to_have_count(0)

        index.click()  # the rest: what was done before the stop is not done again
        metrics = page.get_by_test_id("stMetric")
        expect(metrics.filter(has_text="nouveaux")).to_be_visible(timeout=5 * MINUTE)
        settle(page)
        new = int(metrics.filter(has_text="nouveaux").get_by_test_id("stMetricValue").inner_text())
        kept = int(metrics.filter(has_text="inchangés").get_by_test_id("stMetricValue").inner_text())
        assert kept >= 1 and new + kept == FILES, (new, kept)
        expect(page.get_by_text("Indexation arrêtée à votre demande")).to_have_count(0)  # said once


@pytest.mark.slow  # a streamlit server, chromium, the demo set replayed
@pytest.mark.timeout(900)
def test_an_evaluation_stopped_from_the_page_says_so_and_shows_no_half_run(app_url):
    from playwright.sync_api import expect

    require_chromium()
    with chromium() as browser:
        page = french_page(browser)
        page.goto(app_url)
        page.get_by_role("button", name="Charger le corpus de démonstration").click(timeout=MINUTE)
        expect(page.get_by_role("button", name=test_browser.QUESTION)).to_be_visible(timeout=10 * MINUTE)
        go(page, app_url, "Évaluation")
        page.get_by_role("button", name="Lancer l'évaluation").click()
        stop = page.get_by_role("button", name="Arrêter l'évaluation")
        expect(stop).to_be_visible()
        stop.click()
        settle(page)
        expect(page.get_by_text("Évaluation arrêtée à votre demande, avant sa fin")).to_be_visible()
        expect(page.get_by_text("Terminé : 68 questions")).to_have_count(0)
        expect(stop).to_have_count(0)
        page.get_by_role("button", name="Lancer l'évaluation").click()  # run again: to its end
        expect(page.get_by_text("Terminé : 68 questions sur demo.")).to_be_visible(timeout=5 * MINUTE)
        settle(page)
        expect(page.get_by_text("Évaluation arrêtée à votre demande")).to_have_count(0)  # said once
