"""What one chunk's point stores: the contract's payload keys, plus what re-runs and previews need;
and a document's points, one per chunk."""

from __future__ import annotations

from typing import Any, Sequence

from rag.chunking.base import Chunk
from rag.documents import Document
from rag.store.points import PointRecord, point_id
from rag.store.sparse import sparse_vector
from rag.store.terms import TERMS_FIELD, chunk_terms


def point_payload(
    doc: Document, chunk: Chunk, position: int, strategy: str, build: str, model: str, total: int,
    content_hash: str | None = None, context: str | None = None,
) -> dict[str, Any]:
    """The payload of chunk number `position` of the `total` chunks of `doc`."""
    payload = {
        # The contract's keys.
        "url": doc.url,
        "doc_id": doc.doc_id,  # the identity (with `source`); the url may change
        "title": doc.title,
        "section": chunk.section,
        "heading_path": list(chunk.heading_path),
        "order": position,
        "modified": doc.modified,
        "text": chunk.text,
        "header": chunk.header,
        "strategy": strategy,
        "source": doc.source,
        "origin": doc.origin,  # which folder: with `source` and `doc_id`, the document's identity
        "access": list(doc.access),
        "content_hash": content_hash or doc.content_hash,
        # Added: completeness and build checks for re-runs, and offsets for previews.
        "chunks": total,
        "build": build,
        "embedding_model": model,
        "start": chunk.start,
        "end": chunk.end,
        "warnings": list(chunk.warnings),
        # The answerability gate counts, under the reader's access filter, the chunks holding a term.
        TERMS_FIELD: chunk_terms(chunk.embedding_text),
    }
    if context:
        # Embedded and indexed before the body, never cited. Only when there is one: a chunk that
        # got none (mode none, a page without sections under auto, a context cut to nothing at the
        # model's window) has no field, the same way whatever the mode.
        payload["context"] = context
    return payload


def point_records(
    key: str, doc: Document, chunks: Sequence[Chunk], vectors: Sequence[list[float]], texts: Sequence[str],
    contexts: Sequence[str], strategy: str, build: str, model: str, content_hash: str,
) -> list[PointRecord]:
    """The points of `doc` (identity `key`): each chunk's vector, the BM25 vector of its embedded
    text (`texts`), its payload with its context."""
    return [
        PointRecord(
            id=point_id(key, position),
            dense=vector,
            sparse=sparse_vector(text),
            payload=point_payload(doc, chunk, position, strategy, build, model, len(chunks), content_hash, context),
        )
        # Ids and `order` follow the position, so they are always 0..n-1 (is_unchanged relies on it).
        for position, (chunk, vector, text, context) in enumerate(zip(chunks, vectors, texts, contexts))
    ]
