"""A real `rag ingest FOLDER` killed with SIGKILL midway, then run again: nothing lost, nothing twice,
on both store backends (Qdrant Edge embedded, and the server API through qdrant-client's local mode).

The run is slowed down by the fake embeddings server's delay so that it can be killed after some
documents are written and before the last one. The re-run must end with exactly the points of a
clean run into another collection: same ids, same payloads, every chunk of every document once.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.fixtures.backends import open_store, rag_command

DOCUMENTS = 12


def _write_folder(root: Path) -> Path:
    root.mkdir(parents=True)
    for i in range(DOCUMENTS):
        sections = "\n\n".join(
            f"## Étape {j} de la procédure {i}\n\n"
            f"Pour la procédure {i}, l'étape {j} consiste à vérifier le réglage numéro {i * 10 + j}. "
            "Relancez ensuite le service et contrôlez le journal des événements."
            for j in range(1 + i % 4)
        )
        (root / f"procedure-{i:02d}.md").write_text(
            f"# Procédure {i}\n\nIntroduction de la procédure {i}.\n\n{sections}\n", encoding="utf-8"
        )
    return root


def _env(data_dir: Path, server) -> dict[str, str]:
    return dict(
        os.environ,
        RAG_DATA_DIR=str(data_dir),
        RAG_EMBED_URL=server.url,
        RAG_EMBED_MODEL=server.model,
        RAG_LLM_URL=server.url,
    )


def _points(kind: str, data_dir: Path, collection: str) -> dict[str, dict]:
    store = open_store(kind, data_dir)
    try:
        points = list(store.scroll(collection))
        assert len(points) == len({p.id for p in points}) == store.count(collection)
        return {p.id: p.payload for p in points}
    finally:
        store.close()


def _complete_documents(points: dict[str, dict]) -> dict[str, int]:
    """url -> number of chunks, asserting every document holds chunks 0..n-1 exactly once."""
    by_url: dict[str, list[int]] = {}
    for payload in points.values():
        by_url.setdefault(payload["url"], []).append(payload["order"])
    for url, orders in by_url.items():
        chunks = {p["chunks"] for p in points.values() if p["url"] == url}
        assert len(chunks) == 1, f"{url} mixes two versions"
        assert sorted(orders) == list(range(chunks.pop())), f"{url} has missing or extra chunks: {sorted(orders)}"
    return {url: len(orders) for url, orders in by_url.items()}


@pytest.mark.slow  # real rag ingest processes, one killed midway
def test_sigkill_midway_then_rerun_ends_with_exactly_the_clean_run_points(tmp_path, data_dir, fake_embeddings_server,
                                                                          backend_kind):
    folder = _write_folder(tmp_path / "procedures")
    # Every embeddings call waits: one call a document, so the run lasts a few seconds.
    server = fake_embeddings_server(dimension=16, mode="slow", delay=0.25)
    env = _env(data_dir, server)
    command = rag_command(backend_kind) + ["ingest", str(folder)]

    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []

    def read() -> None:
        for line in process.stderr:
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    indexed = re.compile(rf"^(\d+)/{DOCUMENTS} documents.*\[new\]")
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and process.poll() is None:
            done = [int(m.group(1)) for m in map(indexed.match, list(lines)) if m]
            if done and done[-1] >= 4:
                break
            time.sleep(0.02)
        assert process.poll() is None, "the run ended before it could be killed:\n" + "".join(lines)
        process.send_signal(signal.SIGKILL)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        reader.join(timeout=10)
        process.stdout.close()
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL

    # What a SIGKILL leaves behind: the store opens, and holds some but not all documents.
    left = _points(backend_kind, data_dir, "blog")
    assert left, "no point survived the kill: the run was killed too early to test anything"
    partial = {p["url"] for p in left.values()}
    assert 4 <= len(partial) < DOCUMENTS

    server.mode = "ok"
    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr + rerun.stdout
    assert "0 failed" in rerun.stdout and "Verified" in rerun.stdout
    clean = subprocess.run(command + ["--collection", "clean"], env=env, capture_output=True, text=True, timeout=120)
    assert clean.returncode == 0, clean.stderr + clean.stdout

    resumed, reference = _points(backend_kind, data_dir, "blog"), _points(backend_kind, data_dir, "clean")
    assert len(_complete_documents(reference)) == DOCUMENTS
    assert _complete_documents(resumed) == _complete_documents(reference)
    assert set(resumed) == set(reference)
    assert resumed == reference  # same payload for every id: text, hashes, order, build, access...
    # The documents the killed run had finished were not embedded again.
    summary = re.search(r"(\d+) new, (\d+) changed, (\d+) unchanged", rerun.stdout)
    assert summary, rerun.stdout
    new, changed, unchanged = map(int, summary.groups())
    assert new + changed + unchanged == DOCUMENTS and unchanged >= 4
