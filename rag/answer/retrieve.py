"""Retrieval: the question's nearest passages, dense or hybrid (dense + BM25, fused by their scores or by RRF).

Whatever orders the results, `Passage.score` is the dense cosine similarity of that passage to
the question: the score threshold is defined on it (RRF scores are ranks, not similarities).
The access filter runs inside Qdrant (every prefetch too), so a passage the user may not see
never leaves the store. `groups=None` means no filter: the CLI and admin tools see everything.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Sequence

from rag.i18n import t
from rag.i18n.numbers import integer
from rag.answer.context import cap_per_document, expand, neighbours_from_store
from rag.answer.ordering import CHAT_MODEL, DENSE, HYBRID, RERANKER, Ordering
from rag.servers.rerank import RERANK_CANDIDATES, RerankError, rerank_passages
from rag.errors import RagError, StoreError
from rag.store.sparse import check_sparse_version, sparse_query
from rag.store.filters import Where, match
from rag.store.store import Hit, Store

RETRIEVAL_MODES = ("auto", "dense", "hybrid")
# How many chunks of one article the search within it proposes (small-to-big, rag.answer.context).
ARTICLE_CANDIDATES = 8
# A question, even with a pasted error message, fits in this; far longer is a pasted document,
# which would dilute the query vector and crowd the extracts out of the model's context window.
MAX_QUESTION_CHARS = 4000


def retrieve_options(settings: Any, llm: Any = None) -> dict[str, Any]:
    """The settings' context options as `retrieve` keywords: passages per document, neighbours'
    characters, the reranker when RAG_RERANK_URL is set, and the chat model's levers when
    RAG_QUERY_REWRITE / RAG_LLM_RERANK are on (`llm`, else the settings' chat server)."""
    from rag.servers.rerank import Reranker

    options = {"per_document": settings.per_document or None, "expand_chars": max(0, settings.expand_chars),
               "article_chars": max(0, settings.article_chars), "fusion": settings.fusion,
               "fusion_weight": settings.fusion_weight, "distinct": max(0, settings.distinct_articles),
               "reranker": Reranker.from_settings(settings)}
    return {**options, **chat_levers(settings, llm)}


def chat_levers(settings: Any, llm: Any = None) -> dict[str, Any]:
    """`rewriter` (rag.answer.query_rewrite) and `llm_reranker` (rag.answer.llm_rerank), None when off."""
    from rag.answer import llm_rerank, query_rewrite

    wanted = getattr(settings, "query_rewrite", "off") != "off" or getattr(settings, "llm_rerank", False)
    if wanted and llm is None:
        from rag.servers.chat import LLMClient

        llm = LLMClient.from_settings(settings)
    return {"rewriter": query_rewrite.from_settings(settings, llm),
            "llm_reranker": llm_rerank.from_settings(settings, llm)}


def options_record(options: dict[str, Any]) -> dict[str, Any]:
    """`retrieve_options` as a results file keeps them: the rerankers and the rewrite by what they
    are (their server's address, the rewrite's mode), never a client object."""
    record: dict[str, Any] = {}
    for key, value in options.items():
        if value is None or isinstance(value, (str, int, float, bool)):
            record[key] = value
        else:
            record[key] = getattr(value, "mode", None) or getattr(value, "shown_url", None) or type(value).__name__
    return record


class QuestionError(RagError):
    """The question cannot be searched (e.g. it is empty)."""


@dataclass
class Passage:
    n: int  # 1-based rank, the number cited as [n]
    score: float  # dense cosine similarity to the question
    title: str
    section: str
    url: str
    text: str
    header: str = ""
    order: int = 0
    heading_path: list[str] = field(default_factory=list)
    access: list[str] = field(default_factory=list)
    id: str = ""
    rrf_score: float | None = None  # the fused rank score in hybrid mode
    rerank_score: float | None = None  # the reranker's relevance, when one ordered the passages
    # When neighbours or small-to-big grew `text`: its chunks, its own first, in the order they were
    # added; a prompt too long for the model sheds them from the last (rag.answer.budget). Internal.
    pieces: tuple = ()

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("pieces")
        return out


def resolve_mode(mode: str, info: dict[str, Any]) -> str:
    if mode not in RETRIEVAL_MODES:
        raise QuestionError(t("ask.unknown_mode", mode=repr(mode), modes=", ".join(RETRIEVAL_MODES)))
    if mode == "auto":
        return "hybrid" if info.get("has_sparse") else "dense"
    if mode == "hybrid" and not info.get("has_sparse"):
        raise StoreError(t("ask.no_sparse", name=repr(info.get("name"))))
    return mode


def _passage(n: int, hit: Hit, score: float, rrf: float | None) -> Passage:
    p = hit.payload
    return Passage(
        n=n,
        score=float(score),
        title=str(p.get("title") or ""),
        section=str(p.get("section") or ""),
        url=str(p.get("url") or ""),
        text=str(p.get("text") or ""),
        header=str(p.get("header") or ""),
        order=int(p.get("order") or 0),
        heading_path=list(p.get("heading_path") or []),
        access=list(p.get("access") or []),
        id=hit.id,
        rrf_score=rrf,
    )


def retrieve(
    question: str,
    store: Store,
    embedder: Any,
    collection: str,
    top_k: int = 6,
    mode: str = "auto",
    groups: Sequence[str] | None = None,
    candidates: int | None = None,
    per_document: int | None = None,
    expand_chars: int = 0,
    reranker: Any = None,
    article_chars: int = 0,
    articles: int = 2,
    fusion: str = "rrf",
    fusion_weight: float | None = None,
    distinct: int = 0,
    rrf_k: float | None = None,
    fusion_documents: bool = False,
    rewriter: Any = None,
    llm_reranker: Any = None,
) -> list[Passage]:
    """The `top_k` passages for `question`, best first, numbered from 1.

    `groups`: the reader's access groups (a passage is returned when its `access` shares one);
    None = no filter. `candidates`: how many each hybrid branch proposes before fusion.
    `per_document`: at most that many passages of one document (rag.context); `expand_chars`:
    grow the passages by their neighbouring chunks, that many characters in all. `reranker`
    (rag.servers.rerank.Reranker): RERANK_CANDIDATES passages are proposed, its order keeps the best.
    `article_chars`: small-to-big, the first passage of each of the top `articles` articles grown
    by that article's best chunks (searched again within it, under the same access filter), that
    many characters in all (rag.answer.context.expand). `fusion`: how hybrid mode fuses its two
    branches, "rrf" (ranks) or "convex" (scores, `fusion_weight` the cosine's; rag.store.fusion).
    `distinct`: the first that many passages are the best of as many different articles
    (rag.answer.context.cap_per_document), so that more articles reach the context. `rrf_k`,
    `fusion_documents`: RRF's constant, and the fusion by documents (Store.search_hybrid).
    `rewriter` (rag.answer.query_rewrite): the dense search steered by the chat model's rewrite of
    the question; `llm_reranker` (rag.answer.llm_rerank): the RERANK_CANDIDATES ordered by the chat
    model, after the /v1/rerank reranker when both are set. Either one failing leaves a note.
    """
    wanted = top_k if per_document is None and not distinct else max(top_k * 4, 20)
    if reranker is not None or llm_reranker is not None:
        wanted = max(wanted, RERANK_CANDIDATES)
    fused_by: dict[str, Any] = {"fusion": fusion} if fusion_weight is None else {"fusion": fusion, "weight": fusion_weight}
    fused_by.update({"rrf_k": rrf_k} if rrf_k else {}, **({"documents": True} if fusion_documents else {}))
    notes: list[str] = []
    steer = None if rewriter is None else (lambda vector: rewriter.steer(question.strip(), vector, embedder, notes))
    passages, query = _search(question, store, embedder, collection, wanted, mode, groups, candidates, fused_by,
                              steer)
    ranked_by = None
    if reranker is not None:
        passages, note = _reranked(question.strip(), passages, reranker)
        notes += [note] if note else []
        ranked_by = RERANKER if note is None else ranked_by
    if llm_reranker is not None:
        passages, note = llm_reranker.rerank(question.strip(), passages, top_k)
        notes += [note] if note else []
        ranked_by = CHAT_MODEL if note is None else ranked_by
    searched = passages
    passages = cap_per_document(passages, top_k, per_document, distinct)
    ordering = Ordering(search=HYBRID if query.sparse else DENSE, ranked_by=ranked_by,
                        steered=getattr(rewriter, "mode", None) if getattr(rewriter, "last", None) else None,
                        articles=_moved(searched, passages))
    if (expand_chars > 0 or article_chars > 0) and passages:
        within = within_article(store, collection, query, groups, fused_by) if article_chars > 0 else None
        passages = expand(passages, neighbours_from_store(store, collection, groups), expand_chars,
                          article=within, article_chars=article_chars, articles=articles)
    return Passages(passages, notes, ordering, query.question)


def _moved(before: Sequence[Passage], after: Sequence[Passage]) -> bool:
    """Whether `after` (a selection of `before`, renumbered) changed the order of those it kept."""
    place = {(p.id, p.url, p.order): i for i, p in enumerate(before)}
    places = [place.get((p.id, p.url, p.order), -1) for p in after]
    return places != sorted(places)


class Passages(list):
    """The passages, best first, with `notes` a reader should see about how they were found and
    their `ordering` (rag.answer.ordering: what put them in this order)."""

    def __init__(self, passages: Sequence[Passage] = (), notes: Sequence[str] = (),
                 ordering: Ordering | None = None, vector: list[float] | None = None) -> None:
        super().__init__(passages)
        self.notes = list(notes)
        self.ordering = ordering
        # The question's own vector (the passages' scores are cosines to it): the gate searches
        # the question's background with it rather than embedding the question again.
        self.vector = vector


def _reranked(question: str, passages: list[Passage], reranker: Any) -> tuple[list[Passage], str | None]:
    """The reranker's order; when it fails, the search's own order and a note saying why (a
    reranker is an improvement: its failure must not fail every question)."""
    try:
        return rerank_passages(question, passages, reranker, len(passages)), None
    except RerankError as exc:
        return passages, t("ask.rerank_failed", error=exc)


@dataclass
class Query:
    """The question as searched: its dense vector and, in hybrid mode, its BM25 terms."""

    vector: list[float]
    sparse: Any = None
    question: list[float] | None = None  # the question's own vector, when `vector` is steered away from it


def within_article(store: Store, collection: str, query: Query, groups: Sequence[str] | None,
                   fused_by: dict[str, Any] | None = None):
    """passage -> the orders of its article's chunks, best first for the question: the same
    search (hybrid when the question was searched so, fused the same way, `fused_by`), restricted
    to the article's url and to what a reader of `groups` may see."""
    cache: dict[str, list[int]] = {}

    def ranked(passage: Any) -> list[int]:
        if passage.url not in cache:
            where = Where(must=(match("url", passage.url),))
            if query.sparse:
                hits = store.search_hybrid(collection, query.vector, query.sparse, limit=ARTICLE_CANDIDATES,
                                           groups=groups, where=where,
                                           **{k: v for k, v in (fused_by or {}).items() if k != "documents"})
                # Fused scores tie among an article's few chunks: the closer in meaning first, so
                # that the same question always grows its passage with the same chunks.
                dense = store.search_dense(collection, query.vector, limit=len(hits), groups=groups,
                                           ids=[h.id for h in hits])
                cosine = {h.id: h.score for h in dense}
                hits = sorted(hits, key=lambda h: (-round(h.score, 9), -cosine.get(h.id, 0.0), h.id))
            else:
                hits = store.search_dense(collection, query.vector, limit=ARTICLE_CANDIDATES, groups=groups,
                                          where=where)
            cache[passage.url] = [int(h.payload.get("order") or 0) for h in hits]
        return cache[passage.url]

    return ranked


def _search(
    question: str, store: Store, embedder: Any, collection: str, top_k: int, mode: str,
    groups: Sequence[str] | None, candidates: int | None, fused_by: dict[str, Any] | None = None,
    steer: Any = None,
) -> tuple[list[Passage], Query]:
    """`steer(vector)`: the vector the dense search looks with (rag.answer.query_rewrite), the
    passages' scores staying their cosine to the question's own `vector`."""
    if not question or not question.strip():
        raise QuestionError(t("ask.empty"))
    if len(question.strip()) > MAX_QUESTION_CHARS:
        raise QuestionError(t("ask.too_long", n=integer(len(question.strip())), limit=integer(MAX_QUESTION_CHARS)))
    if top_k < 1:
        raise QuestionError(t("ask.top_k", value=top_k))
    info = store.check_model(collection, embedder.model_id)
    chosen = resolve_mode(mode, info)
    vector = embedder.embed_query(question.strip())
    if info.get("dimension") and len(vector) != int(info["dimension"]):
        raise StoreError(t("ask.dimension", model=embedder.model_id, n=len(vector), name=repr(collection),
                           dimension=info["dimension"]))
    groups = list(groups) if groups is not None else None
    if chosen == "hybrid":
        check_sparse_version(info)  # other terms than the collection's would match wrongly
    sparse = sparse_query(question) if chosen == "hybrid" else None
    looking = steer(vector) if steer is not None else vector
    if chosen == "dense" or not sparse or not sparse[0]:
        hits = store.search_dense(collection, looking, limit=top_k, groups=groups)
        if looking is not vector and hits:
            hits = _rescored(store, collection, vector, hits, groups)
        return [_passage(i, h, h.score, None) for i, h in enumerate(hits, start=1)], Query(looking, None, vector)

    query = Query(looking, sparse, vector)
    fused = store.search_hybrid(collection, looking, sparse, limit=top_k, groups=groups, candidates=candidates,
                                **(fused_by or {}))
    if not fused:
        return [], query
    # The cosine of exactly the fused points, computed by Qdrant the same way as in dense mode.
    dense = store.search_dense(collection, vector, limit=len(fused), groups=groups, ids=[h.id for h in fused])
    cosine = {h.id: h.score for h in dense}
    # RRF with Qdrant's k=2 ties often (dense rank 1 + BM25 rank 3 = dense 3 + BM25 1), and the
    # store orders ties arbitrarily, so the same question could rank two ways from one run to the
    # next: the closer in meaning comes first.
    fused = sorted(fused, key=lambda h: (-round(h.score, 9), -cosine.get(h.id, 0.0), h.id))
    return [_passage(i, h, cosine.get(h.id, 0.0), h.score) for i, h in enumerate(fused, start=1)], query


def _rescored(store: Store, collection: str, vector: list[float], hits: list[Hit],
              groups: Sequence[str] | None) -> list[Hit]:
    """`hits` in their order, each scored by its cosine to `vector` (computed by Qdrant)."""
    cosine = {h.id: h.score for h in store.search_dense(collection, vector, limit=len(hits), groups=groups,
                                                         ids=[h.id for h in hits])}
    return [replace(h, score=cosine.get(h.id, 0.0)) for h in hits]
