"""What put a search's passages in their order, and the line that says so when the scores shown
(each passage's cosine to the question as asked) do not decrease down the list.

The dense search orders by meaning, hybrid mode by keywords and meaning together; the chat model's
rewrite of the question (rag.answer.query_rewrite) steers the meaning searched; a reranker
(/v1/rerank) or the chat model (rag.answer.llm_rerank) orders the candidates itself, when it
answered; the distinct articles (rag.answer.context.cap_per_document) put the best passage of each
article first. A reader who sees 0.81 above 0.86 is told which of these did it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rag.i18n import t

DENSE, HYBRID = "dense", "hybrid"
RERANKER, CHAT_MODEL = "reranker", "chat_model"

# What ordered the list, most decisive first: a ranking, else the search (steered or not).
_HOW = {
    RERANKER: "ask.order.reranker",
    CHAT_MODEL: "ask.order.chat_model",
    ("rewrite", DENSE): "ask.order.rewrite_dense",
    ("rewrite", HYBRID): "ask.order.rewrite_hybrid",
    ("hyde", DENSE): "ask.order.hyde_dense",
    ("hyde", HYBRID): "ask.order.hyde_hybrid",
    (None, DENSE): "ask.order.dense",
    (None, HYBRID): "ask.order.hybrid",
}


@dataclass(frozen=True)
class Ordering:
    """How one search ordered its passages."""

    search: str = DENSE  # DENSE | HYBRID: the search that ran (hybrid falls back to dense without terms)
    steered: str | None = None  # "rewrite" | "hyde": the meaning searched with the chat model's text too
    ranked_by: str | None = None  # RERANKER | CHAT_MODEL: what ordered the candidates last, if it did
    articles: bool = False  # the best passage of each article was moved ahead of another's second

    def key(self) -> str:
        """The catalogue key of what decided the order."""
        if self.ranked_by in (RERANKER, CHAT_MODEL):
            return _HOW[self.ranked_by]
        search = HYBRID if self.search == HYBRID else DENSE
        return _HOW.get((self.steered, search), _HOW[(None, search)])


def scores_decrease(passages: Sequence[Any]) -> bool:
    scores = [float(p.score) for p in passages]
    return all(a >= b for a, b in zip(scores, scores[1:]))


def order_note(passages: Sequence[Any], ordering: Ordering | None) -> str | None:
    """Why a passage with a lower score comes first, when one does (None when the scores decrease);
    `ordering` None (a turn read back from the journal): only that the search ordered them."""
    if scores_decrease(passages):
        return None
    if ordering is None:
        return t("ask.order_unknown")
    how = t(ordering.key())
    if ordering.articles:
        how += t("ask.order.articles")
    return t("ask.order_note", how=how)
