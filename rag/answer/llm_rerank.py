"""A listwise rerank of the search's candidates by the chat model (RAG_LLM_RERANK, off by default),
as RankGPT does: the question and the RERANK_CANDIDATES passages, numbered, in one prompt
(prompts/rerank_{fr,en}.txt); the model answers their numbers, most useful first ("[3] > [1] > [2]").

- Input capped: each passage cut to PASSAGE_CHARS (its heading trail and start: where a chunk says
  what it holds), the whole to what a 4k-token context takes; its fence tags defused as in the
  answer's prompt (rag.answer.prompts): a passage is untrusted text and cannot close its extract.
- Time capped: one non-streamed call of at most RERANK_TIMEOUT seconds, RERANK_MAX_TOKENS back.
- The reply read robustly: a reasoning model's thoughts dropped, the bracketed numbers if there
  are any (else every number), each once, those out of range ignored; the candidates it did not
  name follow in the search's order. A reply that does not rank at least the first `needed`
  places (garbage, an answer instead of a ranking, a list cut short) is not used: the search's
  own order stays, with a note, as when the /v1/rerank server fails.

`Passage.score` stays the dense cosine (the gate's scale); only the order changes.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from rag.answer import chat_backoff
from rag.answer import prompts
from rag.answer.prompts import TAGS, _defuse
from rag.errors import LLMError
from rag.i18n import language as in_language, t
from rag.i18n.detect import detect_language
from rag.servers.rerank import RERANK_CANDIDATES

PASSAGE_CHARS = 500  # of each candidate given to the model
MAX_INPUT_CHARS = 10_000  # of all candidates together (20 x 500): about 3,000 tokens
MAX_QUESTION_CHARS = 1000
RERANK_TIMEOUT = 30.0  # seconds
RERANK_MAX_TOKENS = 200  # twenty "[nn] > " and a margin

_BRACKETED = re.compile(r"\[\s*(\d{1,3})\s*\]")
_NUMBER = re.compile(r"(?<!\d)(\d{1,3})(?!\d)")


def load_prompt(language: str) -> str:
    return prompts.load_prompt("rerank", language)


_flat = prompts.one_line


def candidate_text(passage: Any, limit: int = PASSAGE_CHARS) -> str:
    """What the model reads of a candidate: title, section and text, flattened and cut."""
    head = " / ".join(part for part in (getattr(passage, "title", ""), getattr(passage, "section", "")) if part)
    return _flat(f"{head} — {passage.text}" if head else str(passage.text), limit)


def messages_for(question: str, passages: Sequence[Any], language: str) -> list[dict[str, str]]:
    """The rerank's messages: its rules, then the numbered candidates (fenced, defused) and the question."""
    language = language if language in ("fr", "en") else "fr"
    tag = TAGS[language]
    each = max(100, min(PASSAGE_CHARS, MAX_INPUT_CHARS // max(1, len(passages))))
    blocks = [f'<{tag} n="{i}">\n{_defuse(candidate_text(p, each), tag)}\n</{tag}>'
              for i, p in enumerate(passages, start=1)]
    with in_language(language):
        user = t("prompt.rerank.ask", extracts="\n\n".join(blocks), n=len(passages),
                 question=_flat(question, MAX_QUESTION_CHARS))
    return [{"role": "system", "content": load_prompt(language)}, {"role": "user", "content": user}]


def is_rerank_request(messages: Sequence[dict[str, Any]]) -> bool:
    """True for the messages of messages_for (what a test's chat server tells apart)."""
    system = str(messages[0].get("content") or "") if messages else ""
    return system in (load_prompt("fr"), load_prompt("en"))


def parse_ranking(reply: str, count: int) -> list[int]:
    """The 0-based indices the reply ranks, in its order, each once, only those below `count`."""
    reply = prompts.without_thoughts(reply)
    found = _BRACKETED.findall(reply) or _NUMBER.findall(reply)
    order: list[int] = []
    for raw in found:
        index = int(raw) - 1
        if 0 <= index < count and index not in order:
            order.append(index)
    return order


class LLMReranker:
    """The chat model `llm` (rag.servers.chat.LLMClient) ordering the candidates listwise."""

    def __init__(self, llm: Any, timeout: float = RERANK_TIMEOUT) -> None:
        self.llm = llm
        self.timeout = timeout

    def __repr__(self) -> str:
        return "LLMReranker()"

    @property
    def shown_url(self) -> str:
        """The chat server's address, as messages show it (what a results file records)."""
        return str(getattr(self.llm, "shown_url", "") or "")

    def order(self, question: str, passages: Sequence[Any], needed: int) -> list[int]:
        """Every index of `passages`, in the model's order (those it did not name after, in the
        search's). Raises LLMError when the call fails or the reply ranks fewer than `needed`."""
        messages = messages_for(question, passages, detect_language(question))
        reply = chat_backoff.chat(self.llm, messages, max_tokens=RERANK_MAX_TOKENS, timeout=self.timeout,
                                  switch="RAG_LLM_RERANK=0")
        ranked = parse_ranking(reply, len(passages))
        if len(ranked) < min(needed, len(passages)):
            raise LLMError(t("lever.rerank_unusable", n=len(ranked), needed=min(needed, len(passages)),
                             text=_flat(reply, 120)))
        return ranked + [i for i in range(len(passages)) if i not in ranked]

    def rerank(self, question: str, passages: list[Any], needed: int) -> tuple[list[Any], str | None]:
        """The first RERANK_CANDIDATES passages in the model's order (any others after them), or
        all in the search's order with a note saying why not."""
        head, tail = passages[:RERANK_CANDIDATES], passages[RERANK_CANDIDATES:]
        if len(head) < 2:
            return passages, None
        try:
            order = self.order(question, head, needed)
        except LLMError as exc:
            return passages, t("ask.llm_rerank_failed", error=exc)
        return [head[i] for i in order] + tail, None


def from_settings(settings: Any, llm: Any) -> LLMReranker | None:
    return LLMReranker(llm) if getattr(settings, "llm_rerank", False) else None
