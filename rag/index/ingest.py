"""The ingestion pipeline: documents -> chunks -> vectors -> Qdrant points, idempotent.

Re-running is always safe. Point ids are uuid5(url, chunk index); a document is skipped only
when *all* its stored points describe the same version (modified, content hash, access,
strategy + chunk settings + model) and there are exactly as many as that version had chunks,
so a run killed in the middle of a document's writes redoes that document next time.
A changed document gets its new points first, then loses the ones it no longer has.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sized
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Iterator

from rag.chunking import DEFAULT_STRATEGY, make_chunker
from rag.chunking.base import Chunk
from rag.chunking.token_cap import cap_tokens
from rag.embeddings import OVER_LIMIT_NOTE
from rag.embeddings.base import vector_problem
from rag.documents import SKIPPED, WARNING, Document, Problem
from rag.enrich import (
    MODEL_MODES,
    NONE,
    Enricher,
    EnrichmentError,
    enriched_text,
    enrichment_summary,
    make_enricher,
    resolve_enrichment,
)
from rag.errors import ConfigError, EmbeddingError, RagError, SourceError
from rag.index.sparse import sparse_vector
from rag.index.store import PointRecord, Store, StoredPoint, now_iso, point_id
from rag.index.terms import TERMS_FIELD, TERMS_VERSION, chunk_terms

_EMBED_BATCH = 16  # chunks per embedding call: progress moves within long documents
_VERIFY_SAMPLE = 5
_MAX_EMBED_FAILURES_IN_A_ROW = 5  # the server is down, not one document bad: stop instead of failing all
# Measured (benchmarks/README.md, "The embedded store"): Qdrant Edge answers hybrid searches
# under the access filter in milliseconds up to 100k chunks, the largest size measured.
EMBEDDED_COMFORT_LIMIT = 100_000


def embedded_size_note(points: int) -> str | None:
    """What to tell the user of an embedded collection larger than the sizes measured; else None."""
    if points <= EMBEDDED_COMFORT_LIMIT:
        return None
    return (
        f"the collection holds {points:,} chunks, more than the {EMBEDDED_COMFORT_LIMIT:,} the embedded store "
        "was measured with (benchmarks/README.md): it keeps working, but a Qdrant server "
        "(RAG_QDRANT_URL, `rag migrate`) is the measured choice from there"
    )
_INDEX_KEYS = ["url", "order", "modified", "content_hash", "access", "build", "chunks"]


@dataclass
class IngestProgress:
    docs_done: int
    docs_total: int | None
    chunks_done: int
    rate: float  # chunks embedded per second so far
    eta: float | None  # seconds left, when the total is known
    current: str  # title of the document being processed
    phase: str  # "reading" | "enriching" | "embedding" | "writing" | "indexed" | "pruning" | "verifying" | "done"
    outcome: str = ""  # with phase "indexed": "new" | "changed" | "unchanged" | "skipped" | "failed" | "warning"
    enrich_tokens: int = 0  # tokens the chat model read and wrote for contexts so far (cache hits cost none)
    enrich_seconds: float = 0.0


@dataclass
class IngestReport:
    collection: str
    strategy: str
    embedding_model: str
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (item, reason)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (item, reason): nothing to index, not a failure
    pruned: int = 0
    chunks_written: int = 0
    points_deleted: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    verified: int = 0  # stored points read back with a vector of the right size, non-zero
    verify_error: str | None = None
    aborted: str | None = None  # why the run stopped before the end of the source (no pruning then)
    enrichment: dict[str, Any] | None = None  # mode, model, contexts, cached, tokens, seconds (when enriched)
    new_urls: list[str] = field(default_factory=list)
    changed_urls: list[str] = field(default_factory=list)
    pruned_urls: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed and self.verify_error is None and self.aborted is None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["failed"] = [{"item": item, "reason": reason} for item, reason in self.failed]
        data["skipped"] = [{"item": item, "reason": reason} for item, reason in self.skipped]
        data["ok"] = self.ok
        return data

    def summary(self) -> str:
        lines = [
            f"Collection {self.collection!r} ({self.strategy}, {self.embedding_model}): "
            f"{self.new} new, {self.changed} changed, {self.unchanged} unchanged, "
            + (f"{len(self.skipped)} skipped (no text), " if self.skipped else "")
            + f"{len(self.failed)} failed, {self.pruned} pruned; "
            f"{self.chunks_written} chunks written in {self.seconds:.1f}s.",
        ]
        if self.enrichment:
            lines.append(enrichment_summary(self.enrichment))
        if self.verify_error:
            lines.append(f"Verification FAILED: {self.verify_error}")
        elif self.verified:
            lines.append(f"Verified {self.verified} stored points (vector size and non-zero).")
        if self.aborted:
            lines.append(f"Stopped early: {self.aborted}")
        for message in self.warnings:
            lines.append(f"warning: {message}")
        for item, reason in self.skipped:
            lines.append(f"skipped {item}: {reason}")
        for item, reason in self.failed:
            lines.append(f"FAILED {item}: {reason}")
        return "\n".join(lines)


ProgressCallback = Callable[[IngestProgress], None]


def build_key(strategy: str, chunk_settings: dict[str, Any], model: str, enrichment: str = NONE) -> str:
    """Short fingerprint of how chunks were made and embedded; a change means re-embedding."""
    parts: list[Any] = [strategy, chunk_settings, model]
    if enrichment != NONE:  # unenriched collections keep the key they always had
        parts.append(enrichment)
    raw = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]


def is_unchanged(doc: Document, points: list[StoredPoint], build: str) -> bool:
    """True when the stored points are exactly one complete copy of this version of `doc`."""
    if not points:
        return False
    expected = {
        "modified": doc.modified, "content_hash": doc.content_hash, "build": build,
        "access": sorted(doc.access),
    }
    chunks = points[0].payload.get("chunks")
    if not isinstance(chunks, int) or chunks != len(points):
        return False
    for p in points:
        got = {k: p.payload.get(k) for k in expected}
        got["access"] = sorted(got["access"] or [])
        if got != expected or p.payload.get("chunks") != chunks:
            return False
    return {p.id for p in points} == {point_id(doc.url, i) for i in range(chunks)}


def _payload(
    doc: Document, chunk: Chunk, position: int, strategy: str, build: str, model: str, total: int,
    content_hash: str | None = None, context: str | None = None,
) -> dict[str, Any]:
    payload = {
        # The contract's keys.
        "url": doc.url,
        "title": doc.title,
        "section": chunk.section,
        "heading_path": list(chunk.heading_path),
        "order": position,
        "modified": doc.modified,
        "text": chunk.text,
        "header": chunk.header,
        "strategy": strategy,
        "source": doc.source,
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
    if context is not None:
        payload["context"] = context  # embedded and indexed before the body, never cited
    return payload


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
        self.store.ensure_collection(self.collection, self.model, dimension, self.strategy, self.chunk_settings)
        for point in self.store.scroll(self.collection, payload=_INDEX_KEYS):
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
                self.report.aborted = f"the source failed: {exc}"
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
                self.report.warnings.append(
                    "the source listed no document: nothing was pruned; to empty the collection on purpose, "
                    "rebuild it with --full"
                )
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
            self.report.warnings.append(f"{doc.url}: the source listed this url twice; the second copy was ignored")
            return "warning"
        self.seen.add(doc.url)
        old = self.index.get(doc.url, [])
        if is_unchanged(doc, old, self.build):
            if self.vectors_usable(old):
                self.report.unchanged += 1
                return "unchanged"
            self.report.warnings.append(f"{doc.url}: its stored vectors were unusable: re-embedded")
        try:
            chunks = self.chunker.chunk(doc.markdown, title=doc.title)
            count, window = getattr(self.embedder, "token_count", None), getattr(self.embedder, "max_tokens", None)
            if count is not None and window:
                chunks = cap_tokens(chunks, doc.markdown, count, int(window))
        except RagError as exc:
            self.report.failed.append((doc.url, f"chunking failed: {exc}"))
            return "failed"
        if not chunks:
            self.report.failed.append((doc.url, "no text to index (the document produced no chunks)"))
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
                what = "embed" if isinstance(exc, EmbeddingError) else "get their contexts from the chat model"
                self.report.aborted = (
                    f"{self.embed_failures_in_a_row} documents in a row failed to {what}; last error: {exc}"
                )
            return "failed"
        self.embed_failures_in_a_row = 0
        self.tell("writing")
        keep_context = self.enricher.mode != NONE
        records = [
            PointRecord(
                id=point_id(doc.url, position),
                dense=vector,
                sparse=sparse_vector(text),
                payload=_payload(
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
        self.store.commit(self.collection)  # the document is complete: durable within a second
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
        return len(stored) == len(points) and all(
            len(p.vector or []) == self.embedder.dimension and vector_problem(p.vector or []) is None
            for p in stored
        )

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
                self.report.warnings.append(f"{label}: {OVER_LIMIT_NOTE}")
            if len(got) != len(batch):
                raise EmbeddingError(f"the embedding model returned {len(got)} vectors for {len(batch)} chunks")
            for label, vector in zip(labels, got):
                if len(vector) != dimension:
                    raise EmbeddingError(
                        f"the embedding model returned {len(vector)} dimensions for {label}, "
                        f"the collection has {dimension}"
                    )
                # Checked here too, whatever the embedder: a vector the store turns into NaN
                # would stay there looking indexed.
                problem = vector_problem(vector)
                if problem is not None:
                    raise EmbeddingError(f"the embedding model returned {problem} for {label}: not stored")
            vectors.extend(got)
            self.chunks_done += len(batch)
        return vectors

    def withdraw(self, url: str) -> None:
        """Remove what an earlier run indexed under `url`: the source now refuses it for safety."""
        stale = self.index.pop(url, [])
        if stale:
            self.report.points_deleted += self.store.delete_points(self.collection, [p.id for p in stale])
            self.report.warnings.append(f"{url}: its earlier copy was removed from the collection")

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
        dimension = self.embedder.dimension
        if len(sample) != expected:
            self.report.verify_error = f"{expected - len(sample)} of {expected} sampled points could not be read back"
            return
        for point in sample:
            vector = point.vector or []
            if len(vector) != dimension:
                self.report.verify_error = (
                    f"point {point.id} ({point.payload.get('url')}) has {len(vector)} dimensions, expected {dimension}"
                )
                return
            problem = vector_problem(vector)
            if problem is not None:
                self.report.verify_error = (
                    f"point {point.id} ({point.payload.get('url')}) has an unusable vector ({problem}); "
                    "the next run re-embeds that document"
                )
                return
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
            raise ConfigError(
                f"{collection!r} is enriched by the chat model ({mode}): re-runs need it too "
                f"(rag.enrich.make_enricher({mode!r}, settings))"
            )
        enricher = make_enricher(mode)
    return _Run(items, store, embedder, collection, strategy, chunk_settings, full, prune, progress, enricher).run()


def settings_text(settings: dict[str, Any] | None) -> str:
    """`chunk_size=300, overlap=60`: chunk settings as a person writes them."""
    return ", ".join(f"{k}={v}" for k, v in (settings or {}).items()) or "default settings"


def settings_mismatch(info: dict[str, Any] | None, strategy: str, chunk_settings: dict[str, Any] | None) -> bool:
    """True when a collection holds chunks cut another way than `strategy` with these settings."""
    built = (info or {}).get("strategy") if (info or {}).get("points") else None
    if not built:
        return False
    recorded = (info or {}).get("chunk_settings") or {}
    wanted = make_chunker(strategy, **(chunk_settings or {})).settings()
    return built != strategy or bool(recorded and dict(recorded) != wanted)


def resolve_strategy(
    info: dict[str, Any] | None,
    strategy: str | None,
    chunk_settings: dict[str, Any] | None,
    full: bool,
) -> tuple[str, dict[str, Any] | None]:
    """The strategy a run uses. One collection holds chunks of one strategy and one set of
    settings, as its metadata says: mixing them would make that record, and evaluations, lie."""
    built = (info or {}).get("strategy") if (info or {}).get("points") else None
    if strategy is None:
        if built and not full:
            recorded = (info or {}).get("chunk_settings")
            return built, (dict(recorded) if isinstance(recorded, dict) and chunk_settings is None else chunk_settings)
        return DEFAULT_STRATEGY, chunk_settings
    if not full and settings_mismatch(info, strategy, chunk_settings):
        wanted = make_chunker(strategy, **(chunk_settings or {})).settings()
        recorded = (info or {}).get("chunk_settings") or {}
        name = (info or {}).get("name") or "the collection"
        raise ConfigError(
            f"{name!r} was built with the strategy {built} ({settings_text(recorded)}); this run asks for "
            f"{strategy} ({settings_text(wanted)}). Rebuild it with --full, or index into another collection "
            "(--collection NAME)."
        )
    return strategy, chunk_settings


__all__ = ["IngestProgress", "IngestReport", "ingest", "resolve_strategy", "settings_mismatch", "settings_text",
           "is_unchanged", "build_key", "now_iso"]
