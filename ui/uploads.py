"""A file uploader with its limits said in the page's language.

Streamlit draws the uploader's own words ("Upload", "Drag and drop files here", "200MB per file •
MD, HTML") in English whatever the page's language: they are fixed in its browser code,
with no setting or parameter to change them. The label and a caption under the widget are ours:
there the reader learns, in the page's language, which files are taken and how large they may be.
"""

from __future__ import annotations

from typing import Any, Sequence

import streamlit as st

from rag.i18n.numbers import decimal
from ui.i18n import t


def upload_limit_mb() -> float:
    """The largest file Streamlit accepts, in megabytes (`server.maxUploadSize`, 200 unless set)."""
    return float(st.get_option("server.maxUploadSize"))


def file_uploader(label: str, types: Sequence[str], used_mb: float | None = None, **kwargs: Any) -> Any:
    """`st.file_uploader` for files of `types`, with a caption in the page's language naming those
    types and the largest file that is used: Streamlit's upload limit, or `used_mb` when smaller
    (a larger document is uploaded, then skipped, as RAG_MAX_DOC_MB says)."""
    accepted = ", ".join(f".{kind}" for kind in types)
    limit = upload_limit_mb() if used_mb is None else min(used_mb, upload_limit_mb())
    uploaded = st.file_uploader(label, type=list(types), **kwargs)
    st.caption(t("upload.limit", types=accepted, size=decimal(limit, 1, trim=True)))
    return uploaded
