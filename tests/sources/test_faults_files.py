"""`rag ingest FOLDER` with files that are binary, empty, not UTF-8 or huge: each is indexed or
reported by name with the reason, and the run never crashes nor grows without bound."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.store.store import Store


def _points(data_dir: Path) -> list[dict]:
    store = Store(Settings(data_dir=data_dir))
    try:
        return [p.payload for p in store.scroll("blog")]
    finally:
        store.close()


def test_bad_files_are_reported_by_name_and_the_good_ones_indexed(tmp_path, fake_embeddings_env, data_dir, capsys):
    root = tmp_path / "notes"
    root.mkdir()
    (root / "ok.md").write_text("# Pare-feu\n\nOuvrez le port 88 pour Kerberos.\n", encoding="utf-8")
    (root / "image.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (root / "empty.md").write_bytes(b"")
    (root / "blank.markdown").write_text("\n   \n\t\n", encoding="utf-8")
    (root / "latin.md").write_bytes("# Clé réseau\n\nLe pare-feu bloque l'accès.\n".encode("cp1252"))
    (root / "front-matter-only.md").write_text("---\ntitle: Rien\n---\n", encoding="utf-8")
    (root / "page.html").write_text("<html><body><script>alert(1)</script></body></html>", encoding="utf-8")

    assert main(["ingest", str(root)]) == 1  # the binary file is a failure
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "FAILED image.md: is a binary file (it contains NUL bytes)" in out
    # Files with nothing to index are skipped with the reason, not counted as failures.
    assert "skipped empty.md: is empty, skipped" in out
    assert "skipped blank.markdown: is empty, skipped" in out
    assert "skipped front-matter-only.md: has no text" in out
    assert "skipped page.html: has no text" in out
    assert "warning: latin.md: is not valid UTF-8" in out and "cp1252" in out
    assert "2 new" in out and "4 skipped (no text)" in out and "1 failed" in out
    points = _points(data_dir)
    assert {p["url"] for p in points} == {"ok.md", "latin.md"}
    latin = next(p for p in points if p["url"] == "latin.md")
    assert latin["title"] == "Clé réseau" and "bloque l'accès" in latin["text"]


def test_redirect_stubs_and_lone_links_are_skipped_and_the_run_succeeds(tmp_path, fake_embeddings_env, data_dir, capsys):
    # A real documentation export holds redirect pages (front matter and no text): they used to
    # make every ingestion exit 1.
    root = tmp_path / "docs"
    root.mkdir()
    (root / "klist.md").write_text("# klist\n\nLa commande klist affiche les tickets Kerberos.\n", encoding="utf-8")
    (root / "old-page.md").write_text(
        "---\nredirect_url: /windows-server/security/klist.md\nms.topic: article\n---\n", encoding="utf-8")
    (root / "moved.md").write_text("[Nouvelle adresse](https://docs.example/klist/)\n", encoding="utf-8")
    (root / "links.html").write_text(
        '<html><body><main><ul><li><a href="https://a.example/">https://a.example/</a></li>'
        '<li><a href="https://b.example/">https://b.example/</a></li></ul></main></body></html>', encoding="utf-8")

    assert main(["ingest", str(root)]) == 0
    out = capsys.readouterr().out
    assert "1 new" in out and "3 skipped (no text)" in out and "0 failed" in out
    assert "skipped old-page.md: has no text, only a redirect to /windows-server/security/klist.md" in out
    assert "skipped moved.md: has no text, only a link to https://docs.example/klist/" in out
    assert "skipped links.html: has no text, only 2 links" in out
    assert {p["url"] for p in _points(data_dir)} == {"klist.md"}

    assert main(["ingest", str(root), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["failed"] == [] and report["unchanged"] == 1
    assert {s["item"] for s in report["skipped"]} == {"old-page.md", "moved.md", "links.html"}


_MEASURE = """
import resource, sys
from rag.cli.main import main
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
status = main(sys.argv[1:])
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"MAXRSS_KB {before} {after}", file=sys.stderr)
sys.exit(status)
"""


@pytest.fixture
def fast_data_dir(data_dir, monkeypatch):
    """RAG_DATA_DIR in memory when the machine has a tmpfs: the embedded store commits every point
    to disk, and this test is about memory and completeness, not about the disk's speed."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield data_dir
        return
    with tempfile.TemporaryDirectory(dir=shm, prefix="rag-test-") as folder:
        monkeypatch.setenv("RAG_DATA_DIR", folder)
        yield Path(folder)


@pytest.mark.slow  # 5 MB chunked, embedded and stored
def test_a_five_megabyte_markdown_file_is_chunked_and_indexed_in_bounded_memory(tmp_path, fake_embeddings_env, fast_data_dir):
    data_dir = fast_data_dir
    root = tmp_path / "big"
    root.mkdir()
    # Sections just under the strategy's 2000 characters: one chunk each, about 2700 in all.
    section = ("## Journal {i}\n\n" + ("Le service a redémarré après la mise à jour du certificat ; "
                                      "vérifiez la chaîne avec certutil -verify. " * 9 + "\n\n") * 2)
    sections = []
    size = 0
    i = 0
    while size < 5_000_000:
        sections.append(section.replace("{i}", str(i)))
        size += len(sections[-1].encode("utf-8"))
        i += 1
    (root / "journal.md").write_text("# Journal complet\n\n" + "".join(sections), encoding="utf-8")
    (root / "petit.md").write_text("# Petit\n\nUne note courte.\n", encoding="utf-8")
    assert (root / "journal.md").stat().st_size > 5_000_000

    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, "ingest", str(root), "--json"],
        capture_output=True, text=True, timeout=300, env=dict(os.environ, RAG_DATA_DIR=str(data_dir)),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["new"] == 2 and report["failed"] == [] and report["ok"]
    before_kb, after_kb = map(int, done.stderr.split("MAXRSS_KB ")[1].split()[:2])
    grown_mb = (after_kb - before_kb) / 1024
    # The file is 5 MB; text, chunks, vectors and payloads together stay a small multiple of it.
    assert grown_mb < 250, f"the process grew by {grown_mb:.0f} MB for a 5 MB file"

    points = [p for p in _points(data_dir) if p["url"] == "journal.md"]
    assert len(points) == points[0]["chunks"] == report["chunks_written"] - 1
    assert sorted(p["order"] for p in points) == list(range(len(points)))
    # Every section of the file reached the index.
    assert {f"Journal {k}" for k in range(i)} <= {p["section"] for p in points}
