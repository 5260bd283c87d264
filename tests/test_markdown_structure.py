"""Every place that scans Markdown agrees on what is fenced code (rag.markdown_structure)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rag.answer.citations import parse_citations
from rag.chunking._structure import CODE, Structure
from rag.markdown_structure import fences, lines_in_code, split_code
from rag.sources.files import first_h1
from rag.sources.html import _tidy
from ui.present.answer import demote_headings
from ui.present.safe_markdown import sanitize_markdown

LINES = [
    "```", "```python", "````", "`````", "~~~", "~~~~", "~~~ sh", "  ```", "    ~~~", "\t```",
    "  texte en retrait", "Du texte <b>gras</b>", "# Titre", "## Sous-titre", "", "  ", "- un point", "```\r",
]  # no inline code spans: safe Markdown rightly leaves those as written too
texts = st.lists(st.sampled_from(LINES), max_size=25).map("\n".join)


def test_the_rule_on_examples():
    text = "avant\n````md\n```\ndedans\n```\n`````\naprès"
    [fence] = fences(text)
    assert text[fence.start:fence.end] == "````md\n```\ndedans\n```\n`````"  # a longer fence closes
    assert [f.marker for f in fences("~~~\n```\n~~~\n")] == ["~~~"]  # ``` does not close ~~~
    assert fences("un ```inline``` et ``` x`y") == []  # backticks in the info string: not a fence
    unclosed = "texte\n```sh\nrm -rf /\n"
    assert [(f.start, f.end) for f in fences(unclosed)] == [(6, len(unclosed))]
    listed = "- étape\n  ```\n  code\n  ```\n- suite\n  ```\n  ouvert\nplus dans la liste"
    assert [line for line, fence in lines_in_code(listed) if fence] == ["  ```", "  code", "  ```", "  ```", "  ouvert"]


@settings(max_examples=300, deadline=None)
@given(texts)
def test_chunking_html_files_citations_and_safe_markdown_agree(text):
    found = fences(text)
    code_lines = {i for i, (_, fence) in enumerate(lines_in_code(text)) if fence}
    lines = text.split("\n")

    # Chunking: its code blocks are these fences (from the marker, without the trailing \r).
    blocks = [(b.start, b.end) for b in Structure(text).blocks if b.kind == CODE]
    expected = [(f.start + f.indent, f.end - (text[f.end - 1] == "\r" if f.end else 0)) for f in found]
    assert blocks == [(s, max(e, s + 1)) for s, e in expected]

    # Safe Markdown: code as written, HTML escaped everywhere else.
    assert "".join(piece for _, piece in split_code(text)) == text
    shown = sanitize_markdown(text)
    in_code = sum(text[f.start:f.end].count("<b>") for f in found)
    assert shown.count("<b>") == in_code
    for fence in found:
        assert text[fence.start:fence.end] in shown

    # Headings demoted, and the first title found, outside code only.
    demoted = demote_headings(text).split("\n")
    for i, line in enumerate(lines):
        assert (demoted[i] == line) if i in code_lines or not line.startswith("#") else demoted[i].startswith("**")
    titles = [i for i, line in enumerate(lines) if line == "# Titre" and i not in code_lines]
    assert first_h1(text) == ("Titre" if titles else None)

    # HTML conversion's tidying keeps code lines, blank ones too.
    tidy = _tidy(text)
    for fence in found:
        opening, _, rest = text[fence.start:fence.end].partition("\n")
        assert (opening.rstrip() + "\n" + rest).rstrip() in tidy

    # Citations: a number in code is not a citation.
    numbered = "\n".join(f"{line} [{i + 1}]" if line == "Du texte <b>gras</b>" else line
                         for i, line in enumerate(lines))
    prose = [i + 1 for i, line in enumerate(lines) if line == "Du texte <b>gras</b>" and i not in code_lines]
    assert parse_citations(numbered) == prose

