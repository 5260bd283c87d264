"""What the ask page shows around an answer, as safe Markdown strings (pure: no streamlit here).

Everything that comes from a document or from the model goes through ui.present.safe_markdown: links
only for http(s) URLs, raw HTML never rendered. Relative urls (a folder's file paths) are text.
"""

from __future__ import annotations

from typing import Any, Iterable

from rag.answer.prompts import refusal_sentence
from ui.i18n import current, t
from rag.markdown_structure import heading, lines_in_code
from ui.present.safe_markdown import code_span, escape_link_text, link_markdown, safe_link, sanitize_markdown


def answer_markdown(result: Any) -> str:
    """The finished answer (notes included), safe; images become their alt text and no web
    address the model wrote is a link (they show as code).

    A refusal is shown in the reader's language: it is one fixed sentence (rag.answer.prompts),
    so no explanation in one language sits under a refusal in the other.
    """
    if getattr(result, "refused", False):
        return refusal_sentence(current())
    return answer_text_markdown(getattr(result, "answer", None) or "")


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


def sources_markdown(sources: Iterable[Any]) -> str:
    return "\n".join(f"- {source_markdown(p)}" for p in sources)


def passage_markdown(passage: Any, accepted: bool, threshold: float | None) -> str:
    """The heading line of one retrieved passage: number, verdict, score, source."""
    verdict = f":green-badge[{t('ask.passed')}]" if accepted else f":gray-badge[{t('ask.below')}]"
    score = t("ask.score", score=f"{passage.score:.2f}")
    return f"**[{passage.n}]** {verdict} {score} — {_reference(passage)}"


def order_note(result: Any) -> str | None:
    """A line saying why the shown scores are not in decreasing order (hybrid ranking), if they are not."""
    scores = [float(p.score) for p in getattr(result, "passages", None) or []]
    if all(a >= b for a, b in zip(scores, scores[1:])):
        return None
    return t("ask.order_note")


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


def refusal_details(result: Any) -> str:
    """Why the question was refused, in the reader's language."""
    best = getattr(result, "best_score", None)
    gate = getattr(result, "gate", None) or {}
    signals = gate.get("signals") or {}
    words = signals.get("unknown_names") if gate.get("reason") == "unknown_names" else signals.get("missing")
    if gate.get("refused") and gate.get("reason") in ("unknown_names", "low_coverage") and words:
        # Refused by the question's words (rag.answer.gate): name the ones no article holds.
        return t("ask.refused_words", words=", ".join(words))
    if getattr(result, "accepted", None) and not gate.get("refused"):  # the model itself refused
        return t("ask.refused_model")
    if best is None:
        return t("ask.refused_empty")
    return t("ask.refused_gate", best=f"{best:.2f}", threshold=f"{getattr(result, 'threshold', 0) or 0:.2f}")


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
    if getattr(result, "uncited", False):
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
