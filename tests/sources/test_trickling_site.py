"""A site that trickles its answer (a byte at a time, each well within the read timeout) cannot hold
`rag fetch`: every request has a total deadline, headers and body, and the run stops naming the
site. A real local server trickles; the timeout is small, so the deadline comes in a second or two."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Iterator

import pytest

from rag.cli.main import main
from tests.fixtures.net import HOST

GAP = 0.05  # seconds between two bytes: far below the read timeout given to the client
TIMEOUT = 0.5  # the client's read timeout (--timeout): its total deadline is a few of these
GIVE_UP = 15.0  # the server's own end, so a client without a deadline fails instead of hanging


class Trickle:
    """A WordPress-looking server on a raw socket sending its answer one byte every GAP seconds;
    `headers_first`: the status and headers at once, then the body a byte at a time."""

    def __init__(self, headers_first: bool) -> None:
        body = json.dumps([{"id": n, "title": {"rendered": f"Article {n}"}} for n in range(200)]).encode()
        head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-WP-Total: 200\r\n"
                b"X-WP-TotalPages: 1\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
        self.head, self.body = (head, body) if headers_first else (b"", head + body)
        self.hung_up = 0  # connections the client closed before the answer (or the server) ended
        self.listener = socket.create_server((HOST, 0))
        self.url = f"http://{HOST}:{self.listener.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        end = time.monotonic() + GIVE_UP
        with conn:
            try:
                conn.recv(65536)
                conn.sendall(self.head)
                for byte in self.body:
                    if time.monotonic() > end:
                        return
                    conn.sendall(bytes([byte]))
                    time.sleep(GAP)  # the server's pace, not the test's wait
            except OSError:
                self.hung_up += 1

    def stop(self) -> None:
        self.listener.close()


@pytest.fixture(params=[False, True], ids=["headers trickled", "body trickled"])
def trickle(request) -> Iterator[Trickle]:
    server = Trickle(headers_first=request.param)
    yield server
    server.stop()


def test_a_trickling_site_does_not_hold_rag_fetch(trickle, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "en")
    code = main(["fetch", trickle.url, "--out", str(tmp_path / "out"), "--timeout", str(TIMEOUT)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert trickle.url in err and "had not finished its answer after 2.5 s" in err, err
    assert "Traceback" not in err
    # The client closed the connection (once: a trickle is not retried), the server never gave up.
    deadline = time.monotonic() + 2
    while not trickle.hung_up and time.monotonic() < deadline:
        time.sleep(GAP)
    assert trickle.hung_up == 1


def test_a_trickling_site_is_said_in_french(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    trickle = Trickle(headers_first=True)
    try:
        assert main(["fetch", trickle.url, "--out", str(tmp_path / "out"), "--timeout", str(TIMEOUT)]) == 2
    finally:
        trickle.stop()
    assert "n'avait pas fini sa réponse au bout de 2,5 s" in capsys.readouterr().err
