"""What the ask page shows around an answer, as safe Markdown strings (pure: no streamlit here).

Everything that comes from a document or from the model goes through ui.present.safe_markdown: links
only for http(s) URLs, raw HTML never rendered. Relative urls (a folder's file paths) are text.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

from rag.markdown_structure import lines_in_code
from ui.present.safe_markdown import escape_link_text, link_markdown, safe_link, sanitize_markdown

_STREAM_SPECIAL = re.compile(r"([\\\[\]])")
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]++(.+)$")  # trailing spaces and hashes trimmed after


def stream_safe(piece: str) -> str:
    """A piece of a streamed answer made inert: no link or image can form across pieces.

    Escaping backslashes and brackets piece by piece is exact (each character stays literal
    whatever comes next), so a link split over two pieces can never appear. The finished answer
    is then shown through sanitize_markdown, which keeps safe links and code blocks intact.
    """
    return _STREAM_SPECIAL.sub(r"\\\1", piece)


def stream_safe_pieces(pieces: Iterable[str]) -> Iterator[str]:
    for piece in pieces:
        yield stream_safe(piece)


def answer_markdown(result: Any) -> str:
    """The finished answer (notes included), safe; images become their alt text."""
    return sanitize_markdown(getattr(result, "answer", None) or "", images=False)


def passage_label(passage: Any) -> str:
    label = str(getattr(passage, "title", "") or getattr(passage, "url", "") or "untitled")
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
    """The heading line of one retrieved passage: number, score, verdict, source."""
    verdict = ":green-badge[passed]" if accepted else ":gray-badge[below the threshold]"
    score = f"{passage.score:.3f}"
    if threshold is not None:
        score += f" ({'≥' if accepted else '<'} {threshold:.3f})"
    extra = ""
    rrf = getattr(passage, "rrf_score", None)
    if rrf is not None:
        extra = f", RRF {rrf:.3f}"
    return f"**[{passage.n}]** {verdict} score {score}{extra} — {_reference(passage)}"


def demote_headings(markdown: str) -> str:
    """Headings become bold lines (outside code blocks): a passage is an excerpt, not a page."""
    out: list[str] = []
    for line, fence in lines_in_code(markdown):
        if fence is None:
            heading = _HEADING.match(line)
            title = heading.group(1).rstrip(" \t#") if heading else ""
            if title:
                line = f"**{title}**"
        out.append(line)
    return "\n".join(out)


def passage_text_markdown(passage: Any) -> str:
    return sanitize_markdown(demote_headings(getattr(passage, "text", "") or ""), images=False)


def refusal_details(result: Any) -> str:
    """Why the question was refused, with the best score and the threshold."""
    best = getattr(result, "best_score", None)
    threshold = getattr(result, "threshold", None)
    source = getattr(result, "threshold_source", None) or "setting"
    if getattr(result, "refusal_reason", None) == "the model found no answer in the extracts":
        return "The chat model read the passages and found no answer in them."
    if best is None:
        return "No passage was found in this collection (is it empty, or hidden from your groups?)."
    return (
        f"Best passage score {best:.3f} is below the threshold {threshold:.3f} ({source}): "
        "no passage was close enough to the question, so the chat model was not asked."
    )


def no_answer_reason(result: Any) -> str | None:
    """Why no answer was written although passages were found (LM Studio down, context...)."""
    error = getattr(result, "llm_error", None)
    if not error:
        return None
    return f"No answer was written: {error} The passages found are listed below."


def answer_flags(result: Any) -> list[str]:
    """Warnings about the answer a reader should see before trusting it."""
    flags: list[str] = []
    invalid = list(getattr(result, "invalid_citations", None) or [])
    if invalid:
        numbers = ", ".join(f"[{n}]" for n in invalid)
        flags.append(
            f"The answer cites {numbers}, which matches no passage given to the model: "
            "that part may be invented. Check it against the passages."
        )
    if getattr(result, "uncited", False):
        flags.append(
            "The answer cites no passage: nothing ties it to the articles. Check it against the passages."
        )
    dropped = list(getattr(result, "dropped_passages", None) or [])
    if dropped and not getattr(result, "llm_error", None):
        numbers = ", ".join(f"[{n}]" for n in dropped)
        context = getattr(result, "context_length", None)
        flags.append(
            f"Passages {numbers} were left out to fit the model's context window"
            + (f" ({context} tokens)" if context else "")
            + ": load the model with a larger context, or lower top k."
        )
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
