"""Which passages make the context, so that the one holding the answer gets in.

Two levers, measured in benchmarks/quality.py (answer_in_context, hit@k):

- at most `per_document` passages of one document: the right article's wrong sections do not
  crowd out the other articles;
- each passage grown by its neighbours in its document (the chunks just before and after it),
  within a budget of characters: the answer often sits right after the passage that matched.

Pure functions, plus `neighbours_from_store`, the thin read of a document's chunks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

# A chunk of a document as stored: its `order`, `start`, `end`, `text` and `access`.
Chunk = Mapping[str, Any]
NeighbourFn = Callable[[Any], Sequence[Chunk]]  # passage -> the chunks of its document


def cap_per_document(passages: Sequence[Any], top_k: int, per_document: int | None) -> list[Any]:
    """The first `top_k` passages, at most `per_document` of one url, renumbered from 1."""
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


def stitch(pieces: Sequence[Chunk]) -> str:
    """The text of consecutive chunks of one document, their overlaps written once (offsets)."""
    text, end = "", None
    for c in sorted(pieces, key=lambda c: int(c.get("start") or 0)):
        body, start = str(c.get("text") or ""), int(c.get("start") or 0)
        if end is None:
            text = body
        elif start >= end:
            text += ("" if start == end else "\n\n") + body
        else:
            text += body[end - start:]
        end = max(end or 0, int(c.get("end") or start + len(body)))
    return text


def expand(passages: Sequence[Any], neighbours: NeighbourFn, budget_chars: int, reach: int = 1) -> list[Any]:
    """Each passage, best first, grown by up to `reach` chunks on each side while the added text
    fits in `budget_chars` (shared by all passages). A neighbour that is itself a retrieved
    passage is not repeated."""
    taken = {(p.url, p.order) for p in passages}
    left = budget_chars
    out: list[Any] = []
    for p in passages:
        if left <= 0:
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
        out.append(replace(p, text=stitch(chosen)) if len(chosen) > 1 else p)
    return out


def neighbours_from_store(store: Any, collection: str, groups: Sequence[str] | None) -> NeighbourFn:
    """The chunks of a passage's document that a reader of `groups` may see (None: all)."""
    cache: dict[str, list[Chunk]] = {}

    def fetch(passage: Any) -> Sequence[Chunk]:
        if passage.url not in cache:
            points = store.points_for_url(collection, passage.url,
                                          payload=["order", "start", "end", "text", "access"])
            cache[passage.url] = [
                p.payload for p in points
                if groups is None or set(p.payload.get("access") or []) & set(groups)
            ]
        return cache[passage.url]

    return fetch
