"""The ingestion run: documents -> chunks -> vectors -> Qdrant points, idempotent.

Re-running is always safe: point ids are uuid5(url, chunk index), and a document is skipped
only when its stored points are one complete copy of this version (rag.ingest.versions).
A changed document gets its new points first, then loses the ones it no longer has.
The decisions are pure functions beside this module (versions, strategy_choice, vector_checks,
point_payload); this one reads the source and writes to the store.
"""

from __future__ import annotations

import time
from collections.abc import Sized
from typing import Any, Iterable, Iterator

from rag.i18n import t
from rag.chunking import make_chunker
from rag.chunking.base import Chunk
from rag.chunking.token_cap import cap_tokens
from rag.embeddings.embedded import over_limit_note
from rag.documents import SKIPPED, WARNING, Document, Problem
from rag.enrich import (
    MODEL_MODES,
    NONE,
    Enricher,
    enriched_text,
    make_enricher,
    resolve_enrichment,
)
from rag.enrich.model import EnrichmentError
from rag.errors import ConfigError, EmbeddingError, RagError, SourceError
from rag.store.collection_size import embedded_size_note
from rag.ingest.report import IngestProgress, IngestReport, ProgressCallback
from rag.ingest.point_payload import point_payload
from rag.store.points import PointRecord, StoredPoint, point_id
from rag.store.sparse import check_sparse_version, sparse_vector
from rag.store.store import Store
from rag.ingest.strategy_choice import resolve_strategy
from rag.store.terms import TERMS_VERSION
from rag.ingest.vector_checks import batch_problem, sample_problem, stored_vectors_usable
from rag.ingest.versions import VERSION_KEYS, build_key, is_unchanged

_EMBED_BATCH = 16  # chunks per embedding call: progress moves within long documents
_VERIFY_SAMPLE = 5
_MAX_EMBED_FAILURES_IN_A_ROW = 5  # the server is down, not one document bad: stop instead of failing all


