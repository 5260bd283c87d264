"""The Ingest page's unit of sizes: choosing tokens beside the size makes every strategy's chunks
at most that many of the bundled model's tokens, as the CLI's `--unit tokens` does (AppTest)."""

from __future__ import annotations

from rag.chunking.preview import chunkers
from rag.chunking._measure import estimate_tokens
from rag.chunking.token_cap import indexed_chunks
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.sources.uploads import pasted_document
from tests.chunking.test_token_unit import ARTICLES
from tests.fixtures.apptest import open_page

PASTED = ARTICLES[0].read_text(encoding="utf-8").strip()


def test_the_unit_choice_sizes_the_preview_in_tokens(app_env_empty):
    at = open_page("app_pages/2_Ingest.py")
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value(PASTED).run()
    in_chars = [len(d.value) for d in at.dataframe if "tokens" in d.value.columns]
    assert at.radio(key="setting_unit").value == "chars"  # the default stays characters

    at.radio(key="setting_unit").set_value("tokens").run()
    at.number_input(key="setting_chunk_size").set_value(80).run()
    at.number_input(key="setting_max_size").set_value(80).run()
    assert not at.exception
    tables = [d.value for d in at.dataframe if "tokens" in d.value.columns]
    assert len(tables) == 4 and [len(t) for t in tables] != in_chars
    model = EmbeddedEmbedder(threads=1)
    shown = pasted_document(PASTED, "")  # the document the page previews (its front matter read)
    settings = {"chunk_size": 80, "max_size": 80, "unit": "tokens"}
    for table, chunker in zip(tables, chunkers("all", settings)):
        assert chunker.settings()["unit"] == "tokens"  # what the index section indexes with
        expected = [c for c, _ in indexed_chunks(chunker, shown.markdown, shown.title, model.token_count,
                                                 model.max_tokens)]
        assert list(zip(table["from"], table["to"])) == [(c.start, c.end) for c in expected]
        assert all(model.token_count(shown.markdown[a:b]) <= 80 for a, b in zip(table["from"], table["to"]))
    # The index section says what it will index with: the sizes, in tokens.
    assert any("(in tokens)" in c.value for c in at.caption), [c.value for c in at.caption]


def test_a_server_models_window_cuts_the_page_s_preview_with_estimated_tokens(app_env_empty, windowed_server,
                                                                               monkeypatch):
    """With a server model whose server says a 64-token window, the page's preview shows the
    pieces that window cuts, as ingestion will write them, with its tokens marked as estimated."""
    server = windowed_server(api="lmstudio", window=64)
    monkeypatch.setenv("RAG_EMBED_URL", server.url)
    monkeypatch.setenv("RAG_EMBED_MODEL", server.model)
    at = open_page("app_pages/2_Ingest.py")
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value(PASTED).run()
    assert not at.exception
    tables = [d.value for d in at.dataframe if "tokens (estimated)" in d.value.columns]
    assert len(tables) == 4
    shown = pasted_document(PASTED, "")
    for table, chunker in zip(tables, chunkers("all", {})):
        expected = [c for c, _ in indexed_chunks(chunker, shown.markdown, shown.title, estimate_tokens, 64)]
        assert len(expected) > len(chunker.chunk(shown.markdown, title=shown.title))  # the window cut them
        assert list(zip(table["from"], table["to"])) == [(c.start, c.end) for c in expected]
