"""What the ask page shows around an answer, as safe Markdown strings (pure: no streamlit here).

Everything that comes from a document or from the model goes through ui.present.safe_markdown: links
only for http(s) URLs, raw HTML never rendered. Relative urls (a folder's file paths) are text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, is_dataclass, replace
from typing import Any

from rag.answer import ordering, refusal as refusals
from rag.answer.cited_spans import cited_span
from rag.answer.citations import CITATION, citation_numbers
from rag.answer.prompts import refusal_sentence
from rag.i18n import current
from rag.i18n.numbers import score_text, threshold_text
from ui.i18n import t
from rag.markdown_structure import heading, lines_in_code
from ui.present.safe_markdown import (code_span, escape_link_text, link_markdown, outside_code, safe_link,
                                      sanitize_markdown)

_NOT_ID = re.compile(r"[^a-z0-9]+")


def answer_markdown(result: Any, turn: int | None = None) -> str:
    """The finished answer (notes included), safe; images become their alt text and no web
    address the model wrote is a link (they show as code).

    With `turn` (its place in the conversation), each valid citation `[n]` becomes an in-page
    link to that turn's source [n] (citation_anchor); nothing else in it is a link.

    A refusal is shown in the reader's language: it is one fixed sentence (rag.answer.prompts),
    so no explanation in one language sits under a refusal in the other.
    """
    if getattr(result, "refused", False):
        return refusal_sentence(current())
    text = answer_text_markdown(getattr(result, "answer", None) or "")
    if turn is None:
        return text
    collection = getattr(result, "collection", None) or ""
    sources = getattr(result, "sources", None) or []
    anchors = {p.n: citation_anchor(collection, turn, p.n) for p in sources}
    return link_citations(text, anchors)


def citation_anchor(collection: str, turn: int, n: int) -> str:
    """The page id of source [n] in one turn of the conversation: a different one for each turn
    and collection, made of [a-z0-9-] only (it goes into a URL fragment and an element id)."""
    slug = _NOT_ID.sub("-", collection.lower()).strip("-")[:40]
    return f"cite-{slug}-t{turn}-{n}" if slug else f"cite-t{turn}-{n}"


_SPACES = re.compile(r"\s+")


def _link_title(text: str) -> str:
    # A Markdown link title in double quotes: no quote may end it early, no backslash may escape
    # its closing quote; one line.
    return _SPACES.sub(" ", text).replace("\\", "\\\\").replace('"', "'").strip()


def _citation_link(n: int, anchor: str, preview: str | None = None) -> str:
    # The whole "[n]" is the link (a bigger target than the digit) to its source; what it stands
    # for is in the source and in the popover of [n] under the answer (ask_view), for a keyboard or
    # a finger as for a mouse.
    title = _link_title(preview or t("ask.cite_title", n=n))
    return f'[\\[{n}\\]](#{anchor} "{title}")'


def link_citations(markdown: str, anchors: dict[int, str], previews: dict[int, str] | None = None) -> str:
    """Sanitised answer Markdown with each cited number that has an anchor made an in-page link to it.

    Only the numbers of `anchors` become links, and only to their `#anchor`: a number that names
    no source stays text. `[1, 3]` becomes `[1][3]`, one link each. Code (fenced or inline) is
    left as written, and so is an escaped bracket (`\\[1]`).
    """
    def link_group(match: re.Match[str], prose: str) -> str:
        numbers = citation_numbers(match.group(1))
        if (match.start() and prose[match.start() - 1] == "\\") or not any(n in anchors for n in numbers):
            return match.group(0)
        return "".join(_citation_link(n, anchors[n], (previews or {}).get(n)) if n in anchors else f"\\[{n}\\]"
                       for n in numbers)

    def link_prose(prose: str) -> str:
        return CITATION.sub(lambda match: link_group(match, prose), prose)

    return outside_code(markdown, link_prose) if anchors else markdown


def answer_text_markdown(text: str) -> str:
    """A model's text, finished or still streaming, as Markdown with no link and no image."""
    return sanitize_markdown(text, images=False, links=False)


def passage_label(passage: Any) -> str:
    label = str(getattr(passage, "title", "") or getattr(passage, "url", "") or t("ask.untitled"))
    section = getattr(passage, "section", "")
    return f"{label} / {section}" if section else label


