"""`rag preview`: what a user sees for a file, an HTML file and a web page, in text and JSON."""

from __future__ import annotations

import http.server
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rag.chunking import STRATEGIES
from rag.chunking.base import Chunk
from rag.chunking.stats import first_line, summarize, warnings_text
from rag.cli.main import main
from tests.fixtures.net import start_http_server, stop_http_server

ROOT = Path(__file__).resolve().parents[2]
# The keys of a previewed chunk that are measured, not part of the chunk itself.
DERIVED = {"chars", "tokens", "body_tokens", "tokens_estimated", "window_cut_from"}

GUIDE = """---
title: Guide Kerberos
---
# Guide Kerberos

Introduction au protocole et à ses tickets.

## Lister les tickets

Tapez la commande suivante :

```cmd
klist tickets
```

## Paramètres

| Paramètre | Description |
|-----------|-------------|
| -lh | Partie haute de l’identifiant de session. |
| -li | Partie basse de l’identifiant de session. |
"""


@pytest.fixture
def guide(tmp_path) -> Path:
    path = tmp_path / "guide.md"
    path.write_text(GUIDE, encoding="utf-8")
    return path


def _json(capsys, *argv: str) -> dict:
    assert main(["preview", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_the_contract_shape_for_every_strategy(guide, capsys):
    data = _json(capsys, str(guide), "--strategy", "all")
    assert set(data) == {"url", "title", "markdown", "window_tokens", "strategies"}
    assert data["url"] == "guide.md" and data["title"] == "Guide Kerberos"
    assert "title:" not in data["markdown"]  # front matter is metadata, not text to chunk
    assert list(data["strategies"]) == list(STRATEGIES)
    for name, result in data["strategies"].items():
        assert set(result) == {"settings", "chunks"}
        assert result["chunks"], name
        for chunk in result["chunks"]:
            assert set(chunk) == {"index", "start", "end", "text", "header", "heading_path", "section", "warnings",
                                  "chars", "tokens", "body_tokens", "tokens_estimated", "window_cut_from"}
            assert chunk["tokens"] > 0 and chunk["window_cut_from"] is None  # short: nothing to cut
            assert chunk["text"] == data["markdown"][chunk["start"] : chunk["end"]]
            assert chunk["chars"] == chunk["end"] - chunk["start"]
    sections = data["strategies"]["sections"]["chunks"]
    assert [c["header"] for c in sections] == [
        "Article: Guide Kerberos\nSection: Introduction",
        "Article: Guide Kerberos\nSection: Lister les tickets",
        "Article: Guide Kerberos\nSection: Paramètres",
    ]
    assert sections[2]["heading_path"] == ["Guide Kerberos", "Paramètres"]


def test_settings_flags_reach_the_strategies_that_use_them(guide, capsys):
    data = _json(capsys, str(guide), "--chunk-size", "120", "--overlap", "30", "--min-size", "50", "--max-size", "150")
    settings = {name: result["settings"] for name, result in data["strategies"].items()}
    assert settings == {
        "recursive": {"chunk_size": 120, "overlap": 30},
        "sections": {"max_size": 150, "overlap": 30},
        "sections_min_max": {"min_size": 50, "max_size": 150},
        "markdown": {"chunk_size": 120, "overlap": 30},
    }
    for result in data["strategies"].values():
        size = result["settings"].get("chunk_size") or result["settings"]["max_size"]
        assert all(c["chars"] <= size for c in result["chunks"])


def test_a_small_size_scales_the_default_overlap_down(guide, capsys):
    data = _json(capsys, str(guide), "--strategy", "sections", "--max-size", "150")
    assert data["strategies"]["sections"]["settings"] == {"max_size": 150, "overlap": 30}


def test_one_strategy_text_listing(guide, capsys):
    assert main(["preview", str(guide), "--strategy", "recursive", "--chunk-size", "100", "--overlap", "0"]) == 0
    out = capsys.readouterr().out
    assert "== recursive (--chunk-size 100 --overlap 0)" in out  # the flags that give them, not Python's names
    assert "sections" not in out
    assert "chunks; characters min" in out and "median" in out and "warnings:" in out
    assert "#0" in out and "# Guide Kerberos" in out
    # The baseline cuts the table into rows that no longer say what they are: said in words, as the
    # Ingest page says them (the codes, "table_split", stay in --json), under named columns.
    assert "| -lh | Partie haute de l’identifiant de session. |  [table without header, no heading]" in out
    assert "table_split" not in out
    assert "chunks carry no heading: retrieved alone" in out or "chunk carries no heading" in out
    assert "start-end" in out and "chunk begins" in out


def test_a_single_chunk_is_one_chunk(tmp_path, capsys):
    short = tmp_path / "court.md"
    short.write_text("# Court\n\nUne ligne.\n", encoding="utf-8")
    code = main(["preview", str(short), "--strategy", "markdown"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and any(line.startswith("   1 chunk; characters min") for line in lines)


def test_html_file_is_converted_before_chunking(tmp_path, capsys):
    page = tmp_path / "page.html"
    page.write_text(
        "<html><head><title>Page HTML</title></head><body><article><h1>Page HTML</h1>"
        "<p>Premier paragraphe.</p><h2>Commande</h2><pre><code>## pas un titre\nklist</code></pre>"
        "</article></body></html>",
        encoding="utf-8",
    )
    data = _json(capsys, str(page), "--strategy", "sections")
    chunks = data["strategies"]["sections"]["chunks"]
    assert data["title"] == "Page HTML"
    assert "<p>" not in data["markdown"]
    assert [c["header"].split("\n")[-1] for c in chunks] == ["Section: Introduction", "Section: Commande"]


@pytest.fixture
def web_page(tmp_path):
    (tmp_path / "post.html").write_text(
        "<html><head><title>Article en ligne</title></head><body><main><h1>Article en ligne</h1>"
        "<p>Texte de l’article.</p><h2>Suite</h2><p>Encore du texte.</p></main></body></html>",
        encoding="utf-8",
    )

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, *args):
            pass

    server, thread, port = start_http_server(Quiet)
    yield f"http://127.0.0.1:{port}/post.html"
    stop_http_server(server, thread)


def test_a_url_is_fetched_and_previewed(web_page, capsys):
    data = _json(capsys, web_page, "--strategy", "markdown", "--timeout", "5")
    assert data["url"] == web_page and data["title"] == "Article en ligne"
    chunks = data["strategies"]["markdown"]["chunks"]
    assert chunks and "Encore du texte." in chunks[-1]["text"]


def test_errors_say_what_to_do(tmp_path, capsys):
    assert main(["preview", str(tmp_path / "absent.md")]) == 2
    assert "No such file" in capsys.readouterr().err
    assert main(["preview", str(tmp_path)]) == 2  # a folder exists: it is not "missing"
    assert f"{tmp_path} is a folder: a preview reads one document" in capsys.readouterr().err
    (tmp_path / "a.md").write_text("# A\n\nTexte.\n", encoding="utf-8")
    assert main(["preview", str(tmp_path / "a.md"), "--strategy", "semantic"]) == 2
    err = capsys.readouterr().err
    assert "semantic" in err and all(name in err for name in STRATEGIES)
    assert main(["preview", str(tmp_path / "a.md"), "--chunk-size", "100", "--overlap", "100"]) == 2
    assert "overlap" in capsys.readouterr().err


@pytest.mark.slow  # the installed command in a subprocess
def test_real_page_through_the_installed_command(corpora):
    page = corpora / "docs-fr" / "docs" / "WindowsServerDocs" / "administration" / "windows-commands" / "arp.md"
    rag = ROOT / ".venv" / "bin" / "rag"
    command = [str(rag)] if rag.exists() else [shutil.which("rag") or sys.executable, "-m", "rag"]
    done = subprocess.run(
        [*command, "preview", str(page), "--json"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    markdown = data["markdown"]
    for result in data["strategies"].values():
        assert all(c["text"] == markdown[c["start"] : c["end"]] for c in result["chunks"])
    # The baseline pays for ignoring structure on this page; the structure-aware ones do not cut its code.
    recursive = summarize([Chunk(**{k: v for k, v in c.items() if k not in DERIVED}) for c in data["strategies"]["recursive"]["chunks"]])
    assert recursive["warnings"]["table_split"] + recursive["warnings"]["no_heading_context"] > 0
    for name in ("sections", "sections_min_max", "markdown"):
        assert all("code_block_split" not in c["warnings"] for c in data["strategies"][name]["chunks"])


def test_stats_summarize_sizes_and_warnings():
    chunks = [
        Chunk(0, 0, 100, "x" * 100, warnings=["tiny"]),
        Chunk(1, 100, 400, "## Titre\n" + "y" * 291, warnings=["table_split", "oversized"]),
        Chunk(2, 400, 600, "z" * 200),
    ]
    stats = summarize(chunks)
    assert stats["chunks"] == 3
    assert (stats["min_chars"], stats["median_chars"], stats["max_chars"]) == (100, 200, 300)
    assert stats["warnings"] == {
        "code_block_split": 0,
        "table_split": 1,
        "no_heading_context": 0,
        "oversized": 1,
        "tiny": 1,
    }
    assert stats["chunks_with_warnings"] == 2
    assert warnings_text(chunks).split("; ") == [
        "1 chunk holds table rows without the header row", "1 chunk is larger than the size asked for",
        "1 chunk is tiny: too little text to be retrieved well"]
    assert summarize([])["chunks"] == 0 and warnings_text([]) == "none"
    assert first_line(chunks[1]) == "## Titre"
    assert first_line(Chunk(0, 0, 200, "\n\n" + "w" * 200), width=10) == "wwwwwwwww…"


def test_the_curl_block_never_prints_a_password_typed_into_the_url(tmp_path, monkeypatch, capsys):
    from rag.cli.main import main

    doc = tmp_path / "k.md"
    doc.write_text("# Kerberos\n\nLe KDC délivre les tickets.\n", encoding="utf-8")
    monkeypatch.setenv("RAG_EMBED_URL", "http://alice:s3cr%40t@127.0.0.1:1234/v1")
    assert main(["preview", str(doc), "--curl", "lmstudio", "--model", "nomic-embed-text"]) == 0
    out = capsys.readouterr().out
    assert "s3cr" not in out and "alice:" not in out
    assert "--user alice" in out  # curl asks for the password itself
    assert "curl -sS http://127.0.0.1:1234/v1/embeddings" in out
