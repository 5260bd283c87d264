"""Invariants every chunking strategy must keep, checked against an independent block scanner.

The scanner here is deliberately simpler than rag.chunking's: if the two disagree about where a
code block or table is, the structure tests fail instead of both being wrong the same way.
"""

from __future__ import annotations

import re

from rag.chunking.base import Chunk

FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
DELIMITER_ROW = re.compile(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")


def _front_matter_lines(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def block_spans(text: str) -> list[tuple[str, int, int, str]]:
    """(kind, start, end, table header rows) of fenced code blocks and tables; end excludes the last newline."""
    lines = text.split("\n")
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    spans = []
    i = _front_matter_lines(lines)
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence and not (fence.group(1)[0] == "`" and "`" in line[fence.end():]):
            marker = fence.group(1)
            j = i + 1
            while j < len(lines):
                close = FENCE.match(lines[j])
                if (
                    close
                    and close.group(1)[0] == marker[0]
                    and len(close.group(1)) >= len(marker)
                    and not lines[j][close.end():].strip()
                ):
                    break
                j += 1
            j = min(j, len(lines) - 1)
            start = offsets[i] + len(line) - len(line.lstrip())
            spans.append(("code", start, offsets[j] + len(lines[j]), ""))
            i = j + 1
            continue
        if "|" in line and i + 1 < len(lines) and "|" in lines[i + 1] and DELIMITER_ROW.match(lines[i + 1]):
            j = i + 2
            while j < len(lines) and lines[j].strip() and "|" in lines[j] and not FENCE.match(lines[j]):
                j += 1
            start = offsets[i] + len(line) - len(line.lstrip())
            header = text[start : offsets[i + 1] + len(lines[i + 1])]
            spans.append(("table", start, offsets[j - 1] + len(lines[j - 1]), header))
            i = j
            continue
        i += 1
    return spans


def check_common(text: str, chunks: list[Chunk], *, overlap: int) -> None:
    """Exact slices, consecutive indexes, order, overlap bound, nothing lost."""
    assert [c.index for c in chunks] == list(range(len(chunks)))
    covered_to = 0
    previous = None
    for c in chunks:
        assert 0 <= c.start < c.end <= len(text)
        assert c.text == text[c.start : c.end], f"chunk {c.index} body is not markdown[start:end]"
        assert c.text.strip(), f"chunk {c.index} is blank"
        if previous is not None:
            assert c.start > previous.start and c.end > previous.end, f"chunk {c.index} out of order"
            assert previous.end - c.start <= overlap, (
                f"chunks {previous.index}/{c.index} overlap by {previous.end - c.start} > {overlap}"
            )
        gap = text[covered_to : c.start] if c.start > covered_to else ""
        assert not gap.strip(), f"text lost before chunk {c.index}: {gap[:80]!r}"
        covered_to = max(covered_to, c.end)
        previous = c
    assert not text[covered_to:].strip(), f"text lost at the end: {text[covered_to:][:80]!r}"


def check_concatenates(text: str, chunks: list[Chunk]) -> None:
    """Without their overlap, the chunks laid end to end are the document (a blank one has none)."""
    if not text.strip():
        assert chunks == []
        return
    parts, end = [], 0
    for c in chunks:
        parts.append(text[max(c.start, end) : c.end])
        end = c.end
    assert "".join(parts) == text


def check_blocks_kept(text: str, chunks: list[Chunk], *, max_size: int) -> int:
    """Every code block or table that fits in max_size lies inside one chunk; returns how many were checked."""
    checked = 0
    for kind, start, end, _header in block_spans(text):
        if end - start > max_size:
            continue
        checked += 1
        for c in chunks:
            cut = c.start < end and c.end > start and not (c.start <= start and c.end >= end)
            assert not cut, f"{kind} block [{start}:{end}] cut by chunk {c.index} [{c.start}:{c.end}]"
        assert any(c.start <= start and end <= c.end for c in chunks) or not text[start:end].strip()
    return checked


def check_table_pieces(text: str, chunks: list[Chunk]) -> int:
    """A chunk that starts inside a table carries the table's header rows and says table_split."""
    seen = 0
    for kind, start, end, header in block_spans(text):
        if kind != "table":
            continue
        for c in chunks:
            if start < c.start < end:
                seen += 1
                assert "table_split" in c.warnings, f"chunk {c.index} starts inside a table without a warning"
                assert header.rstrip() in c.header, f"chunk {c.index} lacks the table header rows"
    return seen


# -- the real corpora (extracts in tests/data) -----------------------------------------------------

import pytest  # noqa: E402

from rag.chunking import STRATEGIES, make_chunker  # noqa: E402

# Small settings make real pages cut into many chunks, so more boundaries are exercised.
SETTINGS = {
    "recursive": [{}, {"chunk_size": 300, "overlap": 60}],
    "sections": [{}, {"max_size": 400, "overlap": 80}],
    "sections_min_max": [{}, {"min_size": 100, "max_size": 350}],
    "markdown": [{}, {"chunk_size": 300, "overlap": 100}],
}
STRUCTURE_AWARE = ["sections", "sections_min_max", "markdown"]


def _limits(chunker) -> tuple[int, int]:
    settings = chunker.settings()
    size = settings.get("chunk_size") or settings["max_size"]
    return size, settings.get("overlap", 0)


def _read(path) -> str:
    return path.read_text(encoding="utf-8-sig")


@pytest.fixture(scope="module")
def docs_fr(corpora) -> list:
    paths = sorted((corpora / "docs-fr" / "docs").rglob("*.md"))
    assert len(paths) == 38
    return paths


@pytest.fixture(scope="module")
def cnil(corpora) -> list:
    paths = sorted((corpora / "cnil-md" / "cnil").glob("*.md"), key=lambda p: p.name)
    assert len(paths) == 12
    return paths


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_every_docs_fr_page_keeps_the_invariants(name, docs_fr):
    blocks_checked = 0
    for settings in SETTINGS[name]:
        chunker = make_chunker(name, **settings)
        size, overlap = _limits(chunker)
        for path in docs_fr:
            text = _read(path)
            chunks = chunker.chunk(text, title=path.stem)
            try:
                check_common(text, chunks, overlap=overlap)
                if name == "recursive":
                    check_concatenates(text, chunks)
                    assert all(not c.header for c in chunks), "the baseline has no context header"
                else:
                    blocks_checked += check_blocks_kept(text, chunks, max_size=size)
                    check_table_pieces(text, chunks)
                assert all(c.chars <= size or "oversized" in c.warnings for c in chunks)
            except AssertionError as exc:
                raise AssertionError(f"{path.name} with {name} {settings}: {exc}") from None
    if name != "recursive":
        assert blocks_checked > 500  # the extract really has code blocks and tables


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_cnil_pages_keep_the_invariants(name, cnil):
    chunker = make_chunker(name, **SETTINGS[name][1])
    size, overlap = _limits(chunker)
    for path in cnil:
        text = _read(path)
        chunks = chunker.chunk(text)
        check_common(text, chunks, overlap=overlap)
        if name == "recursive":
            check_concatenates(text, chunks)
        assert all(c.chars <= size or "oversized" in c.warnings for c in chunks)


def test_independent_scanner_agrees_on_the_corpus(docs_fr):
    # The checks above are only as good as this scanner: it must see what the chunkers see.
    from rag.chunking._structure import Structure

    for path in docs_fr:
        text = _read(path)
        ours = [(k, s, e) for k, s, e, _ in block_spans(text)]
        theirs = [(b.kind, b.start, b.end) for b in Structure(text).blocks]
        assert ours == theirs, path.name


def test_heading_paths_follow_the_headings(docs_fr):
    path = next(p for p in docs_fr if p.name == "arp.md")
    text = _read(path)
    chunks = make_chunker("markdown", chunk_size=300, overlap=0).chunk(text, title="arp")
    syntax = [c for c in chunks if c.text.lstrip().startswith("## ") and "Syntaxe" in c.text.split("\n")[0]]
    assert syntax and syntax[0].heading_path == ["arp", "Syntaxe"]
    # The heading markup (#, anchors) never leaks into the path.
    assert all("#" not in h and "<a" not in h for c in chunks for h in c.heading_path)
