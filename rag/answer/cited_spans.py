"""The part of a cited passage that a citation rests on (Kotaemon's cited spans): for source [n],
the sentence, line or code block of the passage, as the model received it, that best matches the
answer's sentences citing [n], and the section that text is in.

Pure: the passage's text (as sent), the answer; no model, no store. The match is by shared words,
each weighted by how rare it is among the passage's own units (a word in every line says nothing
of which line was meant), so that "klist purge [1]" lands on the line holding `klist purge`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rag.answer.citations import CITATION, citation_numbers
from rag.markdown_structure import fences, heading
from rag.store.sparse import STOP_WORDS
from rag.textnorm import fold

# A sentence: up to its end mark and the spaces after, or up to a line's end. One class: linear.
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)", re.MULTILINE)
_WORD = re.compile(r"[^\W_]+(?:[-_.:/\\@][^\W_]+)*")
MIN_WORD = 3  # shorter words (de, la, -a) say nothing of where a citation rests, digits aside


@dataclass(frozen=True)
class CitedSpan:
    """Where in the passage's text the citation rests: `text[start:end]`; `section`: the heading it
    is under in that text, else the passage's own section ("" when it says none)."""

    start: int
    end: int
    section: str


def words(text: str) -> set[str]:
    """The words that can tell one sentence from another: folded, no stop word, no short word."""
    out = set()
    for match in _WORD.finditer(text):
        word = fold(match.group(0))
        if word in STOP_WORDS or (len(word) < MIN_WORD and not word.isdigit()):
            continue
        out.add(word)
    return out


def citing_text(answer: str, n: int) -> str:
    """The answer's sentences that cite [n] (the whole answer when none does by its sentence)."""
    citing = [m.group(0) for m in _SENTENCE.finditer(answer or "")
              if any(n in citation_numbers(c.group(1)) for c in CITATION.finditer(m.group(0)))]
    return " ".join(citing) or (answer or "")


def units(text: str) -> list[tuple[int, int]]:
    """The passage's units, as (start, end): each fenced code block and each table whole (a row
    alone reads as nothing), each sentence of its prose."""
    out: list[tuple[int, int]] = []
    pos = 0
    for start, end in blocks(text):
        out.extend(_sentences(text, pos, start))
        out.append((start, end))
        pos = end
    out.extend(_sentences(text, pos, len(text)))
    return [(s, e) for s, e in out if text[s:e].strip()]


def blocks(text: str) -> list[tuple[int, int]]:
    """Fenced code blocks and tables (runs of lines starting with "|"), in order."""
    code = fences(text)
    found = [(f.start, f.end) for f in code]
    pos, table = 0, None
    for line in text.split("\n"):
        inside = any(f.start <= pos <= f.end for f in code)
        if not inside and line.lstrip().startswith("|"):
            table = (table[0] if table else pos, pos + len(line))
        elif table:
            found.append(table)
            table = None
        pos += len(line) + 1
    if table:
        found.append(table)
    return sorted(found)


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    part = text[start:end]
    spans = []
    for m in _SENTENCE.finditer(part):
        s, e = m.start(), m.end()
        while s < e and part[s].isspace():
            s += 1
        spans.append((start + s, start + e))
    return spans


def cited_span(answer: str, n: int, passage: Any) -> CitedSpan | None:
    """The unit of `passage.text` that best matches the answer's sentences citing [n]; None when
    no word of theirs is in it (the whole passage is then what the citation rests on)."""
    text = str(getattr(passage, "text", "") or "")
    wanted = words(CITATION.sub(" ", citing_text(answer, n)))  # the numbers [n] are no words of it
    spans = units(text)
    if not wanted or not spans:
        return None
    held = [words(text[s:e]) for s, e in spans]
    spread = Counter(w for unit in held for w in unit)
    weight = {w: math.log(1 + len(spans) / spread[w]) for w in spread}
    scores = [sum(weight[w] for w in unit & wanted) for unit in held]
    best = max(range(len(spans)), key=lambda i: (scores[i], -i))
    if scores[best] <= 0:
        return None
    start, end = spans[best]
    return CitedSpan(start, end, section_of(passage, text, start, end))


def section_of(passage: Any, text: str, start: int, end: int) -> str:
    """The section `text[start:end]` is in: that of the chunk holding it, when the passage was grown
    by others (rag.answer.context), else the heading above it in the text, else the passage's own."""
    part = text[start:end].strip()
    for piece in getattr(passage, "pieces", None) or ():
        if part and part in str(piece.get("text") or "") and piece.get("section"):
            return str(piece["section"])
    return section_at(text, start) or str(getattr(passage, "section", "") or "")


def section_at(text: str, at: int) -> str:
    """The title of the last heading before `at` in `text`, outside code; "" when there is none."""
    code = fences(text)
    found, pos = "", 0
    for line in text[:at].split("\n"):
        inside = any(f.start <= pos <= f.end for f in code)
        title = heading(line) if not inside else None
        if title is not None and title.text:
            found = title.text
        pos += len(line) + 1
    return found
