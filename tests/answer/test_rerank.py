"""The optional reranker (/v1/rerank), against an emulator server: 20 candidates in, its order
out, and a clear error when it cannot be reached. Off unless RAG_RERANK_URL is set."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import Any, Iterator

import pytest

from rag.servers.rerank import RERANK_CANDIDATES, Reranker, RerankError
from rag.answer.retrieve import retrieve, retrieve_options
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.ingest.run import ingest
from rag.store.store import Store
from tests.fixtures.net import free_port, start_http_server, stop_http_server

TOPICS = ["Kerberos", "LDAPS", "certificats", "DNS", "GPO", "LAPS", "NTLM", "TLS", "SPN", "gMSA", "RC4", "AES"]


class RerankEmulator:
    """Scores a document by how often it names the query's last word (a stand-in model)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                emulator.requests.append({"path": self.path, "body": body})
                word = body["query"].split()[-1].strip("?").lower()
                scores = [doc.lower().count(word) for doc in body["documents"]]
                order = sorted(range(len(scores)), key=lambda i: -scores[i])[: body["top_n"]]
                payload = {"results": [{"index": i, "relevance_score": float(scores[i])} for i in order]}
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server, self.thread, port = start_http_server(Handler)
        self.url = f"http://127.0.0.1:{port}/v1"

    def stop(self) -> None:
        stop_http_server(self.server, self.thread)


@pytest.fixture(scope="module")
def kb(tmp_path_factory) -> Iterator[tuple[Store, EmbeddedEmbedder]]:
    store = Store(Settings(data_dir=tmp_path_factory.mktemp("rerank") / "data"))
    embedder = EmbeddedEmbedder(threads=1)
    docs = [Document(url=f"{t.lower()}.md", title=f"Notes sur {t}",
                     markdown=f"Article court sur {t} dans Windows Server." + (" zorglub" * 3 if t == "DNS" else ""))
            for t in TOPICS]
    assert ingest(docs, store, embedder, "kb").new == len(TOPICS)
    yield store, embedder
    store.close()


@pytest.fixture
def emulator() -> Iterator[RerankEmulator]:
    server = RerankEmulator()
    yield server
    server.stop()


def test_the_reranker_orders_twenty_candidates_down_to_top_k(kb, emulator):
    store, embedder = kb
    reranker = Reranker(emulator.url, model="bge-reranker-v2-m3")
    passages = retrieve("Que dit le blog sur zorglub", store, embedder, "kb", top_k=3, reranker=reranker)
    (request,) = emulator.requests
    assert request["path"] == "/v1/rerank"
    assert request["body"]["model"] == "bge-reranker-v2-m3" and request["body"]["query"] == "Que dit le blog sur zorglub"
    assert len(request["body"]["documents"]) == min(RERANK_CANDIDATES, len(TOPICS))
    assert len(passages) == 3 and [p.n for p in passages] == [1, 2, 3]
    assert passages[0].url == "dns.md" and passages[0].rerank_score == 3.0
    assert 0 < passages[0].score <= 1  # still the dense cosine: the gate's scale
    assert passages.ordering.ranked_by == "reranker"  # what the line under the passages names


def test_off_by_default_and_an_unreachable_reranker_keeps_the_search_order_with_a_note(kb):
    assert retrieve_options(Settings())["reranker"] is None
    store, embedder = kb
    url = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(RerankError, match="did not answer.*RAG_RERANK_URL"):
        Reranker(url, timeout=5).rerank("Kerberos", ["a"], 1)
    plain = retrieve("Kerberos", store, embedder, "kb", top_k=3)
    passages = retrieve("Kerberos", store, embedder, "kb", top_k=3, reranker=Reranker(url, timeout=5))
    assert [p.url for p in passages] == [p.url for p in plain] and [p.n for p in passages] == [1, 2, 3]
    (note,) = passages.notes
    assert "search's own order" in note and "did not answer" in note
    assert passages.ordering.ranked_by is None


def test_a_failing_reranker_is_noted_under_the_answer(kb, lmstudio):
    from rag.answer.engine import answer_passages
    from rag.servers.chat import LLMClient

    store, embedder = kb
    url = f"http://127.0.0.1:{free_port()}/v1"
    passages = retrieve("Kerberos", store, embedder, "kb", top_k=3, reranker=Reranker(url, timeout=5))
    lmstudio.answer = "Kerberos est décrit [1]."
    with LLMClient(lmstudio.url) as llm:
        result = answer_passages("Que dit le blog sur Kerberos ?", passages, llm, threshold=0.0)
    assert result.answer and any("reranker failed" in w for w in result.warnings)


def test_a_refusing_reranker_is_quoted_by_its_message_without_its_key():
    # The reranker reads error bodies the way the chat and embeddings clients do: what the server
    # said, not its JSON, and never the key it quotes back.
    import json as _json
    from http.server import BaseHTTPRequestHandler

    from tests.fixtures.net import start_http_server, stop_http_server

    key = "rr-KEY-7f3e"

    class Refuses(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = _json.dumps({"error": {"message": f"model not loaded (key {key})", "code": "model_not_found"}})
            self.send_response(503)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())

    server, thread, port = start_http_server(Refuses)
    try:
        with pytest.raises(RerankError) as caught:
            Reranker(f"http://127.0.0.1:{port}/v1", api_key=key, timeout=5).rerank("Kerberos", ["a"], 1)
    finally:
        stop_http_server(server, thread)
    said = str(caught.value)
    assert "503" in said and "model not loaded" in said and "[model_not_found]" in said
    assert key not in said and '{"error"' not in said
