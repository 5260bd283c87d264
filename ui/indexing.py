"""Indexing from a page: st.progress fed by the ingest progress callback, then the report."""

from __future__ import annotations

from typing import Any, Sequence

import streamlit as st

from rag.documents import Document, Problem
from rag.errors import RagError
from rag.index.ingest import IngestProgress, IngestReport, ingest
from rag.index.progress import format_progress
from ui.present.safe_markdown import escape_link_text
from ui import resources

REPORT = "ingest_report"


def run(
    items: Sequence[Document | Problem],
    settings: Any,
    store: Any,
    collection: str,
    strategy: str,
    chunk_settings: dict[str, Any] | None = None,
) -> IngestReport | None:
    """Index `items` into `collection`, showing progress; None (and the error shown) on failure."""
    info = store.collection_info(collection)
    try:
        embedder = resources.embedder_for(settings, info)
    except RagError as exc:
        st.error(f"No embedding model to index with: {exc}")
        return None
    bar = st.progress(0.0, text=f"Indexing {len(items)} documents into {collection!r}…")

    def on_progress(p: IngestProgress) -> None:
        fraction = p.docs_done / p.docs_total if p.docs_total else 0.0
        bar.progress(min(1.0, fraction), text=format_progress(p))

    try:
        report = ingest(list(items), store, embedder, collection, strategy=strategy,
                        chunk_settings=chunk_settings, progress=on_progress)
    except RagError as exc:
        bar.empty()
        st.error(f"Indexing stopped: {exc}")
        return None
    finally:
        resources.refresh_status()
    bar.progress(1.0, text=f"Done in {report.seconds:.1f} s: {report.chunks_written} chunks written.")
    return report


def show_report(report: IngestReport) -> None:
    """New, changed, unchanged and failed documents, with the reasons for failures."""
    cols = st.columns(4)
    cols[0].metric("new", report.new)
    cols[1].metric("changed", report.changed)
    cols[2].metric("unchanged", report.unchanged)
    cols[3].metric("failed", len(report.failed))
    summary = (f"Collection **{escape_link_text(report.collection)}** (`{report.strategy}`, `{report.embedding_model}`): "
               f"{report.chunks_written} chunks written in {report.seconds:.1f} s.")
    (st.success if report.ok else st.warning)(summary)
    if report.failed:
        st.dataframe([{"document": item, "reason": reason} for item, reason in report.failed], hide_index=True)
    if report.skipped:
        st.caption(f"{len(report.skipped)} skipped: no text to index (only a redirect or a link).")
        st.dataframe([{"document": item, "reason": reason} for item, reason in report.skipped], hide_index=True,
                     key="skipped_documents")
    if report.aborted:
        st.error(f"Stopped early: {report.aborted}")
    if report.verify_error:
        st.error(f"Verification failed: {report.verify_error}")
    for message in report.warnings:
        st.caption(f":material/warning: {escape_link_text(message)}")
