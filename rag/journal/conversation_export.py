"""A conversation as a Markdown document a reader can keep or send: each question, the answer as
shown, and the sources it cites (title, section, link) taken from the journal, never from the model.

The answer's text is the model's: it is written as a quoted block, and the titles and links of the
sources are escaped, so that nothing in them becomes a heading or a link the reader did not see."""

from __future__ import annotations

import re
from typing import Sequence

from rag.i18n import t
from rag.journal.records import Entry

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def _escaped(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join((text or "").split()))


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in (text or "").strip().splitlines())


def _cited(entry: Entry) -> list[dict]:
    """The passages the answer cites, by their number, once each."""
    by_number = {p.get("n"): p for p in entry.passages}
    return [by_number[n] for n in dict.fromkeys(entry.citations) if n in by_number]


def _source_line(passage: dict) -> str:
    where = _escaped(passage.get("title") or passage.get("url") or "")
    if passage.get("section"):
        where += f" — {_escaped(passage['section'])}"
    url = passage.get("url") or ""
    link = f" <{url}>" if url.startswith(("http://", "https://")) and not re.search(r"[\s<>]", url) else ""
    return f"- [{passage.get('n')}] {where}{link}"


def conversation_markdown(title: str, entries: Sequence[Entry]) -> str:
    """The turns of a conversation (as shown: rag replay order) in Markdown, in the current language."""
    lines = [f"# {_escaped(title) or t('export.untitled')}", ""]
    turn = 0
    for entry in entries:
        if entry.small_talk:
            continue
        turn += 1
        lines += [f"## {turn}. {_escaped(entry.question)}", ""]
        if entry.answer.strip():
            lines += [_quoted(entry.answer), ""]
        else:
            lines += [f"*{t('export.refused' if entry.refused else 'export.no_answer')}*", ""]
        sources = _cited(entry)
        if sources:
            lines += [f"**{t('export.sources')}**", "", *(_source_line(p) for p in sources), ""]
    return "\n".join(lines).rstrip() + "\n"
