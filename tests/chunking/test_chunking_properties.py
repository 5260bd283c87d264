"""Invariants on arbitrary Markdown-like text: whatever the input, no strategy loses or invents text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rag.chunking import STRATEGIES, make_chunker
from tests.chunking.test_chunking_invariants import (
    check_blocks_kept,
    check_common,
    check_concatenates,
    check_table_pieces,
)

# Lines that build headings, fences, tables, sentences (Latin and CJK) and odd whitespace.
LINES = st.sampled_from(
    [
        "# Titre",
        "## Section",
        "### Sous-section",
        "####### pas un titre",
        "```",
        "```bash",
        "~~~",
        "````",
        "| a | b |",
        "|---|---|",
        "| 1 | 2 |",
        "",
        "",
        "   ",
        "Une phrase courte. Une autre phrase!",
        "句子一。句子二！句子三？",
        "mot " * 30,
        "x" * 90,
        "    indenté",
        "\t\t",
    ]
)
DOCUMENTS = st.lists(LINES, max_size=60).map("\n".join)
SIZES = st.integers(min_value=20, max_value=400)


def _chunker(name: str, size: int, ratio: float):
    small = max(0, min(size - 1, int(size * ratio)))
    if name in ("recursive", "markdown"):
        return make_chunker(name, chunk_size=size, overlap=small), size, small
    if name == "sections":
        return make_chunker(name, max_size=size, overlap=small), size, small
    return make_chunker(name, min_size=max(1, small), max_size=size), size, 0


@settings(max_examples=120, deadline=None, derandomize=True)
@given(text=DOCUMENTS, size=SIZES, ratio=st.floats(0, 0.9), name=st.sampled_from(list(STRATEGIES)))
def test_any_document_keeps_the_invariants(text, size, ratio, name):
    chunker, limit, overlap = _chunker(name, size, ratio)
    chunks = chunker.chunk(text, title="T")
    check_common(text, chunks, overlap=overlap)
    if name == "recursive":
        check_concatenates(text, chunks)
    else:
        check_blocks_kept(text, chunks, max_size=limit)
        check_table_pieces(text, chunks)
    for c in chunks:
        assert c.chars <= limit or "oversized" in c.warnings


@settings(max_examples=60, deadline=None, derandomize=True)
@given(text=st.text(alphabet=" \n\t.!?。abc#|`~-", max_size=400), size=SIZES)
def test_any_character_soup_is_covered(text, size):
    for name in STRATEGIES:
        chunker, _limit, overlap = _chunker(name, size, 0.2)
        chunks = chunker.chunk(text)
        check_common(text, chunks, overlap=overlap)
        if name == "recursive":
            check_concatenates(text, chunks)
