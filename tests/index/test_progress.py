"""The ingest progress line (CLI and the Ingest page): counts agree with their noun in both languages."""

from __future__ import annotations

from rag.i18n import language
from rag.index.ingest_report import IngestProgress
from rag.index.progress import format_progress


def progress(docs_done, docs_total, chunks):
    return IngestProgress(docs_done, docs_total, chunks, rate=0.0, eta=None, current="", phase="reading")


def test_one_chunk_and_one_document_are_singular():
    with language("fr"):
        assert format_progress(progress(1, 1, 1)) == "1/1 document, 1 morceau"
        assert format_progress(progress(1, 12, 2)) == "1/12 documents, 2 morceaux"
        assert format_progress(progress(1, None, 0)) == "1 document, 0 morceau"
    with language("en"):
        assert format_progress(progress(1, 1, 1)) == "1/1 document, 1 chunk"
        assert format_progress(progress(2, None, 0)) == "2 documents, 0 chunks"