def _reference(passage: Any) -> str:
    url = getattr(passage, "url", "") or ""
    text = link_markdown(passage_label(passage), url)
    if url and safe_link(url) is None:
        text += f" — {escape_link_text(url)}"
    return text


def source_markdown(passage: Any) -> str:
    """`[n] title / section`, a link when the url is http(s); a relative url follows as text."""
    return f"**[{passage.n}]** {_reference(passage)}"


def article_link(passage: Any) -> str:
    """A link to the article itself, for a source whose url is a web address; else ""."""
    safe = safe_link(getattr(passage, "url", "") or "")
    if safe is None:
        return ""
    destination = safe.replace("(", "%28").replace(")", "%29")
    return f' [:material/open_in_new: {t("ask.article")}]({destination} "{_link_title(t("ask.article_title"))}")'


SOURCES_KEY = "answer-sources"  # the key (so the CSS class, st-key-…) of a turn's sources list
# A source's heading is an h3 (the element that takes our anchor) holding small type: at the h3's
# own size and line height (28 px, 1.2) a long title wrapped with 34 px between its 14 px lines.
# Sized as the text it holds, inside the sources list only; the anchor and its id are untouched.
CITED_KEY = "cited-span"  # the key (so the CSS class) of the part of a source its citation rests on
SOURCE_HEADINGS_CSS = (
    f"<style>[class*='st-key-{SOURCES_KEY}-'] h3 {{font-size: 0.875rem; line-height: 1.5; "
    "padding: 0.5rem 0 0.125rem; overflow-wrap: anywhere;}"
    # What a citation rests on, brought forward in its passage (a theme's colours, light or dark).
    f"[class*='st-key-{CITED_KEY}-'] {{background: rgba(255, 189, 69, 0.22); "
    "border-left: 3px solid rgb(255, 189, 69); padding: 0.25rem 0.5rem; border-radius: 0.25rem;}</style>"
)


def cited_key(turn: int, n: int, where: str) -> str:
    return f"{CITED_KEY}-{where}-{turn}-{n}"


def sources_key(turn: int) -> str:
    return f"{SOURCES_KEY}-{turn}"


def source_heading(passage: Any, section: str | None = None) -> str:
    """source_markdown for the heading a citation's link jumps to, in small type: it reads as a
    source line, not as a section title; a web article gets its own link after it. `section`: the
    one the cited text is in, when it is not the passage's own."""
    if section is not None and section != getattr(passage, "section", ""):
        passage = replace(passage, section=section) if is_dataclass(passage) else passage
    return f":small[{source_markdown(passage)}{article_link(passage)}]"


def passage_markdown(passage: Any, accepted: bool, threshold: float | None) -> str:
    """The heading line of one retrieved passage: number, verdict, score, source."""
    verdict = f":green-badge[{t('ask.passed')}]" if accepted else f":gray-badge[{t('ask.below')}]"
    score = t("ask.score", score=score_text(passage.score))
    return f"**[{passage.n}]** {verdict} {score} — {_reference(passage)}"


def order_note(result: Any) -> str | None:
    """A line saying what ordered the passages when the shown scores do not decrease (the hybrid
    ranking, a reranker, the chat model's rewrite or ranking, the distinct articles)."""
    return ordering.order_note(getattr(result, "passages", None) or [], getattr(result, "ordering", None))


def demote_headings(markdown: str) -> str:
    """Headings become bold lines (outside code blocks): a passage is an excerpt, not a page."""
    out: list[str] = []
    for line, fence in lines_in_code(markdown):
        found = heading(line) if fence is None else None
        if found is not None and found.text:
            line = f"**{found.text}**"
        out.append(line)
    return "\n".join(out)


def passage_text_markdown(passage: Any) -> str:
    return sanitize_markdown(demote_headings(getattr(passage, "text", "") or ""), images=False)


@dataclass(frozen=True)
class CitedSource:
    """A source as the reader checks it: the passage exactly as the model received it, in three
    safe Markdown parts, the middle one what the citation rests on (rag.answer.cited_spans; all of
    it in `before` when nothing matched), and the section that middle part is in."""

    before: str
    cited: str
    after: str
    section: str


