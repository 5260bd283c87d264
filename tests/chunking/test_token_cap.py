"""No chunk longer than the bundled model's 512-token window: such a chunk is cut again, in the
model's own tokens, into exact slices that keep their context header (real tokenizer, real model)."""

from __future__ import annotations

from rag.chunking import make_chunker
from rag.chunking.token_cap import cap_tokens
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.ingest.run import ingest
from rag.store.store import Store

# One long section of dense identifiers: about 2,000 characters, far more than 512 tokens.
LINES = "\n".join(f"- HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters\\Key{i:03d} = 0x{i:08X}"
                  for i in range(24))
MARKDOWN = f"# Registre Kerberos\n\n## Clés\n\n{LINES}\n\n## Fin\n\nRedémarrez le serveur.\n"


def test_an_oversized_chunk_is_cut_into_exact_slices_that_fit():
    model = EmbeddedEmbedder(threads=1)
    chunks = make_chunker("sections").chunk(MARKDOWN, title="Registre Kerberos")
    assert max(model.token_count(c.embedding_text) for c in chunks) > 512
    capped = cap_tokens(chunks, MARKDOWN, model.token_count, 512)
    assert len(capped) > len(chunks) and [c.index for c in capped] == list(range(len(capped)))
    for c in capped:
        assert model.token_count(c.embedding_text) <= 512
        assert c.text == MARKDOWN[c.start:c.end] and c.header.startswith("Article: Registre Kerberos")
    # Nothing lost: the pieces of an oversized chunk hold every word of it, in order.
    big = max(chunks, key=lambda c: model.token_count(c.embedding_text))
    pieces = cap_tokens([big], MARKDOWN, model.token_count, 512)
    assert len(pieces) > 1 and " ".join(p.text for p in pieces).split() == big.text.split()


def test_ingestion_with_the_bundled_model_stores_no_diluted_chunk(tmp_path):
    store = Store(Settings(data_dir=tmp_path / "data"))
    try:
        report = ingest([Document("reg.md", "Registre Kerberos", MARKDOWN)], store, EmbeddedEmbedder(threads=1),
                        "kb", strategy="sections")
        assert report.ok and not [w for w in report.warnings if "512" in w], report.warnings
        model = EmbeddedEmbedder(threads=1)
        points = list(store.scroll("kb", payload=["header", "text"]))
        assert len(points) > 2
        assert all(model.token_count(f"{p.payload['header']}\n\n{p.payload['text']}") <= 512 for p in points)
    finally:
        store.close()


def test_a_document_previewed_and_indexed_gives_the_same_chunks(tmp_path, capsys, monkeypatch):
    """`rag preview` shows the pieces the model's window cuts, counted in the model's tokens,
    exactly as `rag ingest` writes them: same bodies, same spans, same headers, same order."""
    import json

    from rag.cli.main import main

    monkeypatch.delenv("RAG_EMBED_MODEL", raising=False)
    path = tmp_path / "reg.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    assert main(["preview", str(path), "--strategy", "sections", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    shown = data["strategies"]["sections"]["chunks"]
    model = EmbeddedEmbedder(threads=1)
    assert data["window_tokens"] == 512
    strategy_chunks = make_chunker("sections").chunk(data["markdown"], title=data["title"])
    assert len(shown) > len(strategy_chunks)  # the preview shows the cut, not the strategy's 3 chunks
    assert any(c["window_cut_from"] is not None for c in shown)
    for c in shown:
        assert c["tokens"] == model.token_count(f"{c['header']}\n\n{c['text']}" if c["header"] else c["text"])
        assert c["tokens"] <= 512 and not c["tokens_estimated"]

    assert main(["preview", str(path), "--strategy", "sections"]) == 0
    text = capsys.readouterr().out
    assert "512" in text and str(shown[1]["tokens"]) in text

    from rag.sources import load_one

    store = Store(Settings(data_dir=tmp_path / "data"))
    try:
        assert ingest([load_one(str(path))], store, model, "kb", strategy="sections").ok
        points = sorted(store.scroll("kb", payload=["order", "text", "header", "start", "end"]),
                        key=lambda p: p.payload["order"])
        indexed = [(p.payload["start"], p.payload["end"], p.payload["header"], p.payload["text"]) for p in points]
    finally:
        store.close()
    assert indexed == [(c["start"], c["end"], c["header"], c["text"]) for c in shown]
