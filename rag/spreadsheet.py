"""Text made safe for a spreadsheet cell: a CSV opened in Excel or LibreOffice must not run anything.

A cell that starts with `=`, `+`, `-` or `@` (or a tab or a carriage return, which spreadsheets
skip before reading it) is a formula: `=HYPERLINK("https://evil.example", "Cliquez")` in an
answer or a document's URL would become a live link, or worse, in the editor's spreadsheet. Such a
cell gets a leading `'`, which spreadsheets show as nothing and read as "this is text"
(OWASP's rule for CSV injection). Every CSV the workbench writes goes through `cell_text`.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Blanks a spreadsheet may skip before it sees the formula sign.
_LEADING = " \u00a0\n"


def cell_text(text: str) -> str:
    """`text` as it may go into a CSV cell: a leading `'` when a spreadsheet would read a formula."""
    if text.lstrip(_LEADING).startswith(FORMULA_STARTS):
        return "'" + text
    return text
