"""Chat client for LM Studio (or any OpenAI-compatible chat server).

Speaks the OpenAI wire format for chat (`/v1/chat/completions`, streaming over SSE) and reads
the server's model list (rag.servers.models) for the loaded chat model and the context length it
was loaded with. Every failure becomes an LLMError subclass whose message says what to do.
"""

from __future__ import annotations

import json
import time
import re
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import httpx

from rag.bounded_http import CONNECT_TIMEOUT, SMALL_ANSWER_BYTES, bounded, error_parts, json_body, server_client
from rag.bounded_http import timeout as http_timeout
from rag.config import normalize_base_url, server_root
from rag.errors import LLMError
from rag.i18n import t
from rag.i18n.numbers import duration
from rag.redact import redact, strip_userinfo
from rag.servers.models import ModelInfo, ModelListError, ServerModels, read_models

DEFAULT_TIMEOUT = 120.0

# Where Docker leaves a marker file inside every container.
DOCKERENV = Path("/.dockerenv")

# LM Studio and llama.cpp word a context overflow in several ways depending on the version.
_OVERFLOW = re.compile(
    r"n_keep\s*\(?\d*\)?\s*>=?\s*n_ctx|context the overflows|tokens to keep from the initial prompt"
    r"|exceeds? the available context|exceed_context_size|context_length_exceeded"
    r"|maximum context length|exceeds? context (window|length)|greater than the context length",
    re.IGNORECASE,
)


class ServerUnreachable(LLMError):
    """Nothing answers at the chat server's URL."""


class NoModelLoaded(LLMError):
    """The server runs but has no chat model loaded."""


class ModelNotFound(LLMError):
    """The requested model id is not one the server has loaded."""


class ContextOverflow(LLMError):
    """The prompt is longer than the context length the model was loaded with."""


class IncompleteAnswer(LLMError):
    """The server ended a streamed answer without finishing it."""


class LLMTimeout(LLMError):
    """The server took longer than the read timeout to answer. `what` (`answer`, `list`, ...) and
    `seconds`: what it was doing and how long it was given, for a caller that words it its own way."""

    def __init__(self, message: str, what: str = "answer", seconds: float | None = None) -> None:
        super().__init__(message)
        self.what = what
        self.seconds = seconds


class RunawayAnswer(LLMError):
    """The server streamed more, or for longer, than any answer asked for can take."""


# The answer a server may stream: max_tokens at most this many characters each (a token is about
# four), so a server that honours max_tokens never comes near it, and one that ignores it
# (2 GB in two minutes) is stopped. Without max_tokens, this many characters.
CHARS_PER_TOKEN_CAP = 8
DEFAULT_MAX_ANSWER_CHARS = 100_000
# One line of the event stream: a piece of an answer is a few characters; a megabyte is no answer.
MAX_LINE_CHARS = 1_000_000
# The whole answer may take this many read timeouts: a server trickling pieces forever never
# trips the read timeout, which only bounds the wait for each piece.
ANSWER_TIMEOUTS = 5


def sse_lines(chunks: Iterator[str], max_line: int) -> Iterator[str]:
    """The lines of a text stream, each read once; a line longer than `max_line` raises ValueError
    as soon as it is, instead of being held whole in memory."""
    pending: list[str] = []
    size = 0
    for chunk in chunks:
        start = 0
        while True:
            end = chunk.find("\n", start)
            if end < 0:
                break
            pending.append(chunk[start:end])
            yield "".join(pending).rstrip("\r")
            pending, size = [], 0
            start = end + 1
        rest = chunk[start:]
        if rest:
            size += len(rest)
            if size > max_line:
                raise ValueError(size)
            pending.append(rest)
    if pending:
        yield "".join(pending).rstrip("\r")


def in_container() -> bool:
    return DOCKERENV.exists()


