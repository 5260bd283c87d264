"""What is said to the chat model, and in which language.

The system prompt comes from `rag/answer/prompts/{fr,en}.txt`, or from the file named by RAG_PROMPT_FILE
(or the `prompt_file` argument). In such a file `{refusal}` is replaced by the exact refusal
sentence of the question's language, and a `{lang}` in the file's path is replaced by `fr` or `en`
so one can keep one file per language. The user message holds the numbered, fenced extracts and
the question; its layout stays in code so the citation checks always match it.
"""

from __future__ import annotations

import os
import re
import unicodedata
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from rag.i18n import LANGUAGES, language as in_language, t
from rag.errors import ConfigError
from rag.i18n.detect import detect_language  # noqa: F401 - where callers have always found it

# Tag that fences each extract: a word of the protocol with the model, not a sentence (the system
# prompt names it, _FENCE_TAG below defuses it in articles).
TAGS = {"fr": "extrait", "en": "extract"}
SEPARATOR = "---"


def refusal_sentence(language: str) -> str:
    """The exact sentence the model writes when the extracts do not hold the answer, in `language`
    (French for a language the product does not speak)."""
    with in_language(language):
        return t("prompt.refusal")


def _normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    text = re.sub(r"[*_`\"«»“”]", " ", text)
    return re.sub(r"\s+", " ", text).strip().strip(" .!").casefold()


def contains_refusal(answer: str) -> bool:
    """True when the answer contains one of the exact refusal sentences (any language)."""
    normalized = _normalize(answer)
    return any(_normalize(refusal_sentence(lang)) in normalized for lang in LANGUAGES)


def load_system_prompt(language: str, prompt_file: str | os.PathLike[str] | None = None) -> str:
    """The system prompt for `language`, from the override file if one is set."""
    path = prompt_file  # RAG_PROMPT_FILE, through Settings.prompt_file (the answer engine passes it)
    if path:
        resolved = Path(str(path).replace("{lang}", language)).expanduser()
        try:
            template = resolved.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise ConfigError(t("prompt.unreadable", path=resolved, error=exc.strerror or exc)) from exc
    else:
        template = resources.files("rag.answer").joinpath("prompts", f"{language}.txt").read_text(encoding="utf-8")
    return template.replace("{refusal}", refusal_sentence(language)).strip()


def load_prompt(stem: str, language: str) -> str:
    """The rules of a side call to the chat model, `prompts/{stem}_{fr,en}.txt` (French for a
    language the product does not speak): the follow-up's rewrite, the search's levers."""
    name = f"{stem}_{language if language in ('fr', 'en') else 'fr'}.txt"
    return resources.files("rag.answer").joinpath("prompts", name).read_text(encoding="utf-8").strip()


def one_line(text: str, limit: int) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis: what a prompt quotes."""
    text = re.sub(r"\s+", " ", text or "").strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def without_thoughts(reply: str) -> str:
    """A side call's reply without a reasoning model's thoughts (what precedes the last </think>);
    empty when the reply was cut while it was still thinking."""
    end = reply.rfind("</think>")
    if end >= 0:
        return reply[end + len("</think>"):]
    return "" if reply.lstrip().startswith("<think>") else reply


# The fence's tag in either language, however spaced: "</extrait>", "< /extrait>", "</ extract>".
# One class of blanks and slashes after "<", read once (no two runs overlap): linear.
_FENCE_TAG = re.compile(r"<([\s/]*)(extrait|extract)\b", re.IGNORECASE)


def _defuse(text: str, tag: str) -> str:
    # An article that contains a fence tag itself must not be able to close its extract early.
    return _FENCE_TAG.sub(lambda m: f"‹{'/' if '/' in m.group(1) else ''}{m.group(2)}", text)


def format_extract(passage: Any, language: str) -> str:
    tag = TAGS[language]
    heading = f"[{passage.n}] {passage.title}"
    if getattr(passage, "section", ""):
        heading += f" / {passage.section}"
    body = _defuse(str(passage.text).strip(), tag)
    return f'<{tag} n="{passage.n}">\n{_defuse(heading, tag)}\n{body}\n</{tag}>'


def build_context(passages: Sequence[Any], language: str) -> str:
    return f"\n\n{SEPARATOR}\n\n".join(format_extract(p, language) for p in passages)


def build_messages(question: str, passages: Sequence[Any], language: str,
                   system_prompt: str | None = None) -> list[dict[str, str]]:
    """The chat messages: system rules, then the fenced extracts and the question."""
    system = system_prompt if system_prompt is not None else load_system_prompt(language)
    with in_language(language):
        extracts_label, question_label = t("prompt.extracts"), t("prompt.question")
    user = f"{extracts_label}\n\n{build_context(passages, language)}\n\n{question_label} {question.strip()}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
