"""Which addresses a source may store as a document's url.

A url is shown to readers as the document's source and opened when they click it: an address a
site or a front matter gives must be an absolute http(s) one (never javascript:, data:, file:, nor
a relative "staff.md" that names another document). A folder file's own url is its path in its
folder, which the files source writes itself.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_CONTROL_OR_SPACE = re.compile(r"[\s\x00-\x1f\x7f]")


def is_web_address(url: str) -> bool:
    """An absolute http(s) address with a host, without spaces or control characters."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(host) and not _CONTROL_OR_SPACE.search(url)
