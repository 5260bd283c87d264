"""`rag ingest` as a user runs it: a folder, progress on stderr, a summary, the exit status."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.store.store import Store

ARTICLES = {
    "kerberos.md": "---\ntitle: Kerberos et RC4\n---\n\n## Pourquoi\n\nRC4 est obsolète.\n\n## Comment\n\n"
                   "Réglez msDS-SupportedEncryptionTypes sur 24.\n",
    "notes/dns.md": "# Résolution DNS\n\nVérifiez les redirecteurs et le cache du serveur.\n",
    "gpo.html": "<html><body><h1>GPO</h1><p>Lancez gpresult /r pour voir les stratégies appliquées.</p></body></html>",
}


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "blog"
    for name, text in ARTICLES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _urls(data_dir: Path, collection: str = "blog") -> set[str]:
    store = Store(Settings(data_dir=data_dir))
    return {p.payload["url"] for p in store.scroll(collection)}


def test_folder_with_a_binary_file_indexes_the_others_and_exits_1(folder, fake_embeddings_env, data_dir, capsys):
    (folder / "photo.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00binary")
    status = main(["ingest", str(folder)])
    out, err = capsys.readouterr()
    assert status == 1
    assert err.splitlines()[0].startswith(f"RAG_EMBED_MODEL={fake_embeddings_env.model}")
    assert "photo.md" in out and "FAILED" in out
    assert "3 new" in out and "1 failed" in out
    assert _urls(data_dir) == {"kerberos.md", "notes/dns.md", "gpo.html"}

    (folder / "photo.md").unlink()
    status = main(["ingest", str(folder), "--prune"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "3 unchanged" in out and "0 failed" in out


def test_access_option_and_json_summary(folder, fake_embeddings_env, data_dir, capsys):
    import json

    assert main(["ingest", str(folder), "--collection", "team", "--access", "private", "--json",
                 "--strategy", "recursive"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["new"] == 3 and summary["ok"] and summary["strategy"] == "recursive"
    store = Store(Settings(data_dir=data_dir))
    assert {tuple(p.payload["access"]) for p in store.scroll("team")} == {("private",)}
    assert store.collection_info("team")["strategy"] == "recursive"


@pytest.mark.slow  # the installed command, twice, in subprocesses
def test_real_command_progress_and_locked_store(folder, fake_embeddings_env, data_dir):
    run_env = dict(os.environ, RAG_DATA_DIR=str(data_dir))
    command = [sys.executable, "-m", "rag", "ingest", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, env=run_env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "3/3 documents" in done.stderr  # one progress line a document when not on a terminal
    assert "Verified" in done.stdout

    # This test process now holds the embedded store: a second `rag ingest` is told what to do.
    holder = Store(Settings(data_dir=data_dir))
    holder.list_collections()
    locked = subprocess.run(command, capture_output=True, text=True, env=run_env, timeout=120)
    assert locked.returncode == 2
    assert "Another process" in locked.stderr and "RAG_QDRANT_URL" in locked.stderr
    holder.close()


def test_a_sites_pages_are_indexed_with_types_and_pruned_without(make_wp_server, fake_embeddings_env, data_dir, capsys):
    from tests.fixtures.wordpress import load_real_pages, load_real_posts

    site = make_wp_server(posts=load_real_posts("frontity")[:2], pages=load_real_pages()[:2])
    assert main(["ingest", site.url, "--types", "posts,pages"]) == 0
    assert "4 new" in capsys.readouterr().out
    assert {p["link"] for p in site.pages} <= _urls(data_dir)

    assert main(["ingest", site.url, "--prune"]) == 0  # posts only: the pages are no longer in the source
    out = capsys.readouterr().out
    assert "2 unchanged" in out and "2 pruned" in out
    assert _urls(data_dir) == {p["link"] for p in site.posts}
