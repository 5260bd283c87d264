"""`lead`: a chunk's context from its article alone, with no model.

The context is the chunk's place in the article (title and heading path) and the article's lead
paragraph, the prose that says what the whole article is about: a chunk from the middle of a
long section then still says which article and which subject it belongs to.
"""

from __future__ import annotations

from rag.chunking.base import Chunk
from rag.markdown_structure import blank_code, heading

LEAD_MAX_CHARS = 300
_SCAN_CHARS = 20_000  # the lead is near the top: a 5 MB document is not read to the end
_MIN_LEAD_CHARS = 40  # shorter blocks are captions, bylines or "Note:" lines, not a lead
_NOT_PROSE = ("#", "```", "~~~", "|", "<", "![", "---", "***", "* * *", "[!")


def lead_paragraph(markdown: str) -> tuple[int, str]:
    """(offset, text) of the article's first prose paragraph, shortened to LEAD_MAX_CHARS at a
    sentence or word end; (-1, "") when it has none."""
    offset = 0
    # Fenced code turned into blanks (offsets kept), by the rule every scan shares: a comment in
    # a code block, blank lines around it, is never taken for the author's lead.
    for block in blank_code(markdown[:_SCAN_CHARS]).split("\n\n"):
        start, offset = offset, offset + len(block) + 2
        # A paragraph ends where a heading starts, blank line or not.
        lines = block.split("\n")
        block = "\n".join(lines[:next((i for i, line in enumerate(lines) if i and heading(line)), len(lines))])
        text = block.strip()
        if not text or text.startswith(_NOT_PROSE) or len(text) < _MIN_LEAD_CHARS:
            continue
        if text.startswith(">"):  # an "applies to" banner or a quote: not the author's lead
            continue
        if all(line.lstrip().startswith(("-", "*", "+")) or line.lstrip()[:2].rstrip(".").isdigit()
               for line in text.splitlines()):
            continue  # a list
        return start + (len(block) - len(block.lstrip())), shorten(" ".join(text.split()))
    return -1, ""


def shorten(text: str, limit: int = LEAD_MAX_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    sentence = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    if sentence >= limit // 2:
        return cut[: sentence + 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > 0 else cut).rstrip(",;:") + "…"


def heading_trail(title: str, chunk: Chunk) -> str:
    """"Article > Section > Subsection", without the title repeated as a heading."""
    path = [h for h in chunk.heading_path if h]
    if path and path[0] == title:
        path = path[1:]
    return " > ".join([title, *path] if title else path)


def lead_context(title: str, markdown: str, chunk: Chunk, lead: tuple[int, str] | None = None) -> str:
    """The heading trail, then the lead paragraph unless the chunk already holds it."""
    offset, text = lead if lead is not None else lead_paragraph(markdown)
    lines = [heading_trail(title, chunk)]
    if text and not chunk.start <= offset < chunk.end:
        lines.append(text)
    return "\n".join(line for line in lines if line)
