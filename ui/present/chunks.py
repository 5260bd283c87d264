"""Chunk boundaries drawn over the document: pure layout, then escaped HTML for the preview page.

Untrusted document text is always passed through html.escape; only our own spans carry markup.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Sequence

from rag.chunking.base import Chunk
from ui.i18n import t

# Readable pastel backgrounds; chunk i uses PALETTE[i % len(PALETTE)].
PALETTE = [
    "#cfe8ff", "#ffe0b3", "#d5f5d0", "#f6d0f0", "#fff3a8",
    "#d9d2ff", "#c8f1ef", "#ffd1d1", "#e6e6e6", "#e3f0c0",
]
OVERLAP_COLOR = "#ffb347"
UNCOVERED_COLOR = "#ffffff"


@dataclass(frozen=True)
class Segment:
    start: int
    end: int
    chunks: tuple[int, ...]  # indexes of the chunks covering this stretch (2+ = overlap)


def segments(text_length: int, chunks: Sequence[Chunk]) -> list[Segment]:
    """Cut [0, text_length) at every chunk boundary; each piece lists the chunks that cover it."""
    cuts = {0, text_length}
    for chunk in chunks:
        cuts.add(max(0, min(chunk.start, text_length)))
        cuts.add(max(0, min(chunk.end, text_length)))
    points = sorted(cuts)
    # Sweep line: chunks are few enough (hundreds) that an active list is cheap.
    starts = sorted(chunks, key=lambda c: c.start)
    result: list[Segment] = []
    active: list[Chunk] = []
    next_start = 0
    for left, right in zip(points, points[1:]):
        while next_start < len(starts) and starts[next_start].start <= left:
            active.append(starts[next_start])
            next_start += 1
        active = [c for c in active if c.end > left]
        covering = tuple(sorted(c.index for c in active if c.start <= left and c.end >= right))
        result.append(Segment(left, right, covering))
    return result


def render_html(markdown: str, chunks: Sequence[Chunk]) -> str:
    """The document with each chunk on its own colour; overlaps striped; boundaries marked."""
    text = markdown
    parts = [
        '<div style="font-family: ui-monospace, monospace; font-size: 0.8rem; '
        'white-space: pre-wrap; line-height: 1.5; border: 1px solid #ddd; padding: 0.5rem; '
        'max-height: 36rem; overflow-y: auto; color: #111;">'
    ]
    # Shown from 1, as the chunk table and Ask's citations [1] number them (the index starts at 0).
    starts = {c.start: c.index + 1 for c in chunks}
    for seg in segments(len(text), chunks):
        body = html.escape(text[seg.start : seg.end])
        marker = ""
        if seg.start in starts:
            marker = (
                f'<sup style="background:#333;color:#fff;border-radius:3px;padding:0 3px;'
                f'font-size:0.65rem;">{starts[seg.start]}</sup>'
            )
        if not seg.chunks:
            style = f"background:{UNCOVERED_COLOR};"
            title = t("chunkview.none")
        elif len(seg.chunks) == 1:
            style = f"background:{PALETTE[seg.chunks[0] % len(PALETTE)]};"
            title = t("chunkview.one", n=seg.chunks[0] + 1)
        else:
            first = PALETTE[seg.chunks[0] % len(PALETTE)]
            style = (
                f"background: repeating-linear-gradient(45deg, {first}, {first} 6px, "
                f"{OVERLAP_COLOR} 6px, {OVERLAP_COLOR} 9px);"
            )
            title = t("chunkview.overlap", ids=", ".join(str(i + 1) for i in seg.chunks))
        parts.append(f'{marker}<span style="{style}" title="{html.escape(title)}">{body}</span>')
    parts.append("</div>")
    return "".join(parts)
