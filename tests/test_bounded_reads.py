"""Every network answer is read up to a size limit: a WordPress site, a chat, embeddings, reranking
or model server that sends a huge body is stopped once past it, with a message naming it; the
memory never holds the whole answer (a 300 MB JSON page took 1 GB)."""

from __future__ import annotations

import gzip
from http.server import BaseHTTPRequestHandler
from typing import Any, Iterator

import pytest

from rag.bounded_http import MB
from rag.embeddings.remote import OpenAIEmbedder
from rag.errors import EmbeddingError, LLMError, SourceError
from rag.servers.chat import LLMClient
from rag.servers.models import ModelListError, read_models
from rag.servers.rerank import Reranker, RerankError
from rag.sources.wordpress import WordPressSource
from tests.fixtures.net import start_http_server, stop_http_server

HUGE = 300 * MB  # what the server would send, never sent whole


class Flood:
    """Answers every request with a JSON body that never ends (chunked, lazily made), counting
    what it could send before the client hung up; `gzip`: a small compressed body that inflates."""

    def __init__(self, gzipped: bool = False) -> None:
        self.sent = 0
        flood = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _flood(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                if gzipped:
                    body = gzip.compress(b'[{"id": 1, "x": "' + b"a" * (HUGE // 10) + b'"}]', compresslevel=1)
                    self.send_header("Content-Encoding", "gzip")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                piece = b'{"id": 1, "content": {"rendered": "' + b"a" * (1024 * 1024) + b'"}},'
                try:
                    self.wfile.write(b"1\r\n[\r\n")
                    while flood.sent < HUGE:
                        self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                        flood.sent += len(piece)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True

            do_GET = do_POST = _flood

        self.server, self.thread, port = start_http_server(Handler)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        stop_http_server(self.server, self.thread)


@pytest.fixture
def flood() -> Iterator[Flood]:
    server = Flood()
    yield server
    server.stop()


def test_a_huge_json_page_from_a_site_is_not_read_whole(flood):
    source = WordPressSource(flood.url, max_bytes=1 * MB, retries=0)
    with pytest.raises(SourceError, match="more than 20 MB"):
        list(source.iter_documents())
    assert flood.sent < 100 * MB  # the client hung up soon after the limit


@pytest.mark.parametrize("call, error", [
    (lambda url: LLMClient(url + "/v1", model="m").chat([{"role": "user", "content": "x"}]), LLMError),
    (lambda url: Reranker(url + "/v1", model="r").rerank("q", ["a", "b"], 2), RerankError),
    (lambda url: OpenAIEmbedder(url + "/v1", model="e").embed_documents(["a"]), EmbeddingError),
])
def test_a_server_answer_past_its_limit_is_stopped(flood, call, error):
    with pytest.raises(error, match="more than"):
        call(flood.url)
    assert flood.sent < 100 * MB


def test_a_model_list_past_its_limit_is_stopped(flood):
    import httpx

    with httpx.Client() as http, pytest.raises(ModelListError, match="more than"):
        read_models(http, flood.url + "/v1")


def test_a_compressed_answer_counts_at_its_inflated_size():
    server = Flood(gzipped=True)
    try:
        with pytest.raises(RerankError, match="more than 8 MB"):
            Reranker(server.url + "/v1", model="r").rerank("q", ["a"], 1)
    finally:
        server.stop()
