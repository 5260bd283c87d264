"""The Ingest page's preview counts each chunk in the model's tokens and shows the pieces its
window cuts, as they will be indexed (AppTest, bundled model)."""

from __future__ import annotations

from rag.chunking import STRATEGIES, make_chunker
from rag.chunking.token_cap import cap_tokens
from rag.embeddings.embedded import EmbeddedEmbedder
from tests.chunking.test_token_cap import MARKDOWN
from tests.fixtures.apptest import open_page

PASTED = MARKDOWN.strip()  # what the page keeps of a pasted text


def test_the_preview_shows_tokens_and_the_window_s_pieces(app_env_empty):
    at = open_page("app_pages/2_Ingest.py")
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value(PASTED).run()
    assert not at.exception
    tables = [d.value for d in at.dataframe if "tokens" in d.value.columns]
    assert len(tables) == 4  # one chunk table a strategy, each with the tokens column
    model = EmbeddedEmbedder(threads=1)
    raw = [make_chunker(name).chunk(PASTED, title="Registre Kerberos") for name in STRATEGIES]
    indexed = [cap_tokens(chunks, PASTED, model.token_count, 512) for chunks in raw]
    assert [len(t) for t in tables] == [len(c) for c in indexed]  # as indexed, in the strategies' order
    assert [len(t) for t in tables] != [len(c) for c in raw]  # not the strategies' own chunks
    assert [list(t["tokens"]) for t in tables] == [[model.token_count(c.embedding_text) for c in cs] for cs in indexed]
    assert all(0 < n <= 512 for t in tables for n in t["tokens"])
