"""Does a document have text to index? A redirect stub or a lone link does not.

Such documents are skipped with a reason, not counted as failures: a documentation export
commonly holds a few redirect pages, and they must not make every ingestion fail.
"""

from __future__ import annotations

import re

from rag.i18n import t

# A stub is short: longer text always counts as text and is never scanned here, so the link
# pattern (retried at each "[") only ever sees a bounded input.
STUB_MAX_CHARS = 2000
_LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\n]*)\)|<(https?://[^>\s]*)>|(https?://[^\s)\]>]+)")
_WORD = re.compile(r"\w")


def no_text_reason(markdown: str, redirect: str | None = None) -> str | None:
    """Why `markdown` has nothing to index, or None when it has text.

    `redirect` is where the source says the document moved (front matter `redirect_url`).
    """
    if len(markdown) > STUB_MAX_CHARS:
        return None
    links = [(m.group(1) or "").split() or [m.group(2) or m.group(3)] for m in _LINK.finditer(markdown)]
    if _WORD.search(_LINK.sub(" ", markdown)):
        return None
    if redirect:
        return t("src.redirect", target=redirect)
    if len(links) > 1:
        return t("src.links", n=len(links))
    if links:
        target = links[0][0].strip("<>")
        return t("src.link_to", target=target) if target else t("src.link")
    return t("src.no_text")
