"""A full disk is a clear error, never a crash (Qdrant Edge's mapped files die of SIGBUS when a
page has no block left): free space is checked before and during writes, nothing indexed is lost,
and the run goes on once space is freed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.store import disk_space
from rag.store.edge_store import EdgeBackend
from rag.store.store import Store

ROOT = Path(__file__).resolve().parents[2]
MB = 1024 * 1024


@pytest.fixture
def folder(tmp_path, monkeypatch, data_dir):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, word in (("a.md", "Kerberos"), ("b.md", "NTLM"), ("c.md", "LDAP")):
        (docs / name).write_text(f"# {word}\n\nLe protocole {word} sert à s'authentifier sur le domaine.\n",
                                 encoding="utf-8")
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    return docs


def _urls(data_dir: Path) -> set[str]:
    store = Store(Settings.from_env())
    try:
        return {p.payload["url"] for p in store.scroll("c", payload=["url"])}
    finally:
        store.close()


def test_a_disk_without_room_for_a_collection_is_a_clear_error(folder, data_dir, monkeypatch, capsys):
    monkeypatch.setenv("RAG_MIN_FREE_MB", str(shutil.disk_usage(folder).free // MB + 1000))
    assert main(["ingest", str(folder), "--collection", "c"]) == 2
    said = capsys.readouterr()
    said = said.out + said.err
    assert "Not enough free space" in said and "RAG_MIN_FREE_MB" in said
    assert not (data_dir / "qdrant" / "c").exists() or not list((data_dir / "qdrant").glob("c.collection.json"))


def test_a_disk_filling_up_during_an_ingest_stops_it_and_loses_nothing(folder, data_dir, monkeypatch, capsys):
    real = shutil.disk_usage
    disk = {"free": None}  # None: the real disk

    def usage(path):
        found = real(path)
        return found if disk["free"] is None else found._replace(free=disk["free"])

    monkeypatch.setattr(disk_space.shutil, "disk_usage", usage)
    upsert = EdgeBackend.upsert

    def fill_after_one(self, name, records):
        upsert(self, name, records)
        disk["free"] = 50 * MB  # another program took the rest of the disk meanwhile

    monkeypatch.setattr(EdgeBackend, "upsert", fill_after_one)
    assert main(["ingest", str(folder), "--collection", "c"]) == 2
    out = capsys.readouterr()
    assert "Not enough free space" in out.out + out.err
    monkeypatch.setattr(EdgeBackend, "upsert", upsert)
    disk["free"] = None
    assert _urls(data_dir) == {"a.md"}  # the document written before is intact

    assert main(["ingest", str(folder), "--collection", "c", "--json"]) == 0  # space freed: it goes on
    report = out = capsys.readouterr().out
    assert '"unchanged": 1' in report and '"new": 2' in report
    assert _urls(data_dir) == {"a.md", "b.md", "c.md"}


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("mount"), reason="mounting a small disk needs root")
def test_an_ingest_on_a_really_full_disk_ends_with_a_message_not_sigbus(folder, tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(small)]).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_")}
        env.update(RAG_DATA_DIR=str(small / "data"), RAG_EMBED_MODEL="embedded", RAG_EMBED_THREADS="1",
                   RAG_LANG="en", PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-m", "rag", "ingest", str(folder), "--collection", "c"], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 2, (done.returncode, done.stderr)  # SIGBUS was -7
        assert "free space" in done.stdout + done.stderr
    finally:
        subprocess.run(["umount", str(small)])
