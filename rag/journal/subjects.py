"""Subjects with no article: the refused questions grouped into what readers wanted to read.

Two questions belong together when they are close in meaning (the bundled embedding model, so the
grouping is the same whatever server answers the questions) or when they name the same thing no
article mentions (the gate's unknown words: "Veeam", "BitLocker"). Average-linkage clustering
joins the closest groups first and stops when no two groups are close enough, so one broad
question cannot chain two subjects together.

Pure functions over vectors and entries; `embed_questions` is the only part that runs a model.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from rag.journal.records import Entry
from rag.textnorm import fold, stem

# Measured on benchmarks/data/journal_subjects.jsonl (benchmarks/journal_subjects.py): from 0.87 to
# 0.89 no group mixes two subjects and the groups stay the same; at 0.86 two subjects start to mix.
# The middle of that plateau, rather than its edge.
JOIN_AT = 0.88
# Sharing a word no article mentions is strong evidence of one subject: it counts as this much
# cosine on top of the questions' closeness.
SHARED_TERM_BONUS = 0.12
# ...when the two questions are at least this close: an everyday word the articles happen not to
# hold ("chez", "portable") must not join a mail question to a VPN one.
TERM_FLOOR = 0.80
MIN_TERM_CHARS = 3

Embed = Callable[[list[str]], "np.ndarray | list[list[float]]"]


@dataclass
class Subject:
    """A group of refused questions: its words (the unknown words most asked), its questions (the
    most central first), the readers who asked."""

    terms: list[str]
    entries: list[Entry]
    readers: int
    answered_by: list[str] = field(default_factory=list)  # titles of articles that now answer it
    answered: int = 0  # how many of its questions the gate now lets through

    @property
    def questions(self) -> list[str]:
        return [e.searched for e in self.entries]

    @property
    def label(self) -> str:
        return ", ".join(self.terms) if self.terms else self.entries[0].searched

    @property
    def last(self) -> str:
        return max(e.time for e in self.entries)


def term_key(word: str) -> str:
    """A word as compared between questions: case, accents and inflection ignored (rag.textnorm)."""
    folded = fold(word)
    return stem(folded) if folded.isalpha() else folded


def _terms(entry: Entry) -> set[str]:
    return {term_key(w) for w in entry.unknown_terms if len(w) >= MIN_TERM_CHARS}


def similarity(vectors: np.ndarray, terms: Sequence[set[str]], bonus: float = SHARED_TERM_BONUS,
               floor: float = TERM_FLOOR) -> np.ndarray:
    """Cosine of every pair of (normalised) question vectors, plus `bonus` where they share a term
    and are at least `floor` close."""
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    for i in range(len(terms)):
        for j in range(i + 1, len(terms)):
            if terms[i] & terms[j] and sim[i, j] >= floor:
                sim[i, j] += bonus
                sim[j, i] += bonus
    return sim


def cluster(sim: np.ndarray, join_at: float = JOIN_AT) -> list[list[int]]:
    """Average-linkage groups of indices: the two closest groups are joined while their mean
    pairwise similarity is at least `join_at`. Groups come out largest first."""
    groups: list[list[int]] = [[i] for i in range(len(sim))]
    # link[a][b]: the sum of pairwise similarities between groups a and b (mean = sum / sizes).
    link = {a: {b: float(sim[a, b]) for b in range(len(sim)) if b != a} for a in range(len(sim))}
    alive = {i: groups[i] for i in range(len(sim))}
    while len(alive) > 1:
        best, pair = -np.inf, None
        for a in alive:
            for b, total in link[a].items():
                if b > a:
                    mean = total / (len(alive[a]) * len(alive[b]))
                    if mean > best:
                        best, pair = mean, (a, b)
        if pair is None or best < join_at:
            break
        a, b = pair
        alive[a] = alive[a] + alive.pop(b)
        for c in list(link[b]):
            if c != a:
                link[a][c] = link[a].get(c, 0.0) + link[b][c]
                link[c][a] = link[a][c]
                del link[c][b]
        del link[a][b]
        del link[b]
    return sorted((sorted(g) for g in alive.values()), key=lambda g: (-len(g), g[0]))


def _shown_terms(entries: Sequence[Entry], limit: int = 3) -> list[str]:
    # The words no article mentions, most asked first, as readers wrote them most often.
    counts: Counter[str] = Counter()
    spelled: dict[str, Counter[str]] = {}
    for entry in entries:
        for word in {w for w in entry.unknown_terms if len(w) >= MIN_TERM_CHARS}:
            key = term_key(word)
            counts[key] += 1
            spelled.setdefault(key, Counter())[word] += 1
    shared = [k for k, n in counts.most_common() if n > 1 or len(entries) == 1]
    return [spelled[k].most_common(1)[0][0] for k in shared[:limit]]


def group(entries: Sequence[Entry], vectors: np.ndarray | list[list[float]] | None,
          join_at: float = JOIN_AT, bonus: float = SHARED_TERM_BONUS, floor: float = TERM_FLOOR) -> list[Subject]:
    """The subjects of `entries` (refused questions), ranked by readers, then questions, then the
    most recent; `vectors[i]` is the embedding of `entries[i].question` (None: words only)."""
    entries = list(entries)
    if not entries:
        return []
    terms = [_terms(e) for e in entries]
    if vectors is None:
        matrix = np.zeros((len(entries), 1))
        sim = similarity(matrix + 1.0, terms, bonus, 0.0) - 1.0  # words alone: only shared terms join
        join_at = min(join_at, bonus)
    else:
        sim = similarity(np.asarray(vectors, dtype=float), terms, bonus, floor)
    subjects = []
    for members in cluster(sim, join_at):
        centrality = {i: float(np.mean([sim[i, j] for j in members])) for i in members}
        ordered = [entries[i] for i in sorted(members, key=lambda i: -centrality[i])]
        readers = len({e.reader for e in ordered})  # "" (no sign-in) counts as one reader
        subjects.append(Subject(_shown_terms(ordered), ordered, readers))
    subjects.sort(key=lambda s: (-s.readers, -len(s.entries), _reverse(s.last)))
    return subjects


def _reverse(text: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in text)


def embed_questions(questions: Sequence[str], embedder: object | None = None) -> np.ndarray:
    """The questions' vectors with the bundled model (or `embedder`, anything with embed_query)."""
    if embedder is None:
        from rag.embeddings.embedded import EmbeddedEmbedder

        embedder = EmbeddedEmbedder()
    return np.asarray([embedder.embed_query(q) for q in questions], dtype=float)  # type: ignore[attr-defined]

