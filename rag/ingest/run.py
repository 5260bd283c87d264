"""The ingestion run: documents -> chunks -> vectors -> Qdrant points, idempotent.

Re-running is always safe: point ids are uuid5(identity, chunk index), and a document is skipped
only when its stored points are one complete copy of this version (rag.ingest.versions).
A changed document gets its new points first, then loses the ones it no longer has.

A document is its source plus its id (Document.doc_id): a post whose url changed (a permalink
change) keeps its points, their url updated in place; collections written before points carried
the id are recognised by url, or by content for a post of the same source whose url changed.
A document never replaces another source's (the same id from elsewhere, or its url) unless
`replace` says so; until then it is held back as a failure that says what it would replace.
The decisions are pure beside this module (versions, strategy_choice, vector_checks, point_payload,
window_cut, stored_index, run_progress); the embedding calls are in embedding_batches, the removals
(withdrawn, pruned) in removals; this one reads the source and writes to the store.
"""

from __future__ import annotations

import time
from typing import Any, Iterable, Iterator

from rag.i18n import t
from rag.chunking import make_chunker
from rag.embeddings.base import tokenizer_and_window
from rag.documents import SKIPPED, WARNING, Document, Problem
from rag.enrich import (
    NONE,
    Enricher,
    enriched_text,
    fit_context,
    prepare_enricher,
)
from rag.enrich.model import EnrichmentError
from rag.errors import EmbeddingError, RagError, SourceError
from rag.store.disk_space import DiskFullError
from rag.store.collection_size import embedded_size_note
from rag.ingest.embedding_batches import EmbedTally, embed_chunks
from rag.ingest.report import IngestReport, ProgressCallback
from rag.ingest.point_payload import point_records
from rag.ingest.removals import Removals
from rag.ingest.run_progress import RunProgress
from rag.ingest.stored_index import StoredIndex
from rag.store.points import PointRecord, StoredPoint
from rag.store.sparse import check_sparse_version
from rag.store.store import Store
from rag.ingest.strategy_choice import resolve_strategy
from rag.store.terms import TERMS_VERSION
from rag.ingest.vector_checks import sample_problem, stored_vectors_usable
from rag.ingest.versions import VERSION_KEYS, build_key, is_unchanged, needs_relink
from rag.ingest.window_cut import window_chunks

_VERIFY_SAMPLE = 5
_MAX_EMBED_FAILURES_IN_A_ROW = 5  # the server is down, not one document bad: stop instead of failing all