class ChatStream:
    """An iterator over the answer's text pieces; `usage` is filled when the server sends it."""

    def __init__(self, pieces: Iterator[str]) -> None:
        self._pieces = pieces
        self.usage: dict[str, Any] | None = None
        self.finish_reason: str | None = None
        self.model: str | None = None
        self.done = False  # the server sent [DONE]
        self.parts: list[str] = []

    def __iter__(self) -> ChatStream:
        return self

    def __next__(self) -> str:
        piece = next(self._pieces)
        self.parts.append(piece)
        return piece

    @property
    def text(self) -> str:
        # Joined once into one part: asking again after a few more pieces joins only those.
        if len(self.parts) > 1:
            self.parts[:] = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""


class LLMClient:
    def __init__(
        self,
        base_url: str,
        model: str | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        connect_timeout: float = CONNECT_TIMEOUT,
        address_setting: str = "RAG_LLM_URL",
    ) -> None:
        """`address_setting`: where the reader set `base_url`, named in the error when it is
        unreachable (a dashboard's own field rather than the environment variable)."""
        self.base_url = normalize_base_url(base_url)
        self.address_setting = address_setting
        self.root = server_root(self.base_url)
        self.model = model or None
        self.api_key = api_key
        self.timeout = http_timeout(timeout, connect_timeout)
        self.last_usage: dict[str, Any] | None = None
        # What messages show: never a password pasted into the URL.
        self.shown_url = strip_userinfo(self.base_url)
        self.shown_root = strip_userinfo(self.root)
        # LM Studio ignores the key unless authentication is on; sending one costs nothing.
        self._http = server_client(self.base_url, self.api_key or "lm-studio", self.timeout)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @classmethod
    def from_settings(cls, settings: Any) -> LLMClient:
        return cls(settings.llm_url, model=settings.llm_model, api_key=settings.api_key_for(settings.llm_url),
                   timeout=settings.timeout)

    # -- requests ---------------------------------------------------------------------------

    def _unreachable(self, exc: Exception) -> LLMError:
        message = t("llm.unreachable", url=self.shown_url, error=type(exc).__name__, setting=self.address_setting)
        host = urlsplit(self.base_url).hostname or ""
        if host in ("localhost", "127.0.0.1", "::1") and in_container():
            message += " " + t("llm.in_container")
        return ServerUnreachable(message)

    def _timeout_error(self, what: str, seconds: float | None = None) -> LLMError:
        waited = self.timeout.read if seconds is None else seconds
        return LLMTimeout(
            t("llm.timeout", url=self.shown_url, time=duration(waited, 1, trim=True), what=t(f"llm.to_{what}")),
            what, waited,
        )

    def _transport_error(self, exc: httpx.TransportError, what: str, seconds: float | None = None) -> LLMError:
        """A timeout while the server works on `what`, else (a connect timeout too) unreachable."""
        if isinstance(exc, httpx.TimeoutException) and not isinstance(exc, httpx.ConnectTimeout):
            return self._timeout_error(what, seconds)
        return self._unreachable(exc)

    # -- models -----------------------------------------------------------------------------

    def _wait(self, seconds: float) -> httpx.Timeout:
        """A request's own read timeout of `seconds`, connecting as long as the client does (a short
        wait to connect would call a slow server unreachable)."""
        return httpx.Timeout(seconds, connect=self.timeout.connect)

    def models(self, timeout: float | None = None, on_demand: bool = False) -> ServerModels:
        """What the server says about its models, with chat's advice when it cannot say.
        `timeout`: this read's, when shorter than the client's (a lever's short call); `on_demand`:
        learn whether LM Studio loads a model at its first request too (rag.servers.models)."""
        try:
            return read_models(self._http, self.base_url, timeout=None if timeout is None else self._wait(timeout),
                               on_demand=on_demand)
        except ModelListError as exc:
            if exc.reason == "unreachable":
                raise self._unreachable(exc.__cause__ or exc) from exc
            if exc.reason == "timeout":
                raise self._timeout_error("list", timeout) from exc
            raise LLMError(f"{exc} " + t("llm.check_url_key" if exc.reason == "refused" else "llm.check_url")) from exc

    def list_models(self) -> list[ModelInfo]:
        """Every model the server knows, with type, state and context lengths where it says them."""
        return self.models().models

    def chat_model(self, timeout: float | None = None) -> str:
        """The configured model, else the chat model the server has loaded (its list read within
        `timeout` seconds when given, else the client's)."""
        if self.model:
            return self.model
        return self._loaded_chat_model(self.models(timeout))

    def context_length(self, model: str) -> int | None:
        """The context length `model` is loaded with, or None when the server does not say."""
        return self.models().loaded_context_length(model)

    def model_and_context(self) -> tuple[str, int | None]:
        """The chat model and its loaded context length from one read of the model list: an
        answer needs both, and each read is a round trip (two listings on older LM Studio)."""
        models = self.models()
        model = self.model or self._loaded_chat_model(models)
        return model, models.loaded_context_length(model)

    def _loaded_chat_model(self, server: ServerModels) -> str:
        loaded = server.chat_models
        if not loaded:
            embed_only = [m.id for m in server.embedding_models if m.loaded]
            extra = t("llm.embed_only", models=", ".join(embed_only)) if embed_only else ""
            raise NoModelLoaded(t("llm.no_chat_model", url=self.shown_root, extra=extra))
        return loaded[0].id

    # -- chat -------------------------------------------------------------------------------

    def _payload(self, messages: list[dict[str, str]], stream: bool, params: dict[str, Any],
                 timeout: float | None = None) -> dict[str, Any]:
        payload: dict[str, Any] = {"model": params.pop("model", None) or self.chat_model(timeout),
                                   "messages": messages, "stream": stream}
        if stream:
            payload["stream_options"] = {"include_usage": True}
        payload.update({k: v for k, v in params.items() if v is not None})
        return payload

    def stream_chat(self, messages: list[dict[str, str]], **params: Any) -> ChatStream:
        """Stream the answer piece by piece. The request starts on the first iteration."""
        payload = self._payload(messages, True, dict(params))
        stream = ChatStream(iter(()))
        stream._pieces = self._stream_pieces(payload, stream)
        return stream

    def _runaway(self, reason: str, limit: str, payload: dict[str, Any]) -> RunawayAnswer:
        return RunawayAnswer(t(f"llm.runaway_{reason}", url=self.shown_url, model=repr(payload["model"]), limit=limit,
                               max_tokens=payload.get("max_tokens") or "-"))

    def _stream_pieces(self, payload: dict[str, Any], stream: ChatStream) -> Iterator[str]:
        self.last_usage = None
        max_tokens = payload.get("max_tokens")
        max_chars = int(max_tokens) * CHARS_PER_TOKEN_CAP if max_tokens else DEFAULT_MAX_ANSWER_CHARS
        seconds = (self.timeout.read or DEFAULT_TIMEOUT) * ANSWER_TIMEOUTS
        deadline = time.monotonic() + seconds
        chars = 0
        try:
            with self._http.stream("POST", f"{self.base_url}/chat/completions", json=payload) as response:
                if response.status_code != 200:
                    response.read()
                    raise self._http_error(response, payload["model"])
                try:
                    for line in sse_lines(response.iter_text(), MAX_LINE_CHARS):
                        if time.monotonic() > deadline:
                            raise self._runaway("time", duration(seconds, 0, trim=True), payload)
                        for piece in self._pieces_of(line, payload, stream):
                            chars += len(piece)
                            if chars > max_chars:
                                raise self._runaway("size", f"{max_chars:,}".replace(",", " "), payload)
                            yield piece
                        if stream.done:
                            break
                except ValueError:
                    raise self._runaway("line", f"{MAX_LINE_CHARS:,}".replace(",", " "), payload) from None
                if not stream.done and stream.finish_reason is None:
                    # llama.cpp's Python server, for one, answers an oversized prompt with an
                    # empty 200 stream: never pass that off as a complete (empty) answer.
                    raise IncompleteAnswer(t("llm.incomplete", url=self.shown_url, model=repr(payload["model"])))
        except httpx.TransportError as exc:
            raise self._transport_error(exc, "answer") from exc

    def _pieces_of(self, line: str, payload: dict[str, Any], stream: ChatStream) -> Iterator[str]:
        """The answer's pieces in one line of the event stream (sets stream.done on [DONE])."""
        line = line.strip()
        if not line or line.startswith(":") or line.startswith("event:"):
            return
        if line.startswith("data:"):
            data = line[len("data:"):].strip()
        elif line.startswith("{"):
            data = line  # an error body some versions send without SSE framing
        else:
            return
        if data == "[DONE]":
            stream.done = True
            return
        try:
            chunk = json.loads(data)
        except ValueError:
            return
        if not isinstance(chunk, dict):
            return
        if chunk.get("error"):
            raise self._error_from_body(chunk, 200, payload["model"])
        if chunk.get("usage"):
            stream.usage = self.last_usage = chunk["usage"]
        if chunk.get("model"):
            stream.model = chunk["model"]
        for choice in chunk.get("choices") or []:
            if choice.get("finish_reason"):
                stream.finish_reason = choice["finish_reason"]
            piece = (choice.get("delta") or {}).get("content")
            if piece:
                yield piece

    def chat(self, messages: list[dict[str, str]], *, timeout: float | None = None, **params: Any) -> str:
        """The whole answer in one request (no streaming). `timeout`: the seconds this call may take
        in all, when shorter than the client's (a short side request must not wait as long as an
        answer): the model list read first, without a configured model, takes its share of them."""
        deadline = None if timeout is None else time.monotonic() + timeout
        payload = self._payload(messages, False, dict(params), timeout)
        request_timeout = self.timeout
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._timeout_error("answer", timeout)
            request_timeout = self._wait(left)
        try:
            response = bounded(self._http, "POST", f"{self.base_url}/chat/completions", SMALL_ANSWER_BYTES, LLMError,
                               json=payload, timeout=request_timeout)
        except httpx.TransportError as exc:
            raise self._transport_error(exc, "answer", timeout) from exc
        if response.status_code != 200:
            raise self._http_error(response, payload["model"])
        body = json_body(response)
        if isinstance(body, dict) and body.get("error"):
            raise self._error_from_body(body, 200, payload["model"])
        try:
            self.last_usage = body.get("usage")
            return body["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise LLMError(t("llm.unreadable", url=self.shown_url)) from exc

    # -- errors -----------------------------------------------------------------------------

    def _http_error(self, response: httpx.Response, model: str) -> LLMError:
        return self._error_from_body(json_body(response), response.status_code, model)

    def _error_from_body(self, body: Any, status: int, model: str) -> LLMError:
        message, code = error_parts(body)
        # Some servers and proxies quote the key they refused: it must not reach the user's screen.
        message = redact(message, [self.api_key])
        if _OVERFLOW.search(message) or _OVERFLOW.search(code):
            return ContextOverflow(t("llm.overflow", model=repr(model), id=model, said=message.strip()[:300]))
        if code == "model_not_found" or (status in (400, 404) and "not found" in message.lower()
                                          and "model" in message.lower() and code != "no_models_loaded"):
            loaded = self._loaded_names()
            return ModelNotFound(t("llm.not_found", model=repr(model), loaded=", ".join(loaded) if loaded else t("llm.none")))
        if status == 404:
            return NoModelLoaded(t("llm.none_loaded", url=self.shown_root, said=message.strip()[:200] or "404"))
        return LLMError(t("llm.status", url=self.shown_url, status=status,
                          said=message.strip()[:300] or t("llm.no_details")))

    def _loaded_names(self) -> list[str]:
        try:
            return [m.id for m in self.models().chat_models]
        except LLMError:
            return []
