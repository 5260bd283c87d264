"""Qdrant unusable: a server URL where nothing listens, or an embedded folder another process holds.
Every command says which Qdrant it tried and what to do, and never shows the API key."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rag.cli.main import main
from tests.fixtures.embeddings_server import free_port

API_KEY = "qdrant-key-7f3a9c1e"


@pytest.fixture
def closed_url(fake_embeddings_env, monkeypatch) -> str:
    url = f"http://127.0.0.1:{free_port()}"  # bound then released: nothing listens there
    monkeypatch.setenv("RAG_QDRANT_URL", url)
    monkeypatch.setenv("RAG_QDRANT_API_KEY", API_KEY)
    monkeypatch.setenv("RAG_TIMEOUT", "5")
    return url


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "dns.md").write_text("# DNS\n\nVérifiez les redirecteurs.\n", encoding="utf-8")
    return root


def _assert_clear(text: str, url: str) -> None:
    assert f"Cannot reach the Qdrant server at {url}" in text, text
    assert "docker compose up -d qdrant" in text and "RAG_QDRANT_URL" in text
    assert API_KEY not in text
    assert "Traceback" not in text


def test_status_names_the_unreachable_server(closed_url, capsys):
    assert main(["status"]) == 1
    out, err = capsys.readouterr()
    assert f"Qdrant: server at {closed_url}: NOT available" in out
    _assert_clear(out + err, closed_url)
    assert main(["status", "--json"]) == 1
    _assert_clear(capsys.readouterr().out, closed_url)


def test_ingest_stops_with_a_store_error_naming_the_url(closed_url, folder, capsys):
    assert main(["ingest", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert "error: Cannot reach the Qdrant server" in err
    _assert_clear(out + err, closed_url)


def test_ask_stops_with_a_store_error_naming_the_url(closed_url, capsys):
    assert main(["ask", "Comment vérifier les redirecteurs DNS ?"]) == 2
    out, err = capsys.readouterr()
    assert "error: Cannot reach the Qdrant server" in err
    _assert_clear(out + err, closed_url)


def test_a_url_with_a_password_is_shown_without_it(closed_url, monkeypatch, capsys):
    with_password = closed_url.replace("http://", "http://admin:url-pass-41d2@")
    monkeypatch.setenv("RAG_QDRANT_URL", with_password)
    assert main(["status"]) == 1
    assert main(["ask", "Une question ?"]) == 2
    out, err = capsys.readouterr()
    assert "url-pass-41d2" not in out + err
    assert "http://***@127.0.0.1" in out + err


@pytest.mark.slow  # a second process holds the store
def test_status_and_ask_on_an_embedded_store_held_by_another_process(data_dir, tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys
            from pathlib import Path
            from rag.config import Settings
            from rag.store.store import Store
            Store(Settings(data_dir=Path({str(data_dir)!r}))).list_collections()
            print("ready", flush=True)
            sys.stdin.readline()
        """)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    env_code = f"import os, sys; os.environ['RAG_DATA_DIR'] = {str(data_dir)!r}; os.environ['RAG_LLM_URL'] = 'http://127.0.0.1:9/v1'"
    try:
        assert holder.stdout.readline().strip() == "ready"
        for command, expected_status in ((["status"], 1), (["ask", "Une question ?"], 2)):
            done = subprocess.run(
                [sys.executable, "-c", f"{env_code}; from rag.cli.main import main; sys.exit(main({command!r}))"],
                capture_output=True, text=True, timeout=60,
            )
            output = done.stdout + done.stderr
            assert done.returncode == expected_status, output
            assert "Another process" in output and str(data_dir / "qdrant") in output
            assert "RAG_QDRANT_URL" in output and "Traceback" not in output
    finally:
        holder.communicate("\n", timeout=30)
