"""The embedded backend: Qdrant Edge, Qdrant's engine in this process, one shard per collection.

Layout under the store folder ($RAG_DATA_DIR/qdrant): `NAME/` is the collection's shard (Edge's
files, `edge_config.json` among them) and `NAME.collection.json` beside it holds the collection's
metadata (model, dimension, strategy, threshold, dates). A collection exists when both do: the
metadata is written last on creation and removed first on deletion.

Facts this module is built on (measured here, see benchmarks/README.md):
- `update()` does not fsync, and `flush()` costs 0.05 to 0.2 s whatever was written since the
  last one: writes are flushed at most once every `FLUSH_EVERY` seconds while an ingest runs, and
  always at its end (`finish`). A killed process loses nothing (Edge's write-ahead log is in the
  page cache); an OS crash loses at most the last `FLUSH_EVERY` seconds of writes, which the next
  `rag ingest` redoes (a document is only skipped when all its points are stored).
- Most of a write's time is spent turning payloads into Edge's types (`edge_points`), a few µs
  for each text value, most of them the chunk's `terms`: Edge's binding tries a string as a bool
  and as three kinds of number before taking it as text.
- Edge searches by brute force until `optimize()` builds HNSW, and `optimize()` blocks (minutes
  at 100k points). So HNSW is only built at the end of an ingest that leaves at least `HNSW_FROM`
  points, never during a question; below that size queries are exact (`SearchParams(exact=True)`).
- Edge is called under one lock per store: the dashboard's threads share a shard safely.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any, Sequence

import qdrant_edge as qe

from rag.i18n import t
from rag.errors import StoreError
from rag.store.disk_space import DEFAULT_MIN_FREE_MB, MB, NEW_COLLECTION_BYTES, check_room, holes, write_size
from rag.store.names import NAME
from rag.store.collection_meta import fsync_dir, read_json, write_json_atomic
from rag.store.filters import Where, translate
from rag.store.points import (
    DENSE, INDEX_KINDS, INDEXED_FIELDS, SPARSE, Hit, PointRecord, Sparse, StoredPoint, check_index_kind,
)
from rag.store.store_lock import StoreLock

META_SUFFIX = ".collection.json"
# Seconds between flushes while writing. Once a second, the flushes took a fifth of the store's
# write time at 10k points; every five seconds, a few percent (benchmarks/README.md, section 3).
FLUSH_EVERY = 5.0
# Points from which an ingest ends by building HNSW and queries use it; below, exact search.
# Measured (benchmarks/README.md, section 3): exact hybrid search under the access filter costs
# about 1 ms at 10k but 12 ms at 50k and 31 ms at 100k on a busy 2-core machine, while HNSW gave
# recall@6 = 1.0 at 10k, 50k and 100k (0.998 on the corpora's real embeddings) for 1 to 4 ms.
# Building it takes 10 s at 10k and 3 min at 100k, against hours of embedding for that many chunks.
HNSW_FROM = 20_000
RRF_K = 2  # Qdrant's default constant: the same fused scores as a Qdrant server
_NAME = NAME
_INDEX_TYPES = {kind: getattr(qe.PayloadSchemaType, kind.capitalize()) for kind in INDEX_KINDS}


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise StoreError(t("store.bad_name", name=repr(name)))
    return name


def to_edge_filter(where: Where | None) -> qe.Filter | None:
    return translate(
        where,
        value=lambda key, v: qe.FieldCondition(key=key, match=qe.MatchValue(v)),
        any_of=lambda key, values: qe.FieldCondition(key=key, match=qe.MatchAny(any=values)),
        ids=lambda ids: qe.HasIdCondition(set(ids)),
        make=lambda must, must_not, should: qe.Filter(must=must, must_not=must_not, should=should),
    )


def _idf_params(corpus: Where | None) -> qe.SearchParams | None:
    """BM25's IDF counted by Edge among the points of `corpus` (a reader's: what they may see)."""
    return None if corpus is None else qe.SearchParams(idf=qe.IdfParams(corpus=to_edge_filter(corpus)))


def edge_points(records: Sequence[PointRecord]) -> list[qe.Point]:
    """The records as Edge's points. No per-float conversion: it would cost more than Edge's write."""
    points = []
    for rec in records:
        vector: dict[str, Any] = {DENSE: rec.dense if isinstance(rec.dense, list) else list(rec.dense)}
        if rec.sparse is not None and rec.sparse[0]:
            vector[SPARSE] = qe.SparseVector(indices=list(rec.sparse[0]), values=list(rec.sparse[1]))
        points.append(qe.Point(id=rec.id, vector=vector, payload=rec.payload))
    return points


def _sparse(value: Any) -> Sparse | None:
    if value is None:
        return None
    return list(value.indices), [float(v) for v in value.values]


def _stored(rec: Any) -> StoredPoint:
    vectors = rec.vector if isinstance(rec.vector, dict) else {}
    dense = vectors.get(DENSE)
    return StoredPoint(
        id=str(rec.id), payload=dict(rec.payload or {}),
        vector=list(dense) if dense is not None else None, sparse=_sparse(vectors.get(SPARSE)),
    )


def _vectors(with_vectors: bool) -> list[str] | bool:
    return [DENSE, SPARSE] if with_vectors else False


def _payload(selector: Sequence[str] | bool) -> list[str] | bool:
    return list(selector) if not isinstance(selector, bool) else selector


def _used(folder: Path) -> int:
    """Bytes the files under `folder` take on disk."""
    return sum(f.stat().st_blocks * 512 for f in folder.rglob("*") if f.is_file())


class EdgeBackend:
    """Collections as Edge shards in one folder, held by this process (see StoreLock)."""

    kind = "embedded"

    def __init__(self, root: Path, min_free_mb: int = DEFAULT_MIN_FREE_MB) -> None:
        self.root = Path(root).resolve()
        self.min_free = max(0, int(min_free_mb)) * MB
        self.location = str(self.root)
        self._lock = threading.RLock()
        self._os_lock = StoreLock(self.root)
        self._os_lock.acquire()  # before any shard is touched: a second process stops here
        self.root.mkdir(parents=True, exist_ok=True)
        self._shards: dict[str, qe.EdgeShard] = {}
        self._last_flush: dict[str, float] = {}
        self._unflushed: set[str] = set()
        self._points: dict[str, int] = {}
        self.upgraded: Any = None  # the report, when an older local-mode folder was moved to Edge here

    def describe(self) -> str:
        return t("store.embedded", location=self.location)

    # -- files ---------------------------------------------------------------------------

    def shard_dir(self, name: str) -> Path:
        return self.root / check_name(name)

    def meta_path(self, name: str) -> Path:
        return self.root / f"{check_name(name)}{META_SUFFIX}"

    def _shard(self, name: str) -> qe.EdgeShard:
        shard = self._shards.get(name)
        if shard is None:
            if not self.exists(name):
                raise StoreError(t("store.missing", name=repr(name), store=self.describe()))
            try:
                shard = qe.EdgeShard.load(str(self.shard_dir(name)))
            except Exception as exc:  # noqa: BLE001 - Edge raises plain Exception
                raise StoreError(t("store.cannot_open", name=repr(name), path=self.shard_dir(name), error=exc)) from exc
            self._shards[name] = shard
        return shard

    def _room_for(self, name: str | None, adding: int) -> None:
        """Refuse a write (DiskFullError) unless the disk holds what it adds, every hole the
        collection's mapped files may still fill, and the reserve (see rag.store.disk_space)."""
        reserved = holes(self.shard_dir(name)) if name is not None else 0
        check_room(self.root, reserved + adding, self.min_free)

    # -- collections ---------------------------------------------------------------------

    def list_collections(self) -> list[str]:
        with self._lock:
            names = []
            for meta in self.root.glob(f"*{META_SUFFIX}"):
                name = meta.name[: -len(META_SUFFIX)]
                if _NAME.match(name) and (self.root / name / "edge_config.json").is_file():
                    names.append(name)
            return sorted(names)

    def exists(self, name: str) -> bool:
        with self._lock:
            return self.meta_path(name).is_file() and (self.shard_dir(name) / "edge_config.json").is_file()

    def create(self, name: str, dimension: int, metadata: dict[str, Any]) -> None:
        with self._lock:
            folder = self.shard_dir(name)
            if folder.exists():
                # A creation or deletion interrupted before the metadata was written: no collection.
                shutil.rmtree(folder)
            self._room_for(None, NEW_COLLECTION_BYTES)
            config = qe.EdgeConfig(
                vectors={DENSE: qe.EdgeVectorParams(size=int(dimension), distance=qe.Distance.Cosine)},
                sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
            )
            shard = qe.EdgeShard.create(str(folder), config)
            for field_name in INDEXED_FIELDS:
                shard.update(qe.UpdateOperation.create_field_index(field_name, qe.PayloadSchemaType.Keyword))
            shard.flush()
            self._shards[name] = shard
            self._points[name] = 0
            write_json_atomic(self.meta_path(name), metadata)

    def drop(self, name: str) -> bool:
        with self._lock:
            if not self.exists(name):
                return False
            shard = self._shards.pop(name, None)
            if shard is not None:
                shard.close()
            self._points.pop(name, None)
            self._unflushed.discard(name)
            self.meta_path(name).unlink()
            fsync_dir(self.root)
            shutil.rmtree(self.shard_dir(name))
            return True

    def metadata(self, name: str) -> dict[str, Any]:
        with self._lock:
            return read_json(self.meta_path(name))

    def set_metadata(self, name: str, metadata: dict[str, Any]) -> None:
        with self._lock:
            write_json_atomic(self.meta_path(name), metadata)

    def has_sparse(self, name: str) -> bool:
        try:
            config = json.loads((self.shard_dir(name) / "edge_config.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return SPARSE in (config.get("sparse_vectors") or {})

    def dimension(self, name: str) -> int | None:
        try:
            config = json.loads((self.shard_dir(name) / "edge_config.json").read_text(encoding="utf-8"))
            return int(config["vectors"][DENSE]["size"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def points_count(self, name: str) -> int:
        with self._lock:
            if name not in self._points:
                self._points[name] = int(self._shard(name).info().points_count)
            return self._points[name]

    def create_index(self, name: str, field_name: str, kind: str = "keyword") -> None:
        check_index_kind(kind)
        with self._lock:
            shard = self._shard(name)
            shard.update(qe.UpdateOperation.create_field_index(field_name, _INDEX_TYPES[kind]))
            self._unflushed.add(name)

    def indexes(self, name: str) -> dict[str, str]:
        with self._lock:
            schema = self._shard(name).info().payload_schema
        names = {v: k for k, v in _INDEX_TYPES.items()}
        return {key: names.get(info.data_type, str(info.data_type)) for key, info in schema.items()}

    def count(self, name: str, where: Where | None = None) -> int:
        with self._lock:
            return int(self._shard(name).count(qe.CountRequest(exact=True, filter=to_edge_filter(where))))

    # -- writes --------------------------------------------------------------------------

    def _wrote(self, name: str) -> None:
        self._points.pop(name, None)
        self._unflushed.add(name)

    def upsert(self, name: str, records: Sequence[PointRecord]) -> None:
        points = edge_points(records)  # built before taking the lock: most of a write's time
        if not points:
            return
        with self._lock:
            payload = sum(len(json.dumps(r.payload, ensure_ascii=False)) for r in records)
            self._room_for(name, write_size(len(records[0].dense), payload, len(records)))
            self._shard(name).update(qe.UpdateOperation.upsert_points(points))
            self._wrote(name)

    def delete_ids(self, name: str, ids: Sequence[str]) -> None:
        if not ids:
            return
        with self._lock:
            self._room_for(name, write_size(0, 0, len(ids)))
            self._shard(name).update(qe.UpdateOperation.delete_points(list(ids)))
            self._wrote(name)

    def delete_where(self, name: str, where: Where) -> None:
        with self._lock:
            self._room_for(name, 0)
            self._shard(name).update(qe.UpdateOperation.delete_points_by_filter(to_edge_filter(where)))
            self._wrote(name)

    def commit(self, name: str) -> None:
        """After a document's writes: flush when the last flush is older than FLUSH_EVERY."""
        with self._lock:
            if name in self._unflushed and time.monotonic() - self._last_flush.get(name, 0.0) >= FLUSH_EVERY:
                self.flush(name)

    def flush(self, name: str) -> None:
        with self._lock:
            if name in self._shards:
                self._shards[name].flush()
            self._unflushed.discard(name)
            self._last_flush[name] = time.monotonic()

    def finish(self, name: str) -> bool:
        """End of an ingest: flush, and once the collection is large, optimise it (Edge builds HNSW
        for its large segments then). True when it was optimised."""
        with self._lock:
            self.flush(name)
            if not self.exists(name) or self.points_count(name) < HNSW_FROM:
                return False
            # Optimising rewrites the segments beside the old ones: room for a second copy.
            self._room_for(name, _used(self.shard_dir(name)))
            self._shard(name).optimize()
            self._shard(name).flush()
            return True

    # -- reads ---------------------------------------------------------------------------

    def scroll_page(
        self, name: str, where: Where | None, limit: int, offset: str | None,
        payload: Sequence[str] | bool, with_vectors: bool,
    ) -> tuple[list[StoredPoint], str | None]:
        with self._lock:
            records, next_offset = self._shard(name).scroll(qe.ScrollRequest(
                offset=offset, limit=limit, filter=to_edge_filter(where),
                with_payload=_payload(payload), with_vector=_vectors(with_vectors),
            ))
        return [_stored(r) for r in records], (str(next_offset) if next_offset is not None else None)

    def retrieve(self, name: str, ids: Sequence[str], with_vectors: bool) -> list[StoredPoint]:
        with self._lock:
            records = self._shard(name).retrieve(list(ids), with_payload=True, with_vector=_vectors(with_vectors))
        return [_stored(r) for r in records]

    def _params(self, name: str) -> qe.SearchParams:
        return qe.SearchParams(exact=self.points_count(name) < HNSW_FROM)

    def search(self, name: str, vector: Sequence[float], limit: int, where: Where | None) -> list[Hit]:
        with self._lock:
            points = self._shard(name).query(qe.QueryRequest(
                limit=limit, query=qe.Query.Nearest([float(x) for x in vector], using=DENSE),
                filter=to_edge_filter(where), params=self._params(name), with_payload=True,
            ))
        return [Hit(id=str(p.id), score=float(p.score), payload=dict(p.payload or {})) for p in points]

    def sparse_search(
        self, name: str, sparse: Sparse, limit: int, where: Where | None, with_sparse: bool = False,
        corpus: Where | None = None,
    ) -> list[tuple[str, float, Sparse | None]]:
        """(id, BM25 score, stored sparse vector if asked) of the points sharing a term with `sparse`;
        the IDF counted among the points of `corpus` (None: every point)."""
        query = qe.SparseVector(indices=list(sparse[0]), values=[float(v) for v in sparse[1]])
        with self._lock:
            points = self._shard(name).query(qe.QueryRequest(
                limit=max(1, limit), query=qe.Query.Nearest(query, using=SPARSE), filter=to_edge_filter(where),
                params=_idf_params(corpus), with_payload=False, with_vector=[SPARSE] if with_sparse else False,
            ))
        return [(str(p.id), float(p.score),
                 _sparse((p.vector or {}).get(SPARSE)) if with_sparse and isinstance(p.vector, dict) else None)
                for p in points]

    def hybrid(
        self, name: str, vector: Sequence[float], sparse: Sparse, limit: int, candidates: int, where: Where | None,
        corpus: Where | None = None,
    ) -> list[Hit]:
        flt = to_edge_filter(where)
        with self._lock:
            prefetch = [qe.Prefetch(
                limit=candidates, query=qe.Query.Nearest([float(x) for x in vector], using=DENSE),
                filter=flt, params=self._params(name),
            )]
            if sparse and sparse[0]:
                query = qe.SparseVector(indices=list(sparse[0]), values=[float(v) for v in sparse[1]])
                prefetch.append(qe.Prefetch(limit=candidates, query=qe.Query.Nearest(query, using=SPARSE), filter=flt,
                                            params=_idf_params(corpus)))
            points = self._shard(name).query(qe.QueryRequest(
                limit=limit, prefetches=prefetch, query=qe.Fusion.Rrf(k=RRF_K), filter=flt, with_payload=True,
            ))
        return [Hit(id=str(p.id), score=float(p.score), payload=dict(p.payload or {})) for p in points]

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            try:
                for name, shard in list(self._shards.items()):
                    if name in self._unflushed:
                        shard.flush()
                    shard.close()
            finally:
                self._shards.clear()
                self._unflushed.clear()
                self._points.clear()
                self._os_lock.release()