class _Run:
    def __init__(self, items, store, embedder, collection, strategy, chunk_settings, full, prune, progress,
                 enricher: Enricher, replace: bool = False):
        self.items = items
        self.store = store
        self.embedder = embedder
        self.collection = collection
        self.chunker = make_chunker(strategy, **(chunk_settings or {}))
        self.strategy = strategy
        self.chunk_settings = self.chunker.settings()
        self.full = full
        self.prune = prune
        self.replace = replace
        # What this source may remove on --prune (an anonymous reading of a site never saw its
        # private posts, a site never listed a folder's files); None: everything it did not list.
        self.prunable = getattr(items, "prunable", None)
        self.progress = RunProgress(items, progress)
        self.model = embedder.model_id
        self.enricher = enricher
        self.build = build_key(strategy, self.chunk_settings, self.model, enricher.mode)
        self.report = IngestReport(collection=collection, strategy=strategy, embedding_model=self.model)
        self.embedded = EmbedTally()
        self.docs_done = 0
        self.current = ""
        self.written_ids: list[str] = []
        self.seen: set[str] = set()
        self.stored = StoredIndex()  # what the collection held when the run began, by document
        self.removals = Removals(store, collection, self.stored, self.report)
        self.recreated = False
        self.embed_failures_in_a_row = 0
        self.passages = (0, 0)  # the current document's passages embedded, of its total
        # The model's tokenizer (else the estimate) and its window (the bundled model's cap, a
        # server's own word, else None: nothing cut).
        self.window = tokenizer_and_window(embedder)

    def tell(self, phase: str, outcome: str = "") -> None:
        # Passages only while a document is under way: once it is counted done, its share is in docs_done.
        passages = self.passages if phase in ("embedding", "writing") else (0, 0)
        self.progress.tell(self.docs_done, self.embedded, self.current, phase, outcome, self.enricher.stats,
                           passages)

    def embedding(self, done: int, of: int) -> None:
        self.passages = (done, of)
        self.tell("embedding")

    # -- the run ---------------------------------------------------------------------------

    def start(self) -> None:
        dimension = self.embedder.dimension
        if self.full:
            return  # recreated on the first item, so a source failing at once destroys nothing
        if not self.store.exists(self.collection):
            return  # made at the first write: a source that fails at once leaves no empty collection
        info = self.store.ensure_collection(
            self.collection, self.model, dimension, self.strategy, self.chunk_settings
        )
        check_sparse_version(info)  # new points must carry the terms its queries will use
        for point in self.store.scroll(self.collection, payload=VERSION_KEYS):
            self.stored.add(point)

    def ensure(self) -> None:
        """The collection exists before anything is written to it."""
        if not self.store.exists(self.collection):
            self.store.ensure_collection(
                self.collection, self.model, self.embedder.dimension, self.strategy, self.chunk_settings
            )
            self.record_creation()

    def recreate_once(self) -> None:
        if self.full and not self.recreated:
            self.store.recreate_collection(
                self.collection, self.model, self.embedder.dimension, self.strategy, self.chunk_settings
            )
            self.record_creation()
            self.recreated = True

    def record_creation(self) -> None:
        # At creation, not only at the end: a run killed midway (a closed tab) leaves points whose
        # contexts its re-run must keep making, and a collection with no record would be read as
        # built with no enrichment and, for good, as built before the term keys every point of it has.
        self.store.update_metadata(self.collection, enrichment=self.enricher.metadata(),
                                   terms_version=TERMS_VERSION)

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
            try:
                self.recreate_once()
            except DiskFullError as exc:
                self.report.aborted = str(exc)
                break
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
                        self.removals.withdraw(item.item)
                    else:
                        self.seen.add(item.item)  # a file that failed to read keeps its old points
                    self.report.failed.append((item.item, item.message))
                    self.docs_done += 1
                    self.tell("indexed", "failed")
                continue
            try:
                outcome = self.document(item)
            except DiskFullError as exc:
                # Refused before anything of this document was written: the others stay as they are.
                self.seen.add(item.url)
                self.report.failed.append((item.url, str(exc)))
                self.report.aborted = str(exc)
                break
            self.docs_done += 1
            self.tell("indexed", outcome)
            if self.report.aborted:
                break
        if self.full and self.report.aborted is None:
            self.recreate_once()  # an empty source still means an empty, rebuilt collection
        if self.report.aborted is None:
            self.ensure()  # a source read to the end with nothing new still gives its collection
        if self.prune and self.report.aborted is None and not self.full:
            if self.seen or not self.stored.points:
                self.tell("pruning")
                self.removals.prune_unseen(self.seen, self.prunable, getattr(self.items, "prune_restricted", None))
            else:
                # A site or folder that answers empty by mistake must not empty the collection.
                self.report.warnings.append(t("ingest.nothing_listed"))
        if self.store.exists(self.collection):
            self.store.update_metadata(
                self.collection, strategy=self.strategy, chunk_settings=self.chunk_settings,
                enrichment=self.enricher.metadata(),
            )
            self.store.finish(self.collection)  # every write on disk; HNSW when the collection is large
            self.verify()
            points = self.store.count(self.collection)
            note = embedded_size_note(points) if self.store.backend == "embedded" else None
            if note:
                self.report.warnings.append(note)
        if self.enricher.mode != NONE:
            self.report.enrichment = self.enricher.stats.to_dict()
        self.report.seconds = time.monotonic() - self.progress.started
        self.current = ""
        self.tell("done")
        return self.report

    def document(self, doc: Document) -> str:
        self.current = doc.title or doc.url
        key = doc.doc_id
        if key in self.seen:
            self.report.warnings.append(t("ingest.twice", url=doc.url))
            return "warning"
        self.seen.add(key)
        old = self.stored.points.get(key) or self.stored.earlier_points(doc, self.seen)
        taken = self.stored.replaced(doc, old)
        if taken:
            if not self.replace:
                self.seen.discard(key)
                self.report.failed.append((doc.url, t("replace.held_back_run", sentence=taken.sentence())))
                return "failed"
            for other in self.stored.others_at(doc):
                self.removals.withdraw(other, quiet=True)  # the replacement asked for: the other document goes
        if is_unchanged(doc, old, self.build):
            if self.vectors_usable(old):
                if needs_relink(doc, old):
                    self.relink(doc, old)
                self.report.unchanged += 1
                return "unchanged"
            self.report.warnings.append(t("ingest.reembedded", url=doc.url))
        try:
            chunks, window_warnings = window_chunks(self.chunker, doc, self.window)
        except RagError as exc:
            self.report.failed.append((doc.url, t("ingest.chunking_failed", error=exc)))
            return "failed"
        if not chunks:
            self.report.failed.append((doc.url, t("ingest.no_chunks")))
            return "failed"
        self.report.warnings.extend(window_warnings)  # said before anything of it is written
        # Hashed once: per chunk, a 5 MB document would be hashed thousands of times over.
        content_hash = doc.content_hash
        try:
            if self.enricher.mode != NONE:
                self.tell("enriching")
            contexts = [fit_context(c, ctx, *self.window) for c, ctx in
                        zip(chunks, self.enricher.contexts(doc, chunks, content_hash, lambda: self.tell("enriching")))]
            texts = [enriched_text(c, ctx) for c, ctx in zip(chunks, contexts)]
            vectors = embed_chunks(self.embedder, doc, chunks, texts, self.embedded,
                                   lambda done: self.embedding(done, len(chunks)),
                                   self.report.warnings.append)
        except (EmbeddingError, EnrichmentError) as exc:
            self.report.failed.append((doc.url, str(exc)))
            self.embed_failures_in_a_row += 1
            if self.embed_failures_in_a_row >= _MAX_EMBED_FAILURES_IN_A_ROW:
                key = "ingest.failed_embed" if isinstance(exc, EmbeddingError) else "ingest.failed_contexts"
                self.report.aborted = t(key, n=self.embed_failures_in_a_row, error=exc)
            return "failed"
        self.embed_failures_in_a_row = 0
        self.tell("writing")
        self.ensure()
        records = point_records(key, doc, chunks, vectors, texts, contexts, self.strategy, self.build, self.model,
                                content_hash)
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

    def relink(self, doc: Document, points: list[StoredPoint]) -> None:
        """Write an unchanged document's new url, date and identity into its points, vectors kept."""
        stored = self.store.get_points(self.collection, [p.id for p in points], with_vectors=True)
        updates = {"url": doc.url, "modified": doc.modified, "doc_id": doc.doc_id, "origin": doc.origin}
        self.store.upsert(self.collection, [
            PointRecord(id=p.id, dense=p.vector or [], sparse=p.sparse, payload={**p.payload, **updates})
            for p in stored
        ])
        self.store.commit(self.collection)
        self.report.relinked_urls += [doc.url for _ in self.stored.relinked(doc, points)]

    def vectors_usable(self, points: list[StoredPoint]) -> bool:
        """Do the stored vectors of an otherwise unchanged document hold up? (Earlier versions
        stored NaN points from a server returning 1e308, and verification only samples.)"""
        stored = self.store.get_points(self.collection, [p.id for p in points], with_vectors=True)
        return stored_vectors_usable(stored, len(points), self.embedder.dimension)

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
    replace: bool = False,
) -> IngestReport:
    """Index `items` into `collection`; see the module docstring for the guarantees.

    `strategy` None: the collection's own strategy and settings, else the default strategy.
    `full` rebuilds the collection from scratch; `prune` deletes the points of urls this run
    did not see (only when the source was read to the end). A failed document is reported in
    `report.failed` and the others are still indexed. StoreError is fatal and propagates, and
    so does ConfigError for a strategy that differs from the one the collection was built with.

    `enricher` (rag.enrich.make_enricher) writes each chunk's context; None: the collection's own
    enrichment, which must then need no chat model (else ConfigError), or none for a new one (the
    command line, the Ingest page and the demo pass the default, `auto`: rag.enrich.auto).
    Another enrichment than the collection's needs `full`, like another strategy.

    `replace` lets a document replace another source's (same identity, or same url); without it
    such a document is reported failed and the other one is kept.
    """
    info = store.collection_info(collection)
    strategy, chunk_settings = resolve_strategy(info, strategy, chunk_settings, full)
    enricher = prepare_enricher(info, enricher, full, collection)
    return _Run(items, store, embedder, collection, strategy, chunk_settings, full, prune, progress, enricher,
                replace).run()
