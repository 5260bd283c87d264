"""The question rewritten by the chat model for the dense search (RAG_QUERY_REWRITE, off by default).

A reader who describes what they want ("comment vider le cache DNS de mon poste ?") without the
command's name (`ipconfig /flushdns`) asks in other words than the article that answers. Two ways
to bring the question's vector closer to the article's:

- `rewrite`: the question in the articles' vocabulary (prompts/query_rewrite_{fr,en}.txt), one
  line of at most MAX_QUERY_CHARS, embedded as a query;
- `hyde`: a short hypothetical passage that would answer it (HyDE, Gao et al. 2022;
  prompts/hyde_{fr,en}.txt), at most MAX_PASSAGE_CHARS, embedded as a document, as the articles were.

What the model wrote steers the dense search only: the vector searched is the mean of the
question's and the rewrite's (normalised), as HyDE averages the question's vector with its
hypothetical documents', so that a wrong rewrite pulls the search aside without replacing the
question. BM25 keeps the reader's own words (a made-up name in a hypothetical passage must not
match a term), and the gate judges the reader's question: `Passage.score` stays the cosine to the
question as asked, not to what the model imagined (its guess is no evidence that the base holds
the answer).

One short, non-streamed call (rag.answer.chat_backoff.chat) of at most REWRITE_TIMEOUT seconds; any
failure (no server, a timeout, a reply that is not what was asked) leaves the question's own
vector and a note saying why.
"""

from __future__ import annotations

import math
import re
from typing import Any, Sequence

from rag.answer import chat_backoff, prompts
from rag.errors import LLMError
from rag.i18n import language as in_language, t
from rag.i18n.detect import detect_language

OFF, REWRITE, HYDE = "off", "rewrite", "hyde"
MODES = (OFF, REWRITE, HYDE)  # rag.config.QUERY_REWRITES
MAX_INPUT_CHARS = 1000  # of the question given to the model (a pasted log is cut, not sent whole)
MAX_QUERY_CHARS = 400  # a longer rewrite is not one question
MAX_PASSAGE_CHARS = 1500  # of a hypothetical passage: five sentences, not an article
REWRITE_TIMEOUT = 15.0  # seconds: the search waits for it, and the answer after the search
MAX_TOKENS = {REWRITE: 120, HYDE: 300}
_PROMPTS = {REWRITE: "query_rewrite", HYDE: "hyde"}


def load_prompt(mode: str, language: str) -> str:
    return prompts.load_prompt(_PROMPTS[mode], language)


def _one_line(text: str, limit: int) -> str:
    text = re.sub(r"\s+", " ", text or "").strip()
    return text if len(text) <= limit else text[:limit].rstrip()


def messages_for(question: str, mode: str, language: str) -> list[dict[str, str]]:
    """The chat messages of `mode`'s call: its rules, then the question (cut to MAX_INPUT_CHARS)."""
    with in_language(language if language in ("fr", "en") else "fr"):
        asked = _one_line(question, MAX_INPUT_CHARS)
        user = t("prompt.hyde.ask", question=asked) if mode == HYDE else t("prompt.query_rewrite.ask", question=asked)
    return [{"role": "system", "content": load_prompt(mode, language)}, {"role": "user", "content": user}]


def request_mode(messages: Sequence[dict[str, Any]]) -> str | None:
    """REWRITE or HYDE for the messages of messages_for, else None (what a test's server tells apart)."""
    system = str(messages[0].get("content") or "") if messages else ""
    for mode in (REWRITE, HYDE):
        if system in (load_prompt(mode, "fr"), load_prompt(mode, "en")):
            return mode
    return None


_LABEL = re.compile(r"^\s*(?:question(?: reformulée)?|rewritten question|passage|réponse|answer)\s*:\s*",
                    re.IGNORECASE)


def clean(text: str, mode: str) -> str | None:
    """What the model wrote, as `mode` asked for it, or None when it is not that."""
    text = prompts.without_thoughts(text or "").strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    if mode == REWRITE:
        if len(lines) > 3:  # an explanation or an answer, not one question
            return None
        line = _LABEL.sub("", lines[0]).strip().strip('"«»“”').strip()
        return line if line and len(line) <= MAX_QUERY_CHARS else None
    passage = _LABEL.sub("", " ".join(lines)).strip().strip('"«»“”').strip()
    return _one_line(passage, MAX_PASSAGE_CHARS) or None


def mean_direction(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """The unit vector halfway between `a` and `b` (each normalised first); `a` when `b` is zero
    or of another size."""
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(x * x for x in b))
    if not na or not nb or len(a) != len(b):
        return list(a)
    summed = [x / na + y / nb for x, y in zip(a, b)]
    norm = math.sqrt(sum(x * x for x in summed)) or 1.0
    return [x / norm for x in summed]


class QueryRewriter:
    """`mode` (REWRITE or HYDE) by the chat model `llm` (rag.servers.chat.LLMClient)."""

    def __init__(self, llm: Any, mode: str, timeout: float = REWRITE_TIMEOUT) -> None:
        if mode not in (REWRITE, HYDE):
            raise ValueError(mode)
        self.llm = llm
        self.mode = mode
        self.timeout = timeout
        self.last: str | None = None  # what the model wrote for the last question (None: nothing used)

    def __repr__(self) -> str:
        return f"QueryRewriter({self.mode!r})"

    def written(self, question: str, language: str | None = None) -> str:
        """The model's rewrite or hypothetical passage for `question`. Raises LLMError."""
        language = language or detect_language(question)
        messages = messages_for(question, self.mode, language)
        text = chat_backoff.chat(self.llm, messages, max_tokens=MAX_TOKENS[self.mode], timeout=self.timeout,
                                switch="RAG_QUERY_REWRITE=off")
        cleaned = clean(text, self.mode)
        if cleaned is None:
            raise LLMError(t("lever.rewrite_unusable", text=_one_line(text, 120)))
        return cleaned

    def steer(self, question: str, vector: Sequence[float], embedder: Any, notes: list[str]) -> list[float]:
        """The vector to search for `question`: halfway between its own (`vector`) and the model's
        rewrite's; its own when the model could not help (a note in `notes` says why)."""
        self.last = None
        try:
            written = self.written(question)
        except LLMError as exc:
            notes.append(t("ask.rewrite_failed", error=exc))
            return list(vector)
        if self.mode == HYDE:
            other = embedder.embed_documents([written])[0]
        else:
            other = embedder.embed_query(written)
        self.last = written
        return mean_direction(vector, other)


def from_settings(settings: Any, llm: Any) -> QueryRewriter | None:
    mode = getattr(settings, "query_rewrite", OFF) or OFF
    return QueryRewriter(llm, mode) if mode != OFF else None
