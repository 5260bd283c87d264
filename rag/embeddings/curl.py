"""A ready `curl` command that embeds a document's chunks in one request, to try a server by hand.

Two wire formats: LM Studio (OpenAI-compatible `/v1/embeddings`, with `"encoding_format": "float"`
because LM Studio always returns floats) and Ollama (`/api/embed`, with `"truncate": false` so a
chunk longer than the model's window is an error instead of a silent cut).

The JSON body goes through a quoted heredoc (`<<'END'`): the shell expands nothing inside it, so
quotes, `$`, backticks or backslashes in a chunk cannot break or alter the command. The body is
one line of JSON, so no chunk can end the heredoc early either.
"""

from __future__ import annotations

import json
import shlex
from typing import Any, Sequence
from urllib.parse import unquote, urlsplit, urlunsplit

from rag.config import normalize_base_url, server_root
from rag.embeddings.prefixes import prefixes_for

TARGET_LMSTUDIO = "lmstudio"
TARGET_OLLAMA = "ollama"
TARGETS = (TARGET_LMSTUDIO, TARGET_OLLAMA)
DEFAULT_URLS = {TARGET_LMSTUDIO: "http://localhost:1234/v1", TARGET_OLLAMA: "http://localhost:11434"}
HEREDOC_END = "RAG_EMBED_REQUEST"


def request_body(texts: Sequence[str], model: str, target: str = TARGET_LMSTUDIO) -> dict[str, Any]:
    """The JSON body that embeds every text in one call."""
    if target == TARGET_LMSTUDIO:
        return {"model": model, "input": list(texts), "encoding_format": "float"}
    if target == TARGET_OLLAMA:
        return {"model": model, "input": list(texts), "truncate": False}
    raise ValueError(f"unknown embeddings server kind {target!r}: use one of {', '.join(TARGETS)}")


def endpoint(base_url: str, target: str = TARGET_LMSTUDIO) -> str:
    """The embeddings endpoint for a base URL typed with or without /v1 (or a pasted endpoint)."""
    if target == TARGET_LMSTUDIO:
        return normalize_base_url(base_url) + "/embeddings"
    if target == TARGET_OLLAMA:
        return server_root(base_url) + "/api/embed"
    raise ValueError(f"unknown embeddings server kind {target!r}: use one of {', '.join(TARGETS)}")


def _without_credentials(url: str) -> tuple[str, str | None]:
    """`url` without its user and password, and the user name it held (None without one)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None
    userinfo, _, host = parts.netloc.rpartition("@")
    user = unquote(userinfo.split(":", 1)[0])
    return urlunsplit(parts._replace(netloc=host)), user or None


def curl_command(texts: Sequence[str], model: str, base_url: str | None = None, target: str = TARGET_LMSTUDIO) -> str:
    """A shell command (bash, zsh, sh) posting every text to the server in one request, each with
    the document prefix its model expects (nomic's `search_document: `, e5's `passage: `), as
    `rag ingest` sends them: the vectors it returns are the ones an index would hold."""
    # A password typed into the URL is never printed: curl asks for it (--user with a name only).
    url, user = _without_credentials(endpoint(base_url or DEFAULT_URLS[target], target))
    prefix = prefixes_for(model)[1]
    # ensure_ascii keeps the body plain ASCII: no terminal or locale can mangle accents.
    body = json.dumps(request_body([prefix + text for text in texts], model, target), ensure_ascii=True,
                      separators=(",", ":"))
    return (
        f"curl -sS {shlex.quote(url)} \\\n"
        + (f"  --user {shlex.quote(user)} \\\n" if user else "")
        + "  -H 'Content-Type: application/json' \\\n"
        f"  --data-binary @- <<'{HEREDOC_END}'\n"
        f"{body}\n"
        f"{HEREDOC_END}\n"
    )


def suggested_model(embed_model: str | None, server_pick: str | None = None) -> str:
    """The model id to put in the command: the configured server model, else the embedding model
    the server would be asked for (ServerModels.pick_embedding_model), else a placeholder the user
    must replace."""
    if embed_model and embed_model.strip().lower() != "embedded":
        return embed_model.strip()
    return server_pick or "YOUR-EMBEDDING-MODEL"
