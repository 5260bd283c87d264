"""How this process talks HTTP to a server it was configured for: one way for every client (the chat
model, embeddings, reranker and model lists of OpenAI-compatible servers; WordPress reads its pages
through `bounded` too).

- Size: an answer is read up to a limit (a 300 MB JSON page took 1 GB of memory when read whole).
  The body is streamed and counted as it arrives (after decompression, so a small gzip bomb counts
  at its full size); past the limit the connection is closed and `error` is raised with a message
  naming the address and the limit. A `Content-Length` over the limit stops it before any read.
- Time: `timeout` reads an answer for its caller's seconds and gives up connecting much sooner;
  a read timeout alone never trips on a server that trickles a byte at a time, so each request
  through `bounded` also has a total deadline (`TOTAL_TIMEOUTS` read timeouts), which every read
  and connect of a `deadline_transport` client is cut to; past it `error` says the server was too
  slow, and the request is not retried.
- Keys: `server_client` sends its key only to the server (scheme, host, port) it was configured
  for (which key that is, is rag.config.Settings.api_key_for's, the reranker's own key to its own
  URL); any other address the client is asked for gets no key.
- Errors: what a refusing server said, read from its error body (OpenAI's `{"error": {"message",
  "code"}}`, else its text, cut), never showing a key.
"""

from __future__ import annotations

import json
import time
from contextvars import ContextVar
from typing import Any, Iterable, Iterator
from urllib.parse import urlsplit

import httpcore
import httpx

from rag.errors import RagError
from rag.i18n import t
from rag.i18n.numbers import decimal
from rag.redact import redact, strip_userinfo

MB = 1024 * 1024
# What a server's JSON answer may weigh, by what it holds: a list of models, a reranking, one
# answer of the chat model, a batch of embeddings (16 texts of 4,096 floats is ~1.5 MB of JSON).
SMALL_ANSWER_BYTES = 8 * MB
EMBEDDINGS_ANSWER_BYTES = 64 * MB
CONNECT_TIMEOUT = 5.0  # a server that does not accept the connection this fast is down
ERROR_CHARS = 500  # what is kept of an error body that is not the usual JSON
TOTAL_TIMEOUTS = 5  # a whole answer may take this many read timeouts (as the chat model's stream)

# The monotonic time the request being read must end by (set by `bounded`, read by the streams).
_deadline: ContextVar[float | None] = ContextVar("rag_http_deadline", default=None)


def bounded(client: httpx.Client, method: str, url: str, limit: int, error: type[RagError] = RagError,
            truncate: bool = False, deadline: float | None = None, **options: Any) -> httpx.Response:
    """`client.request(method, url, **options)` with its body read into memory up to `limit` bytes;
    past it, `error` is raised, or with `truncate` the body is cut there (the caller says why).

    The request ends within `deadline` seconds (default: `TOTAL_TIMEOUTS` read timeouts), headers
    and body; a client made with `deadline_transport` is cut there, and `error` says so."""
    seconds = total_seconds(options.get("timeout", client.timeout)) if deadline is None else deadline
    end = None if seconds is None else time.monotonic() + seconds
    token = _deadline.set(end)
    try:
        response, chunks = _read(client, method, url, limit, error, truncate, options)
    except httpx.TimeoutException:
        if end is not None and time.monotonic() >= end:
            raise error(_too_slow(url, seconds)) from None
        raise
    finally:
        _deadline.reset(token)
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in ("content-encoding", "content-length")]
    return httpx.Response(response.status_code, headers=headers, content=b"".join(chunks), request=response.request,
                          extensions=response.extensions)


def _read(client: httpx.Client, method: str, url: str, limit: int, error: type[RagError], truncate: bool,
          options: dict[str, Any]) -> tuple[httpx.Response, list[bytes]]:
    with client.stream(method, url, **options) as response:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit and not truncate and not response.headers.get("content-encoding"):
            raise error(_too_large(url, limit))
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > limit:
                if not truncate:
                    raise error(_too_large(url, limit))
                chunks.append(chunk[:len(chunk) - (size - limit)])
                break
            chunks.append(chunk)
    return response, chunks


def total_seconds(timeout: Any) -> float | None:
    """The whole time a request may take under `timeout` (an httpx timeout, or seconds)."""
    read = timeout.read if isinstance(timeout, httpx.Timeout) else timeout
    return float(read) * TOTAL_TIMEOUTS if isinstance(read, (int, float)) else None


