"""The embeddings server fails in the middle of an ingestion: the run names the documents it could
not index, keeps the others, and a re-run once the server is back completes them, ending with
exactly the points of a clean run."""

from __future__ import annotations

from http.server import ThreadingHTTPServer

import pytest

from rag.config import Settings
from rag.documents import Document
from rag.embeddings.remote import OpenAIEmbedder
from rag.ingest.run import ingest
from rag.ingest.report import IngestProgress
from rag.store.store import Store
from tests.fixtures.embeddings_server import FakeEmbeddingsServer, _handler
from tests.fixtures.net import start_http_server, stop_http_server

DOCS = 6
FAILING_FROM = 3  # the fault starts once two documents are indexed


class RestartableServer:
    """The fake LM Studio on a fixed port that can be stopped (connections refused) and started again."""

    def __init__(self, dimension: int = 16) -> None:
        self.state = FakeEmbeddingsServer(url="", root="", dimension=dimension)

        class OneRequestPerConnection(_handler(self.state)):
            # No keep-alive: once stopped, the next request really meets a closed port.
            protocol_version = "HTTP/1.0"

        self.handler = OneRequestPerConnection
        self.port = 0
        self.httpd: ThreadingHTTPServer | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> None:
        self.httpd, self.thread, self.port = start_http_server(self.handler, self.port)

    def stop(self) -> None:
        if self.httpd is not None:
            stop_http_server(self.httpd, self.thread)
            self.httpd = None


@pytest.fixture
def server():
    s = RestartableServer()
    yield s
    s.stop()


@pytest.fixture
def store(data_dir):
    s = Store(Settings(data_dir=data_dir))
    yield s
    s.close()


def _docs() -> list[Document]:
    return [
        Document(
            url=f"https://blog.example/note-{i}/", title=f"Note {i}",
            markdown=f"Introduction {i}.\n\n## Réglage\n\nLe réglage {i} se fait dans la console.\n\n"
                     f"## Vérification\n\nLa commande de contrôle {i} affiche l'état.",
            modified="2024-05-01T10:00:00", source="test",
        )
        for i in range(1, DOCS + 1)
    ]


def _points(store: Store, collection: str) -> dict[str, dict]:
    return {p.id: p.payload for p in store.scroll(collection)}


FAULTS = {
    # name: (what to do to the server, words the failure reason must contain)
    "stopped": (lambda s: s.stop(), ["No embeddings server answers at", "RAG_EMBED_MODEL=embedded"]),
    "model unloaded": (lambda s: setattr(s.state, "mode", "no_model"), ["no model loaded", "Load an embedding model"]),
    "too slow": (lambda s: (setattr(s.state, "delay", 2.0), setattr(s.state, "mode", "slow")),
                 ["did not answer within 0.5s", "RAG_TIMEOUT"]),
    "dimension changed": (
        lambda s: (setattr(s.state, "change_after", s.state.embedding_calls), setattr(s.state, "mode", "dimension_change")),
        ["changed its vector size from 16 to 17", "another model was probably loaded"],
    ),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_fault_mid_ingestion_is_reported_per_document_and_a_rerun_completes(fault, server, store):
    break_server, words = FAULTS[fault]
    embedder = OpenAIEmbedder(server.url, server.state.model, timeout=0.5)

    def progress(p: IngestProgress) -> None:
        if p.phase == "indexed" and p.docs_done == FAILING_FROM - 1:
            break_server(server)

    report = ingest(_docs(), store, embedder, "blog", progress=progress)
    docs = _docs()
    failed_urls = [d.url for d in docs[FAILING_FROM - 1:]]
    assert report.new == FAILING_FROM - 1 and report.aborted is None and not report.ok
    assert [item for item, _ in report.failed] == failed_urls
    for _, reason in report.failed:
        for word in words:
            assert word in reason, reason
    assert f"FAILED {failed_urls[0]}" in report.summary()
    # What was indexed before the fault is complete, and nothing of the failed documents is.
    kept = _points(store, "blog")
    assert {p["url"] for p in kept.values()} == {d.url for d in docs[: FAILING_FROM - 1]}
    for url in {p["url"] for p in kept.values()}:
        mine = [p for p in kept.values() if p["url"] == url]
        assert sorted(p["order"] for p in mine) == list(range(mine[0]["chunks"]))

    # The server comes back as it was.
    server.stop()
    server.state.mode = "ok"
    server.start()
    again = ingest(_docs(), store, embedder, "blog")
    assert again.ok, again.summary()
    assert (again.new, again.changed, again.unchanged) == (len(failed_urls), 0, FAILING_FROM - 1)

    ingest(_docs(), store, embedder, "clean")
    assert _points(store, "blog") == _points(store, "clean")
    embedder.close()


def test_a_server_that_stays_down_stops_the_run_early_and_says_why(server, store):
    embedder = OpenAIEmbedder(server.url, server.state.model, timeout=2)
    docs = _docs() * 2  # urls repeat after six: give each its own
    for i, doc in enumerate(docs):
        doc.url = f"https://blog.example/article-{i}/"

    def progress(p: IngestProgress) -> None:
        if p.phase == "indexed" and p.docs_done == 1:
            server.stop()

    report = ingest(docs, store, embedder, "blog", strategy="sections", prune=True, progress=progress)
    # Five failures in a row: the server is down, not five documents bad. No pruning then.
    assert len(report.failed) == 5 and report.aborted
    assert "5 documents in a row failed to embed" in report.aborted
    assert "No embeddings server answers at" in report.aborted
    assert "Stopped early" in report.summary()
    assert store.count("blog") == 3 and report.new == 1  # the first document's three sections
    embedder.close()
