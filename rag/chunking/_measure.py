"""What a chunk's size counts: characters (the default) or the embedding model's tokens.

Every strategy asks the same two questions of a span of the document: about how big is it (to
pack pieces greedily, by bisection), and does it fit (to decide, exactly). In characters both are
`end - start`. In tokens, both are read from the tokens of each word, counted once: the bundled
model's tokenizer never joins two words into one token, so its count of a span is the sum of its
words' (its edge fragments counted as such), plus what it adds to every text and one token for
trailing whitespace (600 random spans of the demo articles out of 600). Tokenizing each candidate
chunk instead took 3 ms for 500 characters and 15 ms for 1,000; a span whose sum lands on the limit
itself is still counted by the tokenizer, so a chunk of `chunk_size` tokens is at most that many by
the model's own count.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from typing import Callable

import numpy as np

CHARS = "chars"
TOKENS = "tokens"
UNITS = (CHARS, TOKENS)

# The documented estimate where the model gives no count of its own: characters divided by 3.4,
# the ratio the bundled model's tokenizer gives on the demo articles (64,483 characters, 18,823
# tokens: French prose with English commands and attribute names); the 221 Windows Server articles
# give 3.70 as indexed (benchmarks/token_sizes.py): there the estimate errs towards smaller chunks.
CHARS_PER_TOKEN = 3.4

TokenCount = Callable[[str], int]

_WORD = re.compile(r"\S+")


def estimate_tokens(text: str) -> int:
    """A token count for a model without a tokenizer: characters / CHARS_PER_TOKEN, rounded up."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


class TokenMeasure:
    """Sizes of spans of `text` in the tokens of `count` (the model's tokenizer, or the estimate)."""

    def __init__(self, text: str, count: TokenCount, words: dict[str, int] | None = None) -> None:
        """`words`: the tokens of words already counted with `count` (shared across documents)."""
        self.text = text
        self.count = count
        self.estimated = count is estimate_tokens
        if self.estimated:
            self.overhead = self.trailing = 0
            self.chars_per_token = CHARS_PER_TOKEN
            self._cum = None
            return
        # What the model adds to every text (its "passage: " prefix, special tokens): a one-letter
        # word is one token; and what trailing whitespace adds.
        self.overhead = max(0, count("a") - 1)
        self.trailing = max(0, count("a\n") - count("a"))
        self._words: dict[str, int] = {} if words is None else words
        self._cum = self._running_total(text)
        total = float(self._cum[-1]) or 1.0
        self.chars_per_token = max(1.0, len(text) / total)

    def _word_tokens(self, word: str) -> int:
        n = self._words.get(word)
        if n is None:
            n = self._words[word] = max(1, self.count(word) - self.overhead)
        return n

    def _running_total(self, text: str) -> np.ndarray:
        """tokens[i]: about how many tokens text[:i] holds, each word's spread over its characters."""
        word_tokens = self._word_tokens
        starts, ends, tokens = [], [], []
        for match in _WORD.finditer(text):
            starts.append(match.start())
            ends.append(match.end())
            tokens.append(word_tokens(match.group()))
        self._starts, self._ends = starts, ends
        self._before = [0, *np.cumsum(tokens, dtype=np.int64).tolist()]  # tokens of words[:k]
        density = np.zeros(len(text) + 1)
        if starts:
            s, e, n = np.array(starts), np.array(ends), np.array(tokens, dtype=float)
            per_char = n / (e - s)
            np.add.at(density, s, per_char)
            np.add.at(density, e, -per_char)
        per_position = np.cumsum(density)[:-1]
        return np.concatenate(([0.0], np.cumsum(per_position)))

    def at(self, offset: int) -> float:
        """About how many tokens the text holds before `offset`."""
        if self._cum is None:
            return offset / CHARS_PER_TOKEN
        return float(self._cum[offset])

    def keys(self, offsets: list[int]) -> list[float]:
        if self._cum is None:
            return [o / CHARS_PER_TOKEN for o in offsets]
        return self._cum[np.asarray(offsets, dtype=np.int64)].tolist()

    def size(self, start: int, end: int) -> float:
        """About how many tokens text[start:end] holds (the model's additions included)."""
        return self.at(end) - self.at(start) + self.overhead

    def tokens(self, start: int, end: int) -> int:
        """The model's count of text[start:end], from its words' counts."""
        if self.estimated:
            return math.ceil((end - start) / CHARS_PER_TOKEN)
        text, starts, ends = self.text, self._starts, self._ends
        first = bisect_left(ends, start + 1)  # the first word ending after `start`
        stop = bisect_left(starts, end)  # words[:stop] start before `end`
        total = 0
        if first < stop:
            lo, hi = first, stop
            if starts[first] < start:  # a word cut at the start: its fragment
                total += self._word_tokens(text[start:min(ends[first], end)])
                lo += 1
            if hi > lo and ends[hi - 1] > end:  # a word cut at the end
                total += self._word_tokens(text[starts[hi - 1]:end])
                hi -= 1
            if hi > lo:
                total += self._before[hi] - self._before[lo]
        trailing = self.trailing if end > start and text[end - 1].isspace() else 0
        return self.overhead + total + trailing

    def fits(self, start: int, end: int, limit: int) -> bool:
        """Does text[start:end] hold at most `limit` tokens by the model's count? (A sum that
        lands on the limit is checked by the tokenizer itself.)"""
        n = self.tokens(start, end)
        if self.estimated or n < limit:
            return n <= limit
        if n > limit + 1:
            return False
        return self.count(self.text[start:end]) <= limit

    def chars_for(self, tokens: int) -> int:
        """About how many characters `tokens` tokens of this text take."""
        return max(1, int(tokens * self.chars_per_token))


def measure_for(text: str, unit: str, count: TokenCount | None,
                words: dict[str, int] | None = None) -> TokenMeasure | None:
    """None for characters (the strategies' own arithmetic), else a token measure of `text`."""
    if unit != TOKENS:
        return None
    return TokenMeasure(text, count or estimate_tokens, words)
