"""Sizes in tokens: `--unit tokens` makes every strategy's chunk at most N tokens by the embedding
model's own count (the bundled model's tokenizer; the documented estimate for a server's model),
with bodies that stay exact slices of the document, and characters remain the default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.chunking import STRATEGIES, make_chunker
from rag.chunking.preview import chunkers
from rag.chunking._measure import CHARS_PER_TOKEN, estimate_tokens
from rag.cli.main import main
from rag.config import Settings
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.errors import ConfigError
from rag.store.store import Store
from tests.fixtures.stored import stored_chunks

DEMO = Path(__file__).resolve().parents[2] / "rag" / "demo" / "articles"
ARTICLES = [DEMO / "kerberos-klist.md", DEMO / "msds-supportedencryptiontypes.md", DEMO / "windows-laps.md"]
SIZE = 96


def _sizes(name: str, size: int) -> dict[str, int]:
    return {"recursive": {"chunk_size": size, "overlap": size // 6}, "markdown": {"chunk_size": size, "overlap": size // 6},
            "sections": {"max_size": size, "overlap": size // 6},
            "sections_min_max": {"min_size": size // 3, "max_size": size}}[name]


@pytest.fixture(scope="module")
def model() -> EmbeddedEmbedder:
    return EmbeddedEmbedder(threads=1)


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_a_chunk_sized_in_tokens_is_at_most_n_tokens_by_the_models_count(name, model):
    chunker = make_chunker(name, unit="tokens", **_sizes(name, SIZE))
    chunker.count = model.token_count
    for path in ARTICLES:
        markdown = path.read_text(encoding="utf-8")
        chunks = chunker.chunk(markdown, title="T")
        counts = [model.token_count(c.text) for c in chunks]
        assert max(counts) <= SIZE, (path.name, max(counts))
        assert max(counts) > SIZE * 0.8  # the budget is used, not a few words a chunk
        for c in chunks:
            assert markdown[c.start:c.end] == c.text
        # Nothing lost: every character of the document is in a chunk (overlaps aside).
        covered = set()
        for c in chunks:
            covered.update(range(c.start, c.end))
        assert all(i in covered for i, ch in enumerate(markdown) if not ch.isspace())


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_without_a_tokenizer_the_size_is_the_documented_estimate(name):
    markdown = ARTICLES[0].read_text(encoding="utf-8")
    chunker = make_chunker(name, unit="tokens", **_sizes(name, SIZE))  # no tokenizer set: the estimate
    chunks = chunker.chunk(markdown, title="T")
    assert all(estimate_tokens(c.text) <= SIZE for c in chunks)
    assert max(len(c.text) for c in chunks) <= SIZE * CHARS_PER_TOKEN
    assert all(markdown[c.start:c.end] == c.text for c in chunks)


def test_characters_stay_the_default_and_record_no_unit():
    markdown = ARTICLES[0].read_text(encoding="utf-8")
    default, explicit = make_chunker("markdown"), make_chunker("markdown", unit="chars")
    assert default.settings() == explicit.settings() == {"chunk_size": 1000, "overlap": 200}
    assert [c.text for c in default.chunk(markdown)] == [c.text for c in explicit.chunk(markdown)]
    assert make_chunker("sections", unit="tokens").settings()["unit"] == "tokens"
    # A size not given in tokens is the default's length at the estimate, not 1000 tokens.
    assert chunkers("markdown", {"unit": "tokens"})[0].settings() == {"chunk_size": 290, "overlap": 60,
                                                                        "unit": "tokens"}
    with pytest.raises(ConfigError, match="words"):
        make_chunker("markdown", unit="words")


def test_preview_and_index_give_the_same_chunks_in_tokens(tmp_path, data_dir, monkeypatch, capsys, model):
    """`rag preview --unit tokens` and `rag ingest --unit tokens` cut a document the same way,
    each body at most the size by the bundled model's count, and the collection records the unit."""
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    folder = tmp_path / "blog"
    folder.mkdir()
    (folder / "klist.md").write_text(ARTICLES[0].read_text(encoding="utf-8"), encoding="utf-8")
    flags = ["--strategy", "markdown", "--unit", "tokens", "--chunk-size", "120", "--overlap", "20"]
    assert main(["preview", str(folder / "klist.md"), "--json", *flags]) == 0
    data = json.loads(capsys.readouterr().out)
    shown = data["strategies"]["markdown"]["chunks"]
    assert data["strategies"]["markdown"]["settings"] == {"chunk_size": 120, "overlap": 20, "unit": "tokens"}
    assert len(shown) > 5
    for c in shown:
        assert c["body_tokens"] == model.token_count(c["text"]) <= 120 and not c["tokens_estimated"]

    assert main(["ingest", str(folder), "--collection", "kb", *flags]) == 0
    capsys.readouterr()
    store = Store(Settings.from_env())
    try:
        info = store.collection_info("kb")
    finally:
        store.close()
    indexed = stored_chunks("kb")
    assert info["chunk_settings"] == {"chunk_size": 120, "overlap": 20, "unit": "tokens"}
    assert indexed == [(c["start"], c["end"], c["header"], c["text"]) for c in shown]


def test_the_curl_command_embeds_the_chunks_sized_in_tokens(monkeypatch, capsys):
    """`rag preview --curl` sends the same chunks as the preview shows: sized in the model's tokens."""
    monkeypatch.delenv("RAG_EMBED_MODEL", raising=False)
    flags = ["--strategy", "markdown", "--unit", "tokens", "--chunk-size", "60", "--overlap", "0"]
    assert main(["preview", str(ARTICLES[0]), "--json", *flags]) == 0
    shown = json.loads(capsys.readouterr().out)["strategies"]["markdown"]["chunks"]
    assert main(["preview", str(ARTICLES[0]), "--curl", "lmstudio", "--model", "m", *flags]) == 0
    body = capsys.readouterr().out.split("<<'RAG_EMBED_REQUEST'\n", 1)[1].split("\nRAG_EMBED_REQUEST", 1)[0]
    sent = json.loads(body)["input"]
    assert sent == [f"{c['header']}\n\n{c['text']}" if c["header"] else c["text"] for c in shown]
    assert all(c["body_tokens"] <= 60 for c in shown)


@pytest.mark.parametrize("text", ["a " * 3000, "x\n" * 3000, "QUJDREVGR0hJSktMTU5P" * 600])
def test_chunks_in_tokens_fill_their_size_on_text_of_tiny_words(text, model):
    """One-token words, lines, or no space at all: chunks still fill their size (they do not
    shrink to a word each) and stay within it."""
    chunker = make_chunker("recursive", unit="tokens", chunk_size=64, overlap=8)
    chunker.count = model.token_count
    chunks = chunker.chunk(text)
    counts = [model.token_count(c.text) for c in chunks]
    assert max(counts) <= 64 and min(counts[:-1]) >= 56, counts[:10]
    assert all(text[c.start:c.end] == c.text for c in chunks)