def _too_slow(url: str, seconds: float) -> str:
    return t("net.too_slow", url=strip_userinfo(str(url)), seconds=decimal(seconds, 1, trim=True))


def _left(timeout: float | None) -> float | None:
    """`timeout` cut to what is left of the request's total deadline; past it, a read timeout."""
    end = _deadline.get()
    if end is None:
        return timeout
    left = end - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the answer's total deadline has passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A connection whose every read, write and handshake ends by the request's total deadline."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _left(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _left(timeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return _DeadlineStream(self._stream.start_tls(ssl_context, server_hostname, _left(timeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    def __init__(self) -> None:
        self._backend = httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Any = None) -> httpcore.NetworkStream:
        return _DeadlineStream(self._backend.connect_tcp(host, port, _left(timeout), local_address, socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Any = None) -> httpcore.NetworkStream:
        return _DeadlineStream(self._backend.connect_unix_socket(path, _left(timeout), socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


def deadline_transport() -> httpx.HTTPTransport:
    """httpx's own transport, its connections cut to the total deadline of the request `bounded`
    reads (httpx takes no network backend; the httpcore pool under it does)."""
    transport = httpx.HTTPTransport()
    transport._pool._network_backend = _DeadlineBackend()
    return transport


def _too_large(url: str, limit: int) -> str:
    return t("net.too_large", url=strip_userinfo(str(url)), limit=decimal(limit / MB, 0, trim=True))


def timeout(seconds: float, connect: float = CONNECT_TIMEOUT) -> httpx.Timeout:
    """`seconds` to read an answer, at most `connect` (and never more than `seconds`) to connect."""
    return httpx.Timeout(float(seconds), connect=min(float(seconds), connect))


def bearer(api_key: str | None) -> dict[str, str]:
    """The Authorization header for `api_key`, none without one."""
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def _origin(url: str | httpx.URL) -> tuple[str, str, int | None]:
    parts = urlsplit(str(url))
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or {"http": 80, "https": 443}.get(scheme)


class KeyAuth(httpx.Auth):
    """A bearer key for the server at `url` only: a request to another scheme, host or port (a
    redirect, a URL built from what a server answered) goes without it."""

    def __init__(self, api_key: str | None, url: str) -> None:
        self._api_key = api_key
        self._origin = _origin(url)

    def auth_flow(self, request: httpx.Request) -> Iterator[httpx.Request]:
        if self._api_key and _origin(request.url) == self._origin:
            request.headers["Authorization"] = f"Bearer {self._api_key}"
        yield request


def server_client(url: str, api_key: str | None, read_timeout: httpx.Timeout) -> httpx.Client:
    """One connection pool for the server at `url` (building a client per request costs ~0.1 s
    each), carrying `read_timeout` and sending `api_key` to that server only."""
    return httpx.Client(timeout=read_timeout, auth=KeyAuth(api_key, url), transport=deadline_transport())


def json_body(response: httpx.Response) -> Any:
    """The response's JSON, else its text (cut) as an OpenAI-style error."""
    try:
        return response.json()
    except ValueError:
        return {"error": {"message": response.text[:ERROR_CHARS]}}


def error_parts(body: Any) -> tuple[str, str]:
    """(message, code) of an error body: OpenAI's `{"error": {"message", "code"}}`, a bare
    `{"error": "..."}` or `{"message", "code"}`, else the body itself as text (`{"detail": ...}`)."""
    error = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(error, dict):
        message, code = error.get("message"), error.get("code")
        if message or code or error is not body:
            return str(message or ""), str(code or "")
        return (json.dumps(body, ensure_ascii=False)[:ERROR_CHARS] if body else ""), ""
    return str(error or ""), ""


def error_message(response: httpx.Response, secrets: Iterable[str | None] = ()) -> str:
    """What the server said: the error's message (with its code when the message lacks it), else
    the body's text, cut, every secret of `secrets` masked."""
    text, code = error_parts(json_body(response))
    if code and code not in text:
        text = f"{text} [{code}]" if text else code
    return redact(text.strip()[:ERROR_CHARS], [s for s in secrets if s])


__all__ = ["CONNECT_TIMEOUT", "EMBEDDINGS_ANSWER_BYTES", "ERROR_CHARS", "KeyAuth", "MB", "SMALL_ANSWER_BYTES",
           "TOTAL_TIMEOUTS", "bearer", "bounded", "deadline_transport", "error_message", "error_parts", "json_body",
           "server_client", "timeout", "total_seconds"]
