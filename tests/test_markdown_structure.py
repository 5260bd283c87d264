"""Every place that scans Markdown agrees on what is fenced code and what is a heading
(rag.markdown_structure)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rag.answer.citations import parse_citations
from rag.chunking._structure import CODE, Structure
from rag.markdown_structure import HeadingLine, fences, heading, headings, lines_in_code, split_code
from rag.sources.files import first_h1
from rag.sources.html import _tidy
from ui.present.answer import demote_headings
from ui.present.safe_markdown import sanitize_markdown

LINES = [
    "```", "```python", "````", "`````", "~~~", "~~~~", "~~~ sh", "  ```", "    ~~~", "\t```",
    "  texte en retrait", "Du texte <b>gras</b>", "# Titre", "## Sous-titre", "", "  ", "- un point", "```\r",
    "#", "# ", "#sans blanc", "####### sept", "   ### Trois espaces ###", "    # quatre espaces", "\t# tabulation",
    "# Le langage C#", "## <a name=\"k\"></a>Ancre  et   blancs ##", "# Titre\r", "# ##",
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
    assert [heading(line) for line in ("## Titre ##", "# C#", "#", "#x", "    # code", "####### x")] == [
        HeadingLine(2, "Titre"), HeadingLine(1, "C#"), HeadingLine(1, ""), None, None, None,
    ]
    assert list(headings("# Un\n```sh\n# commentaire\n```\n## Deux")) == [(0, HeadingLine(1, "Un")), (4, HeadingLine(2, "Deux"))]
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

    # Headings: the lines the rule reads as headings, outside code only, are the sections chunking
    # sees, the bold lines a passage shows, and the first of level 1 is the file's title.
    found_headings = list(headings(text))
    assert all(i not in code_lines for i, _ in found_headings)
    starts = [sum(len(line) + 1 for line in lines[:i]) for i, _ in found_headings]
    assert [(h.start, h.level, h.text) for h in Structure(text).headings] == [
        (start, h.level, h.text) for start, (_, h) in zip(starts, found_headings)
    ]
    shown_as_headings = {i for i, h in found_headings if h.text}
    demoted = demote_headings(text).split("\n")
    for i, line in enumerate(lines):
        assert demoted[i] == (f"**{heading(line).text}**" if i in shown_as_headings else line)
    titles = [h.text for _, h in found_headings if h.level == 1 and h.text]
    assert first_h1(text) == (titles[0] if titles else None)

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

