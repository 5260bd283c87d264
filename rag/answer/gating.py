"""The seam between the answer engine and the answerability gate: the engine calls a `Gate` for
every question it answers (a follow-up's rewrite included) and does not know how it decides.

`StoreGate`, the default, is rag.answer.gate.gate with the engine's store, collection, reader's
groups, collection statistics and embedder. Another gate is another object given to
`AnswerEngine(gate=...)`, as llama_index injects its node postprocessors: the pipeline stays as it is.

`TermRarity` is what a follow-up asked without a chat model needs from the same statistics: how many
chunks a reader may see hold a term, against how common it is in the language, to carry over the
previous question's subject and not its incidental words (a colleague's name, "demande").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

from rag.answer.gate import Decision, GateParams, gate, has_terms
from rag.answer.gate_signals import zipf
from rag.i18n.detect import detect_language
from rag.store.filters import Where, match
from rag.store.terms import TERMS_FIELD, question_keys, question_words


ZIPF_SCALE = 9.0  # wordfreq's Zipf value is log10 of a word's frequency per billion words


class Gate(Protocol):
    """Decide whether the passages retrieved for a question can answer it."""

    def __call__(self, question: str, passages: Sequence[Any]) -> Decision: ...


@dataclass
class StoreGate:
    """The default gate: the collection's term statistics, the cosine floor and coverage of `params`."""

    params: GateParams
    store: Any = None
    collection: str | None = None
    groups: Sequence[str] | None = None
    info: Mapping[str, Any] = field(default_factory=dict)
    embedder: Any = None

    def __call__(self, question: str, passages: Sequence[Any]) -> Decision:
        return gate(question, passages, self.params, self.store, self.collection, self.groups, self.info,
                    detect_language(question), self.embedder)


@dataclass
class TermRarity:
    """How much a term says what a question is about in these articles: held by chunks a reader may
    see, and used by the articles far more than by the language (its share of chunks against its
    frequency in French or English, wordfreq's Zipf scale). "Kerberos" and "klist" weigh much,
    "demande" little, a colleague's name nothing (no chunk holds it)."""

    store: Any
    collection: str
    groups: Sequence[str] | None
    points: int

    def count(self, term: str) -> int:
        keys = question_keys(question_words(term))
        if not keys:
            return 0
        return max(self.store.count(self.collection, where=Where(must=(match(TERMS_FIELD, k),)), groups=self.groups)
                   for k in keys)

    def weight(self, term: str) -> float | None:
        """log10 of (share of chunks holding it) / (its frequency in the language); None when no
        chunk holds it. A word the language does not know counts as one in a billion."""
        held = self.count(term)
        if not held or not self.points:
            return None
        per_billion = zipf(term.lower()) or 0.0
        return math.log10(held / self.points) + ZIPF_SCALE - per_billion


def term_rarity(store: Any, collection: str | None, info: Mapping[str, Any] | None,
                groups: Sequence[str] | None) -> TermRarity | None:
    """The collection's term statistics, or None when it has none (indexed before they existed)."""
    if store is None or not collection or not has_terms(info):
        return None
    return TermRarity(store, collection, groups, int((info or {}).get("points") or 0))
