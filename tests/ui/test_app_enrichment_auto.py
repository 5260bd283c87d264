"""The Ingest page's enrichment for a new collection follows the documents: `auto` is offered
first, says before anything runs which documents will get a context, and the collection keeps it."""

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


def test_auto_gives_lead_to_the_articles_with_sections_said_before_indexing(app_env_empty):
    at = _page_with([("klist.md", SECTIONED), ("faq.md", FAQ)])
    assert at.selectbox(key="target_enrichment").value == "none"  # the measured default
    at.selectbox(key="target_enrichment").set_value("auto").run()
    assert "1 of 2 documents have sections and will get lead, the others none." in [c.value for c in at.caption]
    at.selectbox(key="preview_doc").set_value("klist.md").run()
    assert table_with(at, "context")["context"][2].startswith("Tickets Kerberos > Purger\nCet article montre")
    at.selectbox(key="preview_doc").set_value("faq.md").run()
    assert not any("context" in str(getattr(d, "value", "")) for d in at.dataframe)  # no context to preview

    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    store = Store(Settings.from_env())
    assert store.collection_info("blog")["enrichment"]["mode"] == "auto"
    contexts = {p.payload["url"]: bool(p.payload.get("context")) for p in store.scroll("blog")}
    store.close()
    assert contexts == {"klist.md": True, "faq.md": False}


def test_an_explicit_choice_wins(app_env_empty):
    at = _page_with([("faq.md", FAQ)])
    at.selectbox(key="target_enrichment").set_value("auto").run()
    assert "0 of 1 documents have sections and will get lead, the others none." in [c.value for c in at.caption]
    at.selectbox(key="target_enrichment").set_value("lead").run()
    assert not any("will get lead" in c.value for c in at.caption)
    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    store = Store(Settings.from_env())
    assert store.collection_info("blog")["enrichment"] == {"mode": "lead", "model": None}
    assert all(p.payload.get("context") for p in store.scroll("blog"))
    store.close()
