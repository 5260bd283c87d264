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
    """Fit the prompt plus the answer's room: first the grown passages lose their growth (their
    neighbours and the article's other chunks, `core_text`), the last passage first and the first
    one's last, since that is where small-to-big puts the top article's answer; then the
    lowest-scored passages are dropped whole, as before. An article is shed only when shrinking
    every other passage was not enough.

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
    shortened: list[int] = []

    def shrink(chosen: Callable[[list[Any]], list[Any]]) -> None:
        nonlocal messages, tokens
        for p in chosen(kept):
            if tokens <= available:
                return
            if getattr(p, "core_text", "") and p.core_text != p.text:
                kept[kept.index(p)] = replace(p, text=p.core_text, core_text="")
                shortened.append(p.n)
                messages = build(kept)
                tokens = estimate_messages(messages)

    shrink(lambda ps: sorted(ps[1:], key=lambda p: -p.n))  # all but the first, the last first
    while tokens > available and len(kept) > 1:
        weakest = min(kept[1:], key=lambda p: (p.score, -p.n))
        kept.remove(weakest)
        dropped.append(weakest.n)
        messages = build(kept)
        tokens = estimate_messages(messages)
    shrink(lambda ps: ps[:1])
    if tokens > available and kept:
        dropped += [p.n for p in kept]
        kept = []
        messages = build(kept)
        tokens = estimate_messages(messages)
    fits = bool(kept) and tokens <= available
    return Fit(kept=kept, dropped=dropped, shortened=sorted(n for n in shortened if n in {p.n for p in kept}),
               messages=messages if fits else [], prompt_tokens=tokens, available_tokens=available, fits=fits)
