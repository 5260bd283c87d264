"""An optional reranker through the de facto `/v1/rerank` API (llama.cpp's server, TEI, Infinity,
vLLM): `{model, query, documents, top_n}` -> `{"results": [{"index", "relevance_score"}]}`.

Off by default (RAG_RERANK_URL unset). When set, retrieval takes RERANK_CANDIDATES passages and
the reranker's order picks the top k; `Passage.score` stays the dense cosine (the gate's scale).
"""

from __future__ import annotations

from typing import Any, Sequence

import httpx

from rag.bounded_http import SMALL_ANSWER_BYTES, bounded, error_message, server_client
from rag.bounded_http import timeout as http_timeout
from rag.i18n import t
from rag.config import normalize_base_url
from rag.errors import RagError
from rag.redact import strip_userinfo

RERANK_CANDIDATES = 20  # passages proposed to the reranker, which keeps the top k


class RerankError(RagError):
    """The reranker could not order the passages."""


class Reranker:
    def __init__(self, url: str, model: str | None = None, api_key: str | None = None,
                 timeout: float = 60.0) -> None:
        self.url = normalize_base_url(url) + "/rerank"
        self.shown_url = strip_userinfo(self.url)
        self.model = model or ""
        self._api_key = api_key  # sent to this URL only: it is the one it was configured for
        self._http = server_client(self.url, api_key, http_timeout(timeout, connect=10.0))

    @classmethod
    def from_settings(cls, settings: Any) -> Reranker | None:
        url = getattr(settings, "rerank_url", None)
        if not url:
            return None
        return cls(url, getattr(settings, "rerank_model", None), getattr(settings, "rerank_api_key", None),
                   timeout=getattr(settings, "timeout", 60.0))

    def rerank(self, query: str, documents: Sequence[str], top_n: int) -> list[tuple[int, float]]:
        """(index into `documents`, relevance), best first, at most `top_n`."""
        if not documents:
            return []
        body = {"model": self.model, "query": query, "documents": list(documents), "top_n": top_n}
        try:
            response = bounded(self._http, "POST", self.url, SMALL_ANSWER_BYTES, RerankError, json=body)
        except httpx.TransportError as exc:
            raise RerankError(t("rerank.unreachable", url=self.shown_url, error=type(exc).__name__)) from exc
        if response.status_code != 200:
            detail = error_message(response, [self._api_key])
            raise RerankError(t("rerank.status", url=self.shown_url, status=response.status_code,
                                detail=detail or t("llm.no_details")))
        try:
            results = response.json()
            results = results.get("results", results) if isinstance(results, dict) else results
            ranked = [(int(r["index"]), float(r.get("relevance_score", r.get("score")))) for r in results]
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise RerankError(t("rerank.unreadable", url=self.shown_url)) from exc
        ranked = [(i, s) for i, s in ranked if 0 <= i < len(documents)]
        ranked.sort(key=lambda pair: -pair[1])
        return ranked[:top_n]


def rerank_passages(question: str, passages: Sequence[Any], reranker: Reranker, top_n: int) -> list[Any]:
    """The passages in the reranker's order (each with its `rerank_score`), at most `top_n`."""
    texts = [f"{p.header}\n\n{p.text}" if getattr(p, "header", "") else p.text for p in passages]
    ranked = reranker.rerank(question, texts, top_n)
    out = []
    for index, score in ranked:
        passage = passages[index]
        passage.rerank_score = score
        out.append(passage)
    return out
