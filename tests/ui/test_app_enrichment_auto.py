"""The Ingest page's enrichment for a new collection follows the documents: `auto` is offered
first, says which mode indexing will use and why before anything runs, and the collection keeps it."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from rag.config import Settings
from rag.store.store import Store
from tests.fixtures.apptest import open_page, table_with

SECTIONED = (b"---\ntitle: Tickets Kerberos\n---\n\nCet article montre comment lister et purger les tickets "
             b"Kerberos avec klist, sans redemarrer la session.\n\n## Lister\n\nLancez klist pour voir le cache.\n\n"
             b"## Purger\n\nLancez klist purge : chaque ticket est redemande au prochain acces.\n")
FAQ = (b"# Comment supprimer un compte ?\n\nConnectez-vous, ouvrez les parametres du compte et choisissez "
       b"Supprimer le profil, puis suivez les instructions.\n")


def _page_with(files: list[tuple[str, bytes]]) -> AppTest:
    at = open_page("app_pages/2_Ingest.py")
    at.radio(key="source_kind").set_value("upload").run()
    at.file_uploader[0].set_value([(name, data, "text/markdown") for name, data in files]).run()
    at.selectbox(key="target_strategy").set_value("sections").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_new_collection_of_articles_in_sections_gets_lead_said_before_and_after(app_env_empty):
    at = _page_with([("klist.md", SECTIONED)])
    assert at.selectbox(key="target_enrichment").value == "auto"
    captions = [c.value for c in at.caption]
    assert "Indexing will use lead: headings and the article's lead (chosen from the documents: 1 of 1 have " \
           "sections, where the article's lead situates each chunk)." in captions
    assert table_with(at, "context")["context"][2].startswith("Tickets Kerberos > Purger\nCet article montre")

    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Enrichment lead, chosen from the documents: 1 of 1 have sections, where the article's lead " \
           "situates each chunk." in [c.value for c in at.caption]
    store = Store(Settings.from_env())
    info = store.collection_info("blog")
    assert info["enrichment"]["mode"] == "lead" and info["enrichment"]["chosen"]["with_sections"] == 1
    assert all(p.payload.get("context") for p in store.scroll("blog"))
    store.close()


def test_faq_pages_get_none_and_an_explicit_choice_wins(app_env_empty):
    at = _page_with([("faq.md", FAQ)])
    assert any(c.value.startswith("Indexing will use none (chosen from the documents: 0 of 1 have sections")
               for c in at.caption)
    at.selectbox(key="target_enrichment").set_value("lead").run()
    assert not any(c.value.startswith("Indexing will use") for c in at.caption)
    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    store = Store(Settings.from_env())
    assert store.collection_info("blog")["enrichment"] == {"mode": "lead", "model": None}
    store.close()
