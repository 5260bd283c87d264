"""Enrichment on the Ingest page: the mode beside the strategy, each chunk's context before
indexing, what the chat model's contexts cost, and a clear refusal without a chat model."""

from __future__ import annotations


from streamlit.testing.v1 import AppTest

from rag.config import Settings
from rag.store.store import Store
from tests.fixtures.apptest import open_page, table_with

ARTICLE = (b"---\ntitle: Tickets Kerberos\n---\n\nCet article montre comment lister et purger les tickets "
           b"Kerberos avec klist, sans redemarrer la session.\n\n## Lister\n\nLancez klist pour voir le cache.\n\n"
           b"## Purger\n\nLancez klist purge : chaque ticket est redemande au prochain acces.\n")


def _page_with_one_upload() -> AppTest:
    at = open_page("app_pages/2_Ingest.py")
    at.radio(key="source_kind").set_value("upload").run()
    at.file_uploader[0].set_value([("klist.md", ARTICLE, "text/markdown")]).run()
    at.selectbox(key="target_strategy").set_value("sections").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _contexts(at: AppTest):
    return table_with(at, "context")


def test_lead_contexts_are_previewed_then_indexed_apart_from_the_cited_text(app_env_empty, lmstudio):
    at = _page_with_one_upload()
    at.selectbox(key="target_enrichment").set_value("lead").run()
    contexts = _contexts(at)
    assert list(contexts["section"]) == ["Introduction", "Lister", "Purger"]
    assert contexts["context"][2].startswith("Tickets Kerberos > Purger\nCet article montre")

    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Enrichment lead: 3 contexts, no model." in [c.value for c in at.caption]
    assert lmstudio.chat_calls == 0
    store = Store(Settings.from_env())
    points = sorted((p.payload for p in store.scroll("blog")), key=lambda p: p["order"])
    assert points[2]["context"] == contexts["context"][2] and points[2]["text"].startswith("## Purger")
    assert store.collection_info("blog")["enrichment"]["mode"] == "lead"
    store.close()

    # Another enrichment on this collection is said in words and needs a rebuild.
    at.selectbox(key="target_enrichment").set_value("none").run()
    assert any("indexed with the enrichment" in w.value for w in at.warning)
    assert at.button(key="index").disabled


def test_model_contexts_are_written_on_request_and_reused_by_indexing(app_env_empty, lmstudio):
    lmstudio.answer = "Cet extrait appartient au guide klist sur les tickets Kerberos."
    at = _page_with_one_upload()
    at.selectbox(key="target_enrichment").set_value("llm").run()
    assert lmstudio.chat_calls == 0  # nothing is asked before the button
    at.button(key="enrich_preview").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert list(_contexts(at)["context"]) == [lmstudio.answer] * 3 and lmstudio.chat_calls == 3
    assert any("3 written" in c.value and "tokens read" in c.value for c in at.caption)

    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert lmstudio.chat_calls == 3  # the previewed contexts came from the cache
    assert any("3 from the cache, 0 written" in c.value for c in at.caption)


def test_without_a_chat_model_the_model_modes_say_so_and_index_nothing(app_env_empty, lmstudio):
    lmstudio.unload_all()
    at = _page_with_one_upload()
    at.selectbox(key="target_enrichment").set_value("questions").run()
    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "This enrichment needs a chat model loaded in LM Studio." in [e.value for e in at.error]
    assert not at.metric
    store = Store(Settings.from_env())
    assert not store.exists("blog")
    store.close()
