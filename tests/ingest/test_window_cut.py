"""What ingestion writes and says of a document cut to a server model's window (counted by the
estimate), and that the bundled model's exact cut is left to the preview to show."""

from __future__ import annotations

from rag.chunking import make_chunker
from rag.chunking._measure import estimate_tokens
from rag.documents import Document
from rag.ingest.window_cut import window_chunks

ARTICLE = Document("klist.md", "Klist", "## Lister\n\n" + "La commande klist affiche les tickets du cache. " * 12
                   + "\n\n## Purger\n\n" + "La commande klist purge vide le cache de la session. " * 12 + "\n")


def test_a_server_window_cuts_the_chunks_and_says_so_with_the_window():
    chunks, warnings = window_chunks(make_chunker("markdown"), ARTICLE, (estimate_tokens, 64))
    whole, none = window_chunks(make_chunker("markdown"), ARTICLE, (estimate_tokens, None))
    assert len(chunks) > len(whole) and not none
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert all(estimate_tokens(c.embedding_text) <= 64 for c in chunks)
    assert len(warnings) == 1 and "64" in warnings[0] and "klist.md" in warnings[0]


def test_the_bundled_models_exact_cut_gives_no_warning():
    def exact(text: str) -> int:  # any count but the estimate: a model's own tokenizer
        return estimate_tokens(text)

    chunks, warnings = window_chunks(make_chunker("markdown"), ARTICLE, (exact, 64))
    assert len(chunks) > 2 and warnings == []