def cited_source(passage: Any, answer: str) -> CitedSource:
    text = str(getattr(passage, "text", "") or "")
    span = cited_span(answer or "", passage.n, passage)

    def safe(part: str) -> str:
        return sanitize_markdown(demote_headings(part.strip("\n")), images=False) if part.strip() else ""

    if span is None:
        return CitedSource(safe(text), "", "", str(getattr(passage, "section", "") or ""))
    return CitedSource(safe(text[:span.start]), safe(text[span.start:span.end]), safe(text[span.end:]), span.section)


def refusal_details(result: Any) -> str:
    """Why the question was refused, in the reader's language: from the refusal recorded as data
    (rag.answer.refusal), the same on the live page, on a reopened conversation and in the Journal."""
    recorded = getattr(result, "refusal", None)
    if refusals.valid(recorded):
        return refusal_said(recorded)
    best = getattr(result, "best_score", None)
    gate = getattr(result, "gate", None) or {}
    if gate.get("restored") and getattr(result, "refusal_reason", None):
        # A turn written before refusals were recorded as data: its sentence as it was said.
        return str(result.refusal_reason)
    signals = gate.get("signals") or {}
    words = signals.get("subject_words") or signals.get("unknown_names")
    if gate.get("refused") and gate.get("reason") in ("unknown_names", "low_coverage") and words:
        # Refused by the question's words (rag.answer.gate): name the ones no article holds.
        return t("ask.refused_words", words=", ".join(words))
    if getattr(result, "accepted", None) and not gate.get("refused"):  # the model itself refused
        return t("ask.refused_model")
    if best is None:
        return t("ask.refused_empty")
    return t("ask.refused_gate", best=score_text(best), threshold=threshold_text(getattr(result, "threshold", 0) or 0))


def refusal_said(refusal: Any) -> str:
    """A recorded refusal (rag.answer.refusal) as the reader reads it, in the current language."""
    kind = refusal.get("kind")
    if kind == refusals.WORDS:
        return t("ask.refused_words", words=", ".join(refusal.get("words") or []))
    if kind == refusals.EVERYDAY:
        return t("ask.refused_everyday")
    if kind == refusals.SCORE:
        return t("ask.refused_gate", best=score_text(refusal.get("best") or 0.0),
                 threshold=threshold_text(refusal.get("threshold") or 0))
    if kind == refusals.MODEL:
        return t("ask.refused_model")
    return t("ask.refused_empty")


def no_answer_reason(result: Any) -> str | None:
    """Why no answer was written although passages were found (LM Studio down, context...);
    the program's own explanation goes in the details."""
    if not getattr(result, "llm_error", None):
        return None
    return t("ask.no_answer")


def answer_flags(result: Any) -> list[str]:
    """Warnings about the answer a reader should see before trusting it."""
    flags: list[str] = []
    invalid = list(getattr(result, "invalid_citations", None) or [])
    if invalid:
        flags.append(t("ask.flag_invalid", numbers=", ".join(f"[{n}]" for n in invalid)))
    urls = list(getattr(result, "answer_urls", None) or [])
    if urls:
        flags.append(t("ask.flag_urls", urls=", ".join(code_span(u) for u in urls)))
    if getattr(result, "uncited", False) and not invalid:  # "cites [1], which matches none" says it already
        flags.append(t("ask.flag_uncited"))
    dropped = list(getattr(result, "dropped_passages", None) or [])
    if dropped and not getattr(result, "llm_error", None):
        flags.append(t("ask.flag_dropped", numbers=", ".join(f"[{n}]" for n in dropped)))
    for warning in getattr(result, "warnings", None) or []:
        flags.append(str(warning))
    return flags


def passage_rows(result: Any) -> list[dict[str, Any]]:
    """One row a retrieved passage (for the score chart and tables)."""
    accepted = set(getattr(result, "accepted", None) or [])
    cited = set(getattr(result, "cited", None) or [])
    return [
        {
            "n": p.n,
            "score": float(p.score),
            "label": passage_label(p),
            "url": p.url,
            "passed": p.n in accepted,
            "cited": p.n in cited,
        }
        for p in getattr(result, "passages", None) or []
    ]