class _Run:
    def __init__(self, items, store, embedder, collection, strategy, chunk_settings, full, prune, progress,
                 enricher: Enricher):
        self.items = items
        self.store = store
        self.embedder = embedder
        self.collection = collection
        self.chunker = make_chunker(strategy, **(chunk_settings or {}))
        self.strategy = strategy
        self.chunk_settings = self.chunker.settings()
        self.full = full
        self.prune = prune
        self.progress = progress
        self.model = embedder.model_id
        self.enricher = enricher
        self.build = build_key(strategy, self.chunk_settings, self.model, enricher.mode)
        self.report = IngestReport(collection=collection, strategy=strategy, embedding_model=self.model)
        self.started = time.monotonic()
        self.embed_seconds = 0.0
        self.docs_done = 0
        self.chunks_done = 0
        self.current = ""
        self.written_ids: list[str] = []
        self.seen: set[str] = set()
        self.index: dict[str, list[StoredPoint]] = {}
        self.recreated = False
        self.created = False  # this run made the collection: every point then carries term keys
        self.embed_failures_in_a_row = 0
        self._sized_total: int | None = None

    # -- progress --------------------------------------------------------------------------

    def _total(self) -> int | None:
        if isinstance(self.items, Sized):
            if self._sized_total is None:
                # Warnings accompany a document; they are not documents themselves.
                self._sized_total = sum(
                    1 for x in self.items if not (isinstance(x, Problem) and x.level == WARNING)
                )
            return self._sized_total
        total = getattr(self.items, "total", None)
        return total if isinstance(total, int) else None

    def tell(self, phase: str, outcome: str = "") -> None:
        if self.progress is None:
            return
        elapsed = time.monotonic() - self.started
        rate = self.chunks_done / self.embed_seconds if self.embed_seconds > 0 else 0.0
        total = self._total()
        eta = None
        if total is not None and self.docs_done:
            eta = max(0.0, (total - self.docs_done) * elapsed / self.docs_done)
        stats = self.enricher.stats
        self.progress(
            IngestProgress(self.docs_done, total, self.chunks_done, rate, eta, self.current, phase, outcome,
                           stats.prompt_tokens + stats.completion_tokens, stats.seconds)
        )

    # -- the run ---------------------------------------------------------------------------

    def start(self) -> None:
        dimension = self.embedder.dimension
        if self.full:
            return  # recreated on the first item, so a source failing at once destroys nothing
        self.created = not self.store.exists(self.collection)
        info = self.store.ensure_collection(
            self.collection, self.model, dimension, self.strategy, self.chunk_settings
        )
        check_sparse_version(info)  # new points must carry the terms its queries will use
        for point in self.store.scroll(self.collection, payload=VERSION_KEYS):
            url = point.payload.get("url")
            if isinstance(url, str):
                self.index.setdefault(url, []).append(point)

    def recreate_once(self) -> None:
        if self.full and not self.recreated:
            self.store.recreate_collection(
                self.collection, self.model, self.embedder.dimension, self.strategy, self.chunk_settings
            )
            self.recreated = True
            self.created = True

    def iterate(self) -> Iterator[Document | Problem]:
        iterator = iter(self.items)
        while True:
            self.current = ""
            self.tell("reading")
            try:
                item = next(iterator)
            except StopIteration:
                return
            except SourceError as exc:
                self.report.aborted = t("ingest.source_failed", error=exc)
                return
            yield item

    def run(self) -> IngestReport:
        self.start()
        for item in self.iterate():
            self.recreate_once()
            if isinstance(item, Problem):
                self.current = item.item
                if item.level == WARNING:
                    # The document it is about follows: marking it seen would drop it as a duplicate.
                    self.report.warnings.append(str(item))
                    self.tell("indexed", "warning")
                elif item.level == SKIPPED:
                    # Not marked seen: a post that became a redirect stub loses its old points on --prune.
                    self.report.skipped.append((item.item, item.message))
                    self.docs_done += 1
                    self.tell("indexed", "skipped")
                else:
                    if item.withdraw:
                        self.withdraw(item.item)
                    else:
                        self.seen.add(item.item)  # a file that failed to read keeps its old points
                    self.report.failed.append((item.item, item.message))
                    self.docs_done += 1
                    self.tell("indexed", "failed")
                continue
            outcome = self.document(item)
            self.docs_done += 1
            self.tell("indexed", outcome)
            if self.report.aborted:
                break
        if self.full and self.report.aborted is None:
            self.recreate_once()  # an empty source still means an empty, rebuilt collection
        if self.prune and self.report.aborted is None and not self.full:
            if self.seen or not self.index:
                self.prune_unseen()
            else:
                # A site or folder that answers empty by mistake must not empty the collection.
                self.report.warnings.append(t("ingest.nothing_listed"))
        if self.store.exists(self.collection):
            built = {"terms_version": TERMS_VERSION} if self.created else {}
            self.store.update_metadata(
                self.collection, strategy=self.strategy, chunk_settings=self.chunk_settings,
                enrichment=self.enricher.metadata(), **built,
            )
            self.store.finish(self.collection)  # every write on disk; HNSW when the collection is large
            self.verify()
            points = self.store.count(self.collection)
            note = embedded_size_note(points) if self.store.backend == "embedded" else None
            if note:
                self.report.warnings.append(note)
        if self.enricher.mode != NONE:
            self.report.enrichment = self.enricher.stats.to_dict()
        self.report.seconds = time.monotonic() - self.started
        self.current = ""
        self.tell("done")
        return self.report

    def document(self, doc: Document) -> str:
        self.current = doc.title or doc.url
        if doc.url in self.seen:
            self.report.warnings.append(t("ingest.twice", url=doc.url))
            return "warning"
        self.seen.add(doc.url)
        old = self.index.get(doc.url, [])
        if is_unchanged(doc, old, self.build):
            if self.vectors_usable(old):
                self.report.unchanged += 1
                return "unchanged"
            self.report.warnings.append(t("ingest.reembedded", url=doc.url))
        try:
            chunks = self.chunker.chunk(doc.markdown, title=doc.title)
            count, window = getattr(self.embedder, "token_count", None), getattr(self.embedder, "max_tokens", None)
            if count is not None and window:
                chunks = cap_tokens(chunks, doc.markdown, count, int(window))
        except RagError as exc:
            self.report.failed.append((doc.url, t("ingest.chunking_failed", error=exc)))
            return "failed"
        if not chunks:
            self.report.failed.append((doc.url, t("ingest.no_chunks")))
            return "failed"
        # Hashed once: per chunk, a 5 MB document would be hashed thousands of times over.
        content_hash = doc.content_hash
        try:
            if self.enricher.mode != NONE:
                self.tell("enriching")
            contexts = self.enricher.contexts(doc, chunks, content_hash, lambda: self.tell("enriching"))
            texts = [enriched_text(c, ctx) for c, ctx in zip(chunks, contexts)]
            vectors = self.embed(doc, chunks, texts)
        except (EmbeddingError, EnrichmentError) as exc:
            self.report.failed.append((doc.url, str(exc)))
            self.embed_failures_in_a_row += 1
            if self.embed_failures_in_a_row >= _MAX_EMBED_FAILURES_IN_A_ROW:
                key = "ingest.failed_embed" if isinstance(exc, EmbeddingError) else "ingest.failed_contexts"
                self.report.aborted = t(key, n=self.embed_failures_in_a_row, error=exc)
            return "failed"
        self.embed_failures_in_a_row = 0
        self.tell("writing")
        keep_context = self.enricher.mode != NONE
        records = [
            PointRecord(
                id=point_id(doc.url, position),
                dense=vector,
                sparse=sparse_vector(text),
                payload=point_payload(
                    doc, chunk, position, self.strategy, self.build, self.model, len(chunks), content_hash,
                    context if keep_context else None,
                ),
            )
            # Ids and `order` follow the position, so they are always 0..n-1 (is_unchanged relies on it).
            for position, (chunk, vector, text, context) in enumerate(zip(chunks, vectors, texts, contexts))
        ]
        self.store.upsert(self.collection, records)
        new_ids = {r.id for r in records}
        stale = [p.id for p in old if p.id not in new_ids]
        self.report.points_deleted += self.store.delete_points(self.collection, stale)
        self.store.commit(self.collection)  # the document is complete: durable within seconds
        self.written_ids.extend(sorted(new_ids))
        self.report.chunks_written += len(records)
        if old:
            self.report.changed += 1
            self.report.changed_urls.append(doc.url)
            return "changed"
        self.report.new += 1
        self.report.new_urls.append(doc.url)
        return "new"

    def vectors_usable(self, points: list[StoredPoint]) -> bool:
        """Do the stored vectors of an otherwise unchanged document hold up? (Earlier versions
        stored NaN points from a server returning 1e308, and verification only samples.)"""
        stored = self.store.get_points(self.collection, [p.id for p in points], with_vectors=True)
        return stored_vectors_usable(stored, len(points), self.embedder.dimension)

    def embed(self, doc: Document, chunks: list[Chunk], texts: list[str]) -> list[list[float]]:
        dimension = self.embedder.dimension
        vectors: list[list[float]] = []
        for start in range(0, len(chunks), _EMBED_BATCH):
            self.tell("embedding")
            batch = chunks[start : start + _EMBED_BATCH]
            labels = [f"{doc.url}#{c.index}" for c in batch]
            began = time.monotonic()
            got = self.embedder.embed_documents(texts[start : start + _EMBED_BATCH], labels=labels)
            self.embed_seconds += time.monotonic() - began
            truncated = getattr(self.embedder, "last_truncated", None) or []
            for label in truncated:
                self.report.warnings.append(t("doc.about", item=label, note=over_limit_note()))
            problem = batch_problem(got, labels, dimension)
            if problem is not None:
                raise EmbeddingError(problem)
            vectors.extend(got)
            self.chunks_done += len(batch)
        return vectors

    def withdraw(self, url: str) -> None:
        """Remove what an earlier run indexed under `url`: the source now refuses it for safety."""
        stale = self.index.pop(url, [])
        if stale:
            self.report.points_deleted += self.store.delete_points(self.collection, [p.id for p in stale])
            self.report.warnings.append(t("ingest.withdrawn", url=url))

    def prune_unseen(self) -> None:
        self.tell("pruning")
        for url, points in sorted(self.index.items()):
            if url not in self.seen:
                self.report.points_deleted += self.store.delete_points(self.collection, [p.id for p in points])
                self.store.commit(self.collection)
                self.report.pruned += 1
                self.report.pruned_urls.append(url)

    def verify(self) -> None:
        """Read a sample of stored points back, vectors included, and check them."""
        self.tell("verifying")
        if self.written_ids:
            step = max(1, len(self.written_ids) // _VERIFY_SAMPLE)
            sample = self.store.get_points(
                self.collection, self.written_ids[::step][:_VERIFY_SAMPLE], with_vectors=True
            )
            expected = min(_VERIFY_SAMPLE, len(self.written_ids[::step]))
        else:
            sample = list(self.store.scroll(self.collection, with_vectors=True, limit=3))
            expected = len(sample)
        self.report.verify_error = sample_problem(sample, expected, self.embedder.dimension)
        if self.report.verify_error is None:
            self.report.verified = len(sample)


def ingest(
    items: Iterable[Document | Problem],
    store: Store,
    embedder: Any,
    collection: str,
    strategy: str | None = None,
    chunk_settings: dict[str, Any] | None = None,
    full: bool = False,
    prune: bool = False,
    progress: ProgressCallback | None = None,
    enricher: Enricher | None = None,
) -> IngestReport:
    """Index `items` into `collection`; see the module docstring for the guarantees.

    `strategy` None: the collection's own strategy and settings, else the default strategy.
    `full` rebuilds the collection from scratch; `prune` deletes the points of urls this run
    did not see (only when the source was read to the end). A failed document is reported in
    `report.failed` and the others are still indexed. StoreError is fatal and propagates, and
    so does ConfigError for a strategy that differs from the one the collection was built with.

    `enricher` (rag.enrich.make_enricher) writes each chunk's context; None: the collection's own
    enrichment, which must then need no chat model (else ConfigError), or none for a new one.
    Another enrichment than the collection's needs `full`, like another strategy.
    """
    info = store.collection_info(collection)
    strategy, chunk_settings = resolve_strategy(info, strategy, chunk_settings, full)
    mode = resolve_enrichment(info, enricher.mode if enricher is not None else None, full)
    if enricher is None:
        if mode in MODEL_MODES:
            raise ConfigError(t("ingest.needs_enricher", name=repr(collection), mode=mode))
        enricher = make_enricher(mode)
    return _Run(items, store, embedder, collection, strategy, chunk_settings, full, prune, progress, enricher).run()
