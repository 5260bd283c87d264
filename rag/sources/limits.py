"""What a source refuses before it reaches the chunker: oversized documents and text that is
mostly encoded data (base64 blobs, binary read as text).

A 20 MB single-line file once became 26,216 chunks of noise with exit status 0: such a document
costs minutes of embedding and pollutes every search, so it is skipped and named instead.
"""

from __future__ import annotations

import string
from typing import Mapping

from rag.i18n import t
from rag.i18n.numbers import decimal, percent
from rag.environment import raw_from_env
from rag.errors import ConfigError

MAX_DOC_MB_ENV = "RAG_MAX_DOC_MB"
DEFAULT_MAX_DOC_MB = 10.0
_MB = 1_000_000

# A whitespace-separated token at least this long, made of the base64 alphabet, is encoded data:
# prose words and URLs are shorter or hold other characters, SHA-256 hex (64) is left alone.
_BLOB_TOKEN = 100
_BLOB_SHARE = 0.5  # of the document's non-space characters
_BINARY_SHARE = 0.05  # control characters and U+FFFD (bytes that were not text)
_MIN_CHARS = 1000  # a short note is never judged by its share
_BASE64 = frozenset(string.ascii_letters + string.digits + "+/=_-")
_DROP_BASE64 = {ord(c): None for c in _BASE64}
_HEX = frozenset(string.hexdigits)
_NOT_TEXT = {code: None for code in (*range(0, 9), 11, 12, *range(14, 32), 127, 0xFFFD)}


def max_document_bytes(megabytes: float | None = None, env: Mapping[str, str] | None = None) -> int:
    """The size cap in bytes: `megabytes` when given (a CLI flag), else RAG_MAX_DOC_MB, else 10 MB."""
    if megabytes is None:
        raw = (raw_from_env(env)["max_doc_mb"] or "").strip()
        if not raw:
            return int(DEFAULT_MAX_DOC_MB * _MB)
        try:
            megabytes = float(raw)
        except ValueError:
            raise ConfigError(t("src.mb_not_number", name=MAX_DOC_MB_ENV, value=repr(raw))) from None
        origin = MAX_DOC_MB_ENV
    else:
        origin = "--max-doc-mb"
    if not megabytes > 0:
        raise ConfigError(t("src.mb_not_positive", name=origin, value=f"{megabytes:g}"))
    return int(megabytes * _MB)


def too_big(size: int, limit: int) -> str | None:
    """The message for a document of `size` bytes over `limit`, or None."""
    if size <= limit:
        return None
    return t("src.too_big", size=decimal(size / _MB, 1), limit=decimal(limit / _MB, 3, trim=True), name=MAX_DOC_MB_ENV)


def _is_blob(token: str) -> bool:
    if len(token) < _BLOB_TOKEN or _HEX.issuperset(token):
        return False
    # A few stray characters (quotes, a data: prefix, brackets) do not make a blob text.
    return len(token.translate(_DROP_BASE64)) * 20 <= len(token)


def not_text(text: str) -> str | None:
    """Why `text` is encoded data rather than prose, or None. Linear in the text's length."""
    if len(text) < _MIN_CHARS:
        return None
    odd = len(text) - len(text.translate(_NOT_TEXT))
    if odd > _BINARY_SHARE * len(text):
        return t("src.looks_binary", pct=percent(odd / len(text)))
    tokens = text.split()
    total = sum(map(len, tokens))
    blob = sum(len(t) for t in tokens if _is_blob(t))
    if total >= _MIN_CHARS and blob > _BLOB_SHARE * total:
        return t("src.encoded", pct=percent(blob / total))
    return None
