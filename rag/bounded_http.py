"""HTTP answers read up to a size limit: a site or server cannot make this process hold an
answer of any size (a 300 MB JSON page took 1 GB of memory when read whole).

The body is streamed and counted as it arrives (after decompression, so a small gzip bomb counts
at its full size); past the limit the connection is closed and `error` is raised with a message
naming the address and the limit. A `Content-Length` over the limit stops it before any read.
"""

from __future__ import annotations

from typing import Any

import httpx

from rag.errors import RagError
from rag.i18n import t
from rag.i18n.numbers import decimal
from rag.redact import strip_userinfo

MB = 1024 * 1024
# What a server's JSON answer may weigh, by what it holds: a list of models, a reranking, one
# answer of the chat model, a batch of embeddings (16 texts of 4,096 floats is ~1.5 MB of JSON).
SMALL_ANSWER_BYTES = 8 * MB
EMBEDDINGS_ANSWER_BYTES = 64 * MB


def bounded(client: httpx.Client, method: str, url: str, limit: int, error: type[RagError] = RagError,
            truncate: bool = False, **options: Any) -> httpx.Response:
    """`client.request(method, url, **options)` with its body read into memory up to `limit` bytes;
    past it, `error` is raised, or with `truncate` the body is cut there (the caller says why)."""
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
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in ("content-encoding", "content-length")]
    return httpx.Response(response.status_code, headers=headers, content=b"".join(chunks), request=response.request,
                          extensions=response.extensions)


def _too_large(url: str, limit: int) -> str:
    return t("net.too_large", url=strip_userinfo(str(url)), limit=decimal(limit / MB, 0, trim=True))
