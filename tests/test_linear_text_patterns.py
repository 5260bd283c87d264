"""Every pattern that reads document text is linear (break 6: ReDoS in the chunker).

Two kinds of test, none timed:
- equivalence: on small inputs, where the old backtracking patterns are fast, the linear rewrites
  find exactly what the old patterns found (the old ones are written out here as the reference);
- adversarial documents a few hundred kilobytes long (long runs of spaces and tabs, deep list
  indentation, backticks, pipes, hashes, quotes, unclosed tags) go through every strategy, the
  HTML conversion and the display sanitiser, keeping their correctness invariants. With the old
  patterns the structure scan alone took hours on these; the timeout only guards against a hang.
  Growth with size is measured in benchmarks/adversarial.py.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.chunking import STRATEGIES, make_chunker
from rag.chunking._split import BLANK_LINE
from rag.chunking._structure import _EVENT_LINE, Structure
from rag.answer.citations import parse_citations
from rag.markdown_structure import heading_text, strip_closing_sequence
from rag.sources.files import first_h1
from rag.sources.html import html_to_markdown
from rag.store.sparse import sparse_vector
from tests.chunking.test_chunking_invariants import check_common, check_concatenates
from ui.present.answer import demote_headings
from ui.present.safe_markdown import _escape_angles, _REFERENCE, code_spans, sanitize_markdown

# The patterns as they were: correct on small inputs, quadratic (or worse) on long runs.
OLD_EVENT_LINE = (
    r"(?:(?P<fence>[ \t]*(?:`{3,}|~{3,}))(?P<info>[^\n]*)"
    r"|(?P<hashes> {0,3}#{1,6})(?:[ \t]+(?P<title>[^\n]*?))?[ \t]*\r?$"
    r"|[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*\r?$)"
)
OLD_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+$")
OLD_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
OLD_ANGLE = re.compile(r"(\\*)<")
OLD_REFERENCE = re.compile(
    r"^(?P<lead> {0,3}\[(?:[^\[\]\\]|\\.)+\]:[ \t]*\n?[ \t]*)(?P<dest><[^<>\n]*>|\S+)(?P<rest>.*)$", re.MULTILINE
)
OLD_BLANK_LINE = re.compile(r"\n(?:[ \t\r]*\n)+")
OLD_CITATION = re.compile(r"(?<![\w\[])\[\s*(\d{1,4}(?:\s*[-–]\s*\d{1,4})?(?:\s*[,;]\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?)*)"
                          r"\s*\](?!\()")

LINE_CHARS = " \t\r`~#|:-*_ab"
SMALL = settings(max_examples=300, deadline=None, derandomize=True)


@SMALL
@given(line=st.text(alphabet=LINE_CHARS, max_size=30))
def test_the_event_line_pattern_finds_what_the_old_one_found(line):
    old = re.match(OLD_EVENT_LINE, line, re.M)
    new = re.match(_EVENT_LINE, line, re.M)
    assert (old is None) == (new is None)
    if old is not None:
        assert new.end() == old.end()
        assert (new["fence"], new["info"], new["hashes"]) == (old["fence"], old["info"], old["hashes"])
        assert heading_text(new["title"] or "") == heading_text(old["title"] or "")


@SMALL
@given(text=st.text(alphabet=" \t#ab\u00a0", max_size=20))
def test_closing_hashes_are_trimmed_as_before(text):
    assert strip_closing_sequence(text) == OLD_CLOSING_HASHES.sub("", text.strip())


@SMALL
@given(text=st.text(alphabet="`a <\\\n", max_size=40))
def test_code_spans_and_escaped_angles_are_found_as_before(text):
    if "\\`" not in text:  # an escaped backtick opens nothing now, as in CommonMark
        assert code_spans(text) == [m.span() for m in OLD_CODE_SPAN.finditer(text)]
    escaped = OLD_ANGLE.sub(lambda m: m.group(0) if len(m.group(1)) % 2 else f"{m.group(1)}&lt;", text)
    assert _escape_angles(text) == escaped


@SMALL
@given(text=st.text(alphabet=" \t\n[]:a<>\\\r", max_size=40))
def test_reference_and_blank_line_patterns_match_as_before(text):
    assert [m.groupdict() for m in _REFERENCE.finditer(text)] == [m.groupdict() for m in OLD_REFERENCE.finditer(text)]
    assert [m.span() for m in BLANK_LINE.finditer(text)] == [m.span() for m in OLD_BLANK_LINE.finditer(text)]


def _old_expand(item: str) -> list[int]:
    parts = re.split(r"\s*[-–]\s*", item.strip())
    if len(parts) == 1:
        return [int(parts[0])]
    start, end = int(parts[0]), int(parts[1])
    return list(range(start, end + 1)) if start <= end and end - start <= 20 else [start, end]


@SMALL
@given(text=st.text(alphabet=" \t[]0123-–,;a(", max_size=40))
def test_citations_are_parsed_as_before(text):
    old: list[int] = []
    for match in OLD_CITATION.finditer(text):
        for item in re.split(r"\s*[,;]\s*", match.group(1)):
            old += [n for n in _old_expand(item) if n not in old]
    assert parse_citations(text) == old


def test_an_escaped_backtick_opens_no_code_span_as_in_commonmark():
    # CommonMark's examples: "\\`not code`" is text; "`\\`" and "``a\\``" are one span each
    assert code_spans("\\`not code`") == []
    assert code_spans("`code\\`") == [(0, 7)]  # inside a span a backslash is text
    assert code_spans("\\``a`") == [(2, 5)]  # the first backtick escaped: a span of one
    assert code_spans("\\\\`a`") == [(2, 5)]  # an escaped backslash escapes nothing


# -- adversarial documents ----------------------------------------------------------------------

SIZE = 300_000


def _adversarial() -> dict[str, str]:
    return {
        "spaces then text": "Intro.\n" + " " * SIZE + "x\n",
        "tabs then a pipe": "a | b\n" + "\t" * SIZE + "|x\n",
        "heading with spaces": "# a" + " " * SIZE + "b #c\n",
        "nested list": "".join(" " * (2 * (i % 400)) + "- item\n" for i in range(SIZE // 400)),
        "backticks": "`a " * (SIZE // 3),
        "pipes and dashes": ("|" + " " * 50 + "-" + " " * 50) * (SIZE // 102),
        "hashes": ("#" * 7 + " " * 100 + "\n") * (SIZE // 108),
        "quotes": "> " * (SIZE // 2),
        "fences": ("```" + " " * 100 + "`\n") * (SIZE // 105),
        "stars": "*a " * (SIZE // 3),
        "backslashes": "\\" * SIZE + "<b>",
        "reference": "[a]:" + " " * SIZE + "\n",
        "blank lines first": " \n" * (SIZE // 2) + "klist purge",
    }


class _CountingSearch:
    """NON_SPACE with a count of the characters its searches may read."""

    def __init__(self) -> None:
        self.read = 0

    def search(self, text: str, pos: int = 0, endpos: int | None = None):
        end = len(text) if endpos is None else min(endpos, len(text))
        found = BLANK_PIECE_SEARCH.search(text, pos, end)
        self.read += (found.start() + 1 if found else end) - pos
        return found


BLANK_PIECE_SEARCH = re.compile(r"\S")


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_leading_blank_lines_are_read_once_not_once_a_cut(strategy, monkeypatch):
    # ' \n' * N before any text: the blank pieces were searched again from the start at every
    # cut (13 s at 100 KB, 309 s at 400 KB); each character is now read a bounded number of times.
    from rag.chunking import _split

    counting = _CountingSearch()
    monkeypatch.setattr(_split, "NON_SPACE", counting)
    text = " \n" * 20_000 + "klist purge"
    chunker = make_chunker(strategy)
    chunks = chunker.chunk(text, title="T")
    check_common(text, chunks, overlap=chunker.settings().get("overlap", 0))
    assert "purge" in chunks[-1].text
    assert counting.read <= 8 * len(text), counting.read  # once a level of separators (800 million before)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("name", list(_adversarial()))
def test_adversarial_documents_keep_the_chunk_invariants(name):
    text = _adversarial()[name]
    structure = Structure(text)
    for block in structure.blocks:
        assert 0 <= block.start < block.end <= len(text)
    for heading in structure.headings:
        assert 1 <= heading.level <= 6 and (heading.start == 0 or text[heading.start - 1] == "\n")
    for strategy in STRATEGIES:
        chunker = make_chunker(strategy)
        chunks = chunker.chunk(text, title="T")
        overlap = chunker.settings().get("overlap", 0)
        check_common(text, chunks, overlap=overlap)
        if strategy == "recursive":
            check_concatenates(text, chunks)
    assert isinstance(first_h1(text), (str, type(None)))
    assert sparse_vector(text[:50_000]) is not None


@pytest.mark.timeout(240)
@pytest.mark.parametrize("name", list(_adversarial()))
def test_adversarial_documents_are_displayed_safely(name):
    text = _adversarial()[name] + "\n<script>alert(1)</script>"
    shown = sanitize_markdown(demote_headings(text), images=False)
    assert "<script" not in shown
    parse_citations(text[:100_000])


HTML = {
    "spaces in a paragraph": "<p>a" + " " * SIZE + "b</p>",
    "tabs and newlines": "<p>" + "\t \n" * (SIZE // 3) + "x</p>",
    "unclosed tags": "<p " * (SIZE // 3),
    "unclosed quotes": '<a b="' * (SIZE // 6),
    "end tags without names": "</" * (SIZE // 2),
    "processing instructions": "<?" * (SIZE // 2),
    "unclosed comments": "<p>x</p>" + "<!--" * (SIZE // 4),
    "emphasis in a heading": "<h2>" + "*a " * (SIZE // 3) + "</h2>",
    "nested lists": ("<ul><li>a" + " " * 1000) * 100 + "</li></ul>" * 100,
}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("name", list(HTML))
def test_adversarial_html_converts_to_inert_markdown(name):
    markdown = html_to_markdown("<p>début</p>" + HTML[name] + "<script>alert(1)</script><p>fin</p>")
    assert "alert" not in markdown and "<script" not in markdown
    assert markdown.startswith("début")
    # An unclosed comment runs to the end of the page, as in a browser.
    assert markdown.endswith("fin") == (name != "unclosed comments")


def test_the_rewrites_keep_what_readers_see():
    assert heading_text("Kerberos <a name=\"k\"></a> et NTLM ##") == "Kerberos et NTLM"
    assert heading_text("Le langage C#") == "Le langage C#"
    assert first_h1("# Titre ##\n\ntexte") == "Titre" and first_h1("# C#\n") == "C#"
    assert html_to_markdown("<h2><strong>Gras</strong> et <em>italique</em></h2>") == "## Gras et italique"
    assert html_to_markdown("<p>a   b\n\n   c</p>") == "a b\nc"
    assert html_to_markdown("<pre>if a<b then\n  x</pre>") == "```\nif a<b then\n  x\n```"
    assert html_to_markdown("<p>un <!-- commentaire --> mot</p>") == "un mot"
    assert sanitize_markdown("`<b>` et <i>x</i> et \\<u>") == "`<b>` et &lt;i>x&lt;/i> et \\<u>"


# -- the benchmark's inputs at a small size --------------------------------------------------------


def _benchmark():
    import importlib.util
    import sys
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "benchmarks"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("adversarial_benchmark", folder / "adversarial.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(folder))


BENCHMARK = _benchmark()
CASES = [(kind, name, op) for kind, inputs in BENCHMARK.INPUTS for name in inputs for op in BENCHMARK._operations(kind)]


@pytest.mark.timeout(60)  # a guard against a hang only: growth is measured in benchmarks/adversarial.py
@pytest.mark.parametrize("kind, name, operation", CASES)
def test_every_public_text_function_takes_the_benchmarks_worst_inputs(kind, name, operation):
    text = dict(BENCHMARK.INPUTS)[kind][name](50_000)
    result = BENCHMARK._operations(kind)[operation](text)
    if operation == "answer display":
        # whatever the input, no address is left outside code for the autolinker
        from rag.answer.citations import address_spans
        from ui.present.safe_markdown import code_spans

        shown, last, prose = result, 0, []
        for start, end in code_spans(shown):
            prose.append(shown[last:start])
            last = end
        prose.append(shown[last:])
        assert not [a for piece in prose for a in address_spans(piece)]
