"""Fitting the prompt into the context length the chat model is loaded with.

An OpenAI-compatible server has no tokenizer endpoint, so tokens are estimated. The estimate is
deliberately pessimistic: about 4 characters make a token in English prose, fewer in French and
far fewer in code, commands and identifiers, so we count one token per 3 characters plus a fixed
cost per message for the chat template. Over-estimating drops a passage that would have fitted;
under-estimating gets a context overflow error or, worse, a silent truncation by the server.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from rag.answer.context import stitch

CHARS_PER_TOKEN = 3.0
TOKENS_PER_MESSAGE = 8
# Left free besides the answer: the estimate may still be wrong, and templates add tokens.
SAFETY_TOKENS = 64


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def estimate_messages(messages: Sequence[dict[str, str]]) -> int:
    return sum(estimate_tokens(m.get("content") or "") + TOKENS_PER_MESSAGE for m in messages)


@dataclass
class Fit:
    kept: list[Any]
    dropped: list[int] = field(default_factory=list)  # passage numbers left out, lowest score first
    shortened: list[int] = field(default_factory=list)  # passages sent without their growth (their own chunk)
    messages: list[dict[str, str]] = field(default_factory=list)
    prompt_tokens: int = 0
    available_tokens: int | None = None  # None when the context length is unknown
    fits: bool = True


def fit_passages(
    passages: Sequence[Any],
    build: Callable[[list[Any]], list[dict[str, str]]],
    context_length: int | None,
    max_tokens: int,
) -> Fit:
    """Fit the prompt plus the answer's room. First the other passages lose their growth (their
    neighbours and small-to-big chunks, `pieces`), the last passage first; then the first passage
    sheds its added chunks one by one, the last added first (small-to-big adds the article's best
    first); only then are the lowest-scored passages dropped whole, as before. An article is shed
    only when every passage is down to its own chunk.

    `build(passages)` returns the messages for a set of passages (kept in their given order).
    `fits` is False when even the single best passage, shrunk, does not fit; then nothing is kept.
    """
    kept = list(passages)
    messages = build(kept)
    tokens = estimate_messages(messages)
    if context_length is None:
        return Fit(kept=kept, messages=messages, prompt_tokens=tokens)
    available = context_length - max_tokens - SAFETY_TOKENS
    dropped: list[int] = []
    shortened: set[int] = set()

    def cut(i: int, keep: int) -> None:
        nonlocal messages, tokens
        p = kept[i]
        pieces = tuple(getattr(p, "pieces", ()) or ())[:keep]
        kept[i] = replace(p, text=stitch(pieces), pieces=pieces if len(pieces) > 1 else ())
        shortened.add(p.n)
        messages = build(kept)
        tokens = estimate_messages(messages)

    for i in range(len(kept) - 1, 0, -1):  # all but the first, the last first
        if tokens > available and len(getattr(kept[i], "pieces", ()) or ()) > 1:
            cut(i, 1)
    while kept and tokens > available and len(getattr(kept[0], "pieces", ()) or ()) > 1:
        cut(0, len(kept[0].pieces) - 1)
    while tokens > available and kept:
        weakest = min(kept[1:] or kept, key=lambda p: (p.score, -p.n))
        kept.remove(weakest)
        dropped.append(weakest.n)
        messages = build(kept)
        tokens = estimate_messages(messages)
    fits = bool(kept) and tokens <= available
    return Fit(kept=kept, dropped=dropped, shortened=sorted(shortened & {p.n for p in kept}),
               messages=messages if fits else [], prompt_tokens=tokens, available_tokens=available, fits=fits)
