"""The text of an ATX heading line, found without a regex that backtracks.

`## Title ##` closes with hashes; a pattern like `(.+?)[ \t]*#*[ \t]*$` retries its tail at every
character and takes minutes on a long line of spaces, so the end is trimmed with string methods.
"""

from __future__ import annotations


def strip_closing_sequence(text: str) -> str:
    """`Title ##` -> `Title`; `C#` stays (CommonMark: closing hashes follow a space, or are all)."""
    text = text.strip()
    if text.endswith("#"):
        bare = text.rstrip("#")
        if not bare or bare[-1] in " \t":
            text = bare.rstrip(" \t")
    return text
