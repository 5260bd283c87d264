"""Which passages make the context, so that the one holding the answer gets in.

Two levers, measured in benchmarks/quality.py (answer_in_context, hit@k):

- at most `per_document` passages of one document: the right article's wrong sections do not
  crowd out the other articles; and, with `distinct`, the first slots one article each;
- each passage grown by its neighbours in its document (the chunks just before and after it),
  within a budget of characters: the answer often sits right after the passage that matched;
- small-to-big: the first passage of each of the top articles grown by that article's own best
  chunks, found by searching again within the article (its table row, the line of a procedure
  further down), within a budget of characters of its own.

Pure functions, plus `neighbours_from_store`, the thin read of a document's chunks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

# A chunk of a document as stored: its `order`, `start`, `end`, `text` and `access`.
Chunk = Mapping[str, Any]
NeighbourFn = Callable[[Any], Sequence[Chunk]]  # passage -> the chunks of its document
ArticleFn = Callable[[Any], Sequence[int]]  # passage -> its document's chunk orders, best first


def cap_per_document(passages: Sequence[Any], top_k: int, per_document: int | None, distinct: int = 0) -> list[Any]:
    """The first `top_k` passages, at most `per_document` of one url, renumbered from 1.

    `distinct` > 0: the first `distinct` of them are the best passage of as many different
    articles, in the articles' order, and only the slots left take a second passage of an
    article; an article's other passages come in by small-to-big (`expand`) instead of
    pushing another article out of the context."""
    if distinct > 0:
        firsts: dict[str, Any] = {}
        for p in passages:
            if p.url not in firsts and len(firsts) < min(distinct, top_k):
                firsts[p.url] = p
        chosen = {id(p) for p in firsts.values()}
        passages = [*firsts.values(), *(p for p in passages if id(p) not in chosen)]
    kept: list[Any] = []
    seen: dict[str, int] = {}
    for p in passages:
        if per_document is not None and seen.get(p.url, 0) >= per_document:
            continue
        seen[p.url] = seen.get(p.url, 0) + 1
        kept.append(p)
        if len(kept) == top_k:
            break
    return [replace(p, n=i) for i, p in enumerate(kept, start=1)]


# Between two chunks of a document that are not next to each other (a neighbour and a chunk
# small-to-big found further down): without it a heading ending one piece reads as if the next
# piece's text were its content, the chunks between them silently gone.
GAP = "[…]"


def stitch(pieces: Sequence[Chunk]) -> str:
    """The text of chunks of one document in the document's order, their overlaps written once
    (offsets), GAP where chunks between them were left out."""
    text, end, last = "", None, None
    for c in sorted(pieces, key=lambda c: int(c.get("start") or 0)):
        body, start = str(c.get("text") or ""), int(c.get("start") or 0)
        order = c.get("order")
        if end is None:
            text = body
        elif start >= end:
            skipped = order is not None and last is not None and int(order) > int(last) + 1
            text += (f"\n\n{GAP}\n\n" if skipped else "" if start == end else "\n\n") + body
        else:
            text += body[end - start:]
        end, last = max(end or 0, int(c.get("end") or start + len(body))), order
    return text


def expand(
    passages: Sequence[Any], neighbours: NeighbourFn, budget_chars: int, reach: int = 1, *,
    article: ArticleFn | None = None, article_chars: int = 0, articles: int = 2,
) -> list[Any]:
    """Each passage, best first, grown by up to `reach` chunks on each side while the added text
    fits in `budget_chars` (shared by all passages). A neighbour that is itself a retrieved
    passage is not repeated.

    Small-to-big (`article`, `article_chars` > 0): the first passage of each of the first
    `articles` documents is also grown by that document's best chunks, `article(passage)`'s
    orders taken best first while they fit in `article_chars` (shared). Only chunks
    `neighbours` returns are added: what the reader may not see is never in that list."""
    taken = {(p.url, p.order) for p in passages}
    left, article_left = budget_chars, article_chars
    grown_urls: list[str] = []
    out: list[Any] = []
    for p in passages:
        searched = article is not None and article_left > 0 and p.url not in grown_urls and len(grown_urls) < articles
        if searched:
            grown_urls.append(p.url)
        if left <= 0 and not searched:
            out.append(p)
            continue
        chunks = {int(c.get("order") or 0): c for c in neighbours(p)}
        own = chunks.get(p.order)
        if own is None or own.get("start") is None:
            out.append(p)  # no offsets to place the neighbours with
            continue
        chosen = [own]
        for step in range(1, reach + 1):
            for order in (p.order - step, p.order + step):
                c = chunks.get(order)
                if c is None or (p.url, order) in taken:
                    continue
                cost = len(str(c.get("text") or ""))
                if cost > left:
                    continue
                chosen.append(c)
                taken.add((p.url, order))
                left -= cost
        if searched:
            for order in article(p):  # type: ignore[misc]
                c = chunks.get(order)
                if c is None or (p.url, order) in taken:
                    continue
                cost = len(str(c.get("text") or ""))
                if cost > article_left:
                    break  # the next best does not fit: a worse one after it would be noise
                chosen.append(c)
                taken.add((p.url, order))
                article_left -= cost
        # The chunks are kept in the order they were added: a prompt too long for the model sheds
        # the last added first (rag.answer.budget.fit_passages) before it sheds an article.
        out.append(replace(p, text=stitch(chosen), pieces=tuple(chosen)) if len(chosen) > 1 else p)
    return out


def neighbours_from_store(store: Any, collection: str, groups: Sequence[str] | None) -> NeighbourFn:
    """The chunks of a passage's document that a reader of `groups` may see (None: all)."""
    cache: dict[str, list[Chunk]] = {}

    def fetch(passage: Any) -> Sequence[Chunk]:
        if passage.url not in cache:
            points = store.points_for_url(collection, passage.url,
                                          payload=["order", "start", "end", "text", "access", "section"])
            cache[passage.url] = [
                p.payload for p in points
                if groups is None or set(p.payload.get("access") or []) & set(groups)
            ]
        return cache[passage.url]

    return fetch
