"""`llm` and `questions`: a chunk's context written by the chat model (LM Studio).

`llm` asks for one or two sentences that situate the chunk in its article (Anthropic's
contextual retrieval); `questions` asks for the questions the chunk answers and its keywords
(the variant Etalab measured on service-public.fr). The article goes first in the prompt and the
chunk last, so a server that reuses the prompt's common prefix (LM Studio does) reads each
article once for all its chunks.
"""

from __future__ import annotations

import time
from importlib import resources
from dataclasses import dataclass
from typing import Any

from rag.i18n import language as in_language, t
from rag.chunking.base import Chunk
from rag.documents import Document
from rag.enrich.cache import ContextCache, cache_key
from rag.errors import RagError
from rag.redact import strip_userinfo
from rag.servers.chat import ContextOverflow
from rag.i18n.detect import detect_language

PROMPT_VERSION = "1"
MAX_TOKENS = {"llm": 120, "questions": 220}
MAX_CONTEXT_CHARS = {"llm": 600, "questions": 1000}
# Without a known context length, the article is cut to this many characters around the chunk.
DEFAULT_ARTICLE_CHARS = 8000
_CHARS_PER_TOKEN = 3  # pessimistic, as in the answer's budget: French and commands tokenize densely
_PROMPT_OVERHEAD_TOKENS = 400

def instructions(mode: str, language: str) -> str:
    """The system prompt of `mode` in `language`: rag/enrich/prompts/<mode>_<language>.txt."""
    return resources.files("rag.enrich").joinpath("prompts", f"{mode}_{language}.txt").read_text(encoding="utf-8").strip()


class EnrichmentError(RagError):
    """The chat model could not write a chunk's context (the document is reported as failed)."""


@dataclass
class Generated:
    context: str
    cached: bool
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0


def article_excerpt(markdown: str, chunk: Chunk, budget_chars: int) -> str:
    """The article, or when it is too long its beginning and the part around the chunk."""
    if len(markdown) <= budget_chars:
        return markdown
    head = markdown[: budget_chars // 3]
    around = budget_chars - len(head)
    start = max(len(head), chunk.start - around // 2)
    end = min(len(markdown), start + around)
    gap = "\n\n[…]\n\n" if start > len(head) else ""
    return head + gap + markdown[start:end]


def clean_context(text: str, mode: str) -> str:
    """The model's answer as context: no label it may have added, no blank lines, bounded."""
    lines = [line.strip() for line in (text or "").strip().splitlines() if line.strip()]
    if lines and lines[0].rstrip(":").lower() in ("contexte", "context", "questions"):
        lines = lines[1:]
    context = "\n".join(lines)
    limit = MAX_CONTEXT_CHARS[mode]
    return context if len(context) <= limit else context[:limit].rsplit(" ", 1)[0] + "…"


def build_messages(mode: str, language: str, title: str, article: str, chunk: Chunk) -> list[dict[str, str]]:
    with in_language(language):
        article_label, extract_label = t("prompt.enrich.article"), t("prompt.enrich.extract")
        request = t("prompt.enrich.situate") if mode == "llm" else t("prompt.enrich.ask")
    user = (
        f"<{article_label.lower()} title=\"{title}\">\n{article}\n</{article_label.lower()}>\n\n"
        f"<{extract_label.lower()}>\n{chunk.text}\n</{extract_label.lower()}>\n\n"
        + request
    )
    return [{"role": "system", "content": instructions(mode, language)}, {"role": "user", "content": user}]


class ModelContexts:
    """Contexts from the chat model `llm` (an LLMClient), read from and written to `cache`."""

    def __init__(self, mode: str, llm: Any, model: str, context_length: int | None, cache: ContextCache,
                 language: str | None = None) -> None:
        self.mode = mode
        self.llm = llm
        self.owns_llm = False  # set by make_enricher when it opened the client itself
        self.model = model
        # The server's address without its user and password: who wrote a context, beside which model.
        self.server = strip_userinfo(str(getattr(llm, "base_url", "") or ""))
        self.cache = cache
        self.language = language
        if context_length:
            tokens = context_length - MAX_TOKENS[mode] - _PROMPT_OVERHEAD_TOKENS
            self.article_chars = max(1000, tokens * _CHARS_PER_TOKEN)
        else:
            self.article_chars = DEFAULT_ARTICLE_CHARS

    def language_of(self, doc: Document) -> str:
        """The prompt's language: the one asked for, else the article's (French when unsure)."""
        return self.language or detect_language(f"{doc.title}\n{doc.markdown[:1000]}")

    def key(self, doc: Document, document_hash: str, chunk: Chunk) -> str:
        return cache_key(self.server, self.mode, self.model, PROMPT_VERSION, self.language_of(doc), document_hash, chunk.text)

    def _ask(self, messages: list[dict[str, str]]) -> str:
        return self.llm.chat(messages, model=self.model, max_tokens=MAX_TOKENS[self.mode], temperature=0.0)

    def context(self, doc: Document, document_hash: str, chunk: Chunk) -> Generated:
        key = self.key(doc, document_hash, chunk)
        hit = self.cache.get(key)
        if hit is not None:
            return Generated(hit["context"], cached=True)
        language = self.language_of(doc)
        messages = build_messages(self.mode, language, doc.title,
                                  article_excerpt(doc.markdown, chunk, self.article_chars), chunk)
        began = time.monotonic()
        try:
            try:
                answer = self._ask(messages)
            except ContextOverflow:
                # The server's window is smaller than it said (or than guessed): a shorter excerpt.
                article = article_excerpt(doc.markdown, chunk, max(1000, self.article_chars // 4))
                answer = self._ask(build_messages(self.mode, language, doc.title, article, chunk))
        except RagError as exc:
            raise EnrichmentError(t("enrich.chunk_failed", index=chunk.index, error=exc)) from exc
        seconds = time.monotonic() - began
        usage = getattr(self.llm, "last_usage", None) or {}
        generated = Generated(
            clean_context(answer, self.mode), cached=False,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            seconds=seconds,
        )
        self.cache.put(key, {"context": generated.context, "model": self.model, "mode": self.mode,
                             "prompt_tokens": generated.prompt_tokens,
                             "completion_tokens": generated.completion_tokens,
                             "seconds": round(seconds, 3)})
        return generated
