"""Indexing from a page: st.progress fed by the ingest progress callback, then the report."""

from __future__ import annotations

from typing import Any, Sequence

import streamlit as st

from rag.documents import Document, Problem
from rag.journal.recheck import recheck_refused
from rag.errors import RagError
from rag.ingest.run import ingest
from rag.ingest.report import IngestProgress, IngestReport
from rag.ingest.progress import format_progress
from ui.present.safe_markdown import escape_link_text
from ui import enrichment_view, lang, stop_button
from ui import resources
from rag.i18n.numbers import duration, integer
from ui.i18n import t, tn

REPORT = "ingest_report"
STOP = "ingest_stop"


def run(
    items: Sequence[Document | Problem],
    settings: Any,
    store: Any,
    collection: str,
    strategy: str,
    chunk_settings: dict[str, Any] | None = None,
    full: bool = False,
    enrichment: str = "none",
    replace: bool = False,
    embedder: Any = None,
) -> IngestReport | None:
    """Index `items` into `collection` (`full`: rebuilt from scratch; `replace`: the editor
    confirmed the replacement of other sources' documents), showing progress; None (and the error
    shown) on failure. `embedder`: this one rather than the collection's."""
    if embedder is None:
        embedder = embedder_or_error(settings, store.collection_info(collection))
        if embedder is None:
            return None
    enricher = enrichment_view.enricher_for(enrichment, settings)  # no chat model: said before anything runs
    if enricher is None:
        return None
    bar = st.progress(0.0, text=t("ing.indexing", documents=tn("count.documents", len(items)), name=collection))

    def on_progress(p: IngestProgress) -> None:
        bar.progress(p.fraction, text=format_progress(p))

    stop = stop_button.offer(STOP, t("ing.stop"), t("ing.stop_said", name=collection))
    try:
        report = ingest(list(items), store, embedder, collection, strategy=strategy,
                        chunk_settings=chunk_settings, full=full, progress=on_progress, enricher=enricher,
                        replace=replace)
    except RagError as exc:
        bar.empty()
        lang.error(t("ing.stopped"), str(exc))
        return None
    finally:
        enricher.close()
        resources.refresh_status()
        stop.empty()  # last: during a stop, this call is where Streamlit ends the run
    if report.ok and (report.new or report.changed):  # a new article may answer what was refused
        recheck_refused(settings, store, collection, embedder)
    bar.progress(1.0, text=t("ing.done", time=duration(report.seconds, 1), chunks=tn("count.passages_written", report.chunks_written)))
    return report


def embedder_or_error(settings: Any, info: Any) -> Any:
    """The embedder for a collection (`info`, None for a new one), or None with the error shown."""
    try:
        return resources.embedder_for(settings, info)
    except RagError as exc:
        lang.error(t("ing.no_embedder"), str(exc))
        return None


def show_report(report: IngestReport) -> None:
    """New, changed, unchanged and failed documents, with the reasons for failures."""
    cols = st.columns(4)
    cols[0].metric(t("rep.new"), integer(report.new))
    cols[1].metric(t("rep.changed"), integer(report.changed))
    cols[2].metric(t("rep.unchanged"), integer(report.unchanged))
    cols[3].metric(t("rep.failed"), integer(len(report.failed)))
    summary = t("rep.summary", name=escape_link_text(report.collection), strategy=report.strategy,
                chunks=tn("count.passages_written", report.chunks_written), time=duration(report.seconds, 1))
    (st.success if report.ok else st.warning)(summary)
    if report.failed:
        st.dataframe([{t("rep.document"): item, t("rep.reason"): reason} for item, reason in report.failed],
                     hide_index=True)
    if report.skipped:
        st.caption(tn("rep.skipped", len(report.skipped)))
        st.dataframe([{t("rep.document"): item, t("rep.reason"): reason} for item, reason in report.skipped],
                     hide_index=True,
                     key="skipped_documents")
    if report.enrichment:
        st.caption(enrichment_view.cost_line(report.enrichment))
    if report.aborted:
        lang.error(t("rep.aborted"), str(report.aborted))
    if report.verify_error:
        lang.error(t("rep.verify"), str(report.verify_error))
    for message in report.warnings:
        st.caption(f":material/warning: {escape_link_text(message)}")
