"""One store interface over both Qdrant backends: Qdrant Edge embedded, or a Qdrant server.

`Store(settings)` opens the embedded store at $RAG_DATA_DIR/qdrant (Qdrant Edge, see
rag.store.edge_store) unless RAG_QDRANT_URL names a server (qdrant-client, see
rag.store.server_store). Everything above this module (ingest, retrieval, evaluation, the
dashboard) sees the same methods, filters (rag.store.filters) and errors on both.

There is one backend per process per location, shared by every Store on it: the embedded store
admits one process (a second one gets a clear StoreError) and each backend serialises its calls.
"""

from __future__ import annotations

import atexit
import threading
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from rag.i18n import t
from rag.config import Settings
from rag.errors import StoreError
from rag.store.disk_space import DEFAULT_MIN_FREE_MB
from rag.store.edge_store import RRF_K, EdgeBackend
from rag.store.filters import Where, both, has_id, match, readable_by
from rag.store.fusion import by_documents, convex, rrf
from rag.store.points import (  # noqa: F401 - re-exported: the store's public types
    DENSE, DISTANCE, INDEXED_FIELDS, METADATA_KEYS, SPARSE, Hit, PointRecord, Sparse, StoredPoint, now_iso, point_id,
)
from rag.store.sparse import SPARSE_VERSION

_PAGE = 256
# The convex fusion's weight of the cosine against BM25 (benchmarks/levers.py measures it).
DENSE_WEIGHT = 0.7
_BACKENDS: dict[tuple, Any] = {}  # location key -> backend, one per process
_REGISTRY_LOCK = threading.Lock()


@atexit.register
def _close_all() -> None:
    # Closed while the interpreter still works: flushes Edge shards, and qdrant-client's own
    # __del__ at shutdown fails noisily.
    for backend in list(_BACKENDS.values()):
        try:
            backend.close()
        except Exception:  # noqa: BLE001 - shutting down, nothing left to report to
            pass
    _BACKENDS.clear()


def open_embedded(path: Path, min_free_mb: int = DEFAULT_MIN_FREE_MB) -> EdgeBackend:
    """The Edge backend on `path`, after moving a folder an older version wrote there to Edge."""
    from rag.store.local_mode import upgrade_local_mode

    backend = EdgeBackend(path, min_free_mb=min_free_mb)
    try:
        upgrade_local_mode(backend, lambda other: Store(Settings(), backend=other))
    except BaseException:
        backend.close()
        raise
    return backend


def open_backend(settings: Settings) -> tuple[tuple, Any]:
    """(registry key, factory) of the backend `settings` name."""
    if settings.qdrant_url:
        key: tuple = ("server", settings.qdrant_url, settings.qdrant_api_key)
        # qdrant-client takes a second to import: only a server's settings load it.
        from rag.store.server_store import QdrantClientBackend

        return key, lambda: QdrantClientBackend(settings.qdrant_url, settings.qdrant_api_key, settings.timeout)
    path = Path(settings.qdrant_path).resolve()
    return ("embedded", str(path)), lambda: open_embedded(path, settings.min_free_mb)


class Store:
    """Collections, points and queries over one Qdrant location (embedded folder or server URL).

    `backend` (tests, migration) uses an already opened backend instead of the one `settings` name.
    """

    def __init__(self, settings: Settings, backend: Any = None) -> None:
        self.settings = settings
        if backend is not None:
            self._key: tuple = ("given", id(backend))
            self._backend = backend
        else:
            self._key, factory = open_backend(settings)
            with _REGISTRY_LOCK:
                if self._key not in _BACKENDS:
                    _BACKENDS[self._key] = factory()
                self._backend = _BACKENDS[self._key]
        self.backend = "server" if self._backend.kind == "server" else "embedded"
        self.engine = self._backend.kind  # "embedded" (Qdrant Edge), "server" or "local-mode"
        self.location = self._backend.location

    @property
    def upgraded(self) -> Any:
        """The report of moving an older local-mode folder to Qdrant Edge when this store's opening
        did it (rag.store.local_mode.UpgradeReport), else None."""
        return getattr(self._backend, "upgraded", None)

    def describe(self) -> str:
        """Where the vectors live, for humans (never includes the API key)."""
        return self._backend.describe()

    def close(self) -> None:
        """Close this location's shared backend (every Store on it) and free the embedded folder."""
        with _REGISTRY_LOCK:
            _BACKENDS.pop(self._key, None)
        self._backend.close()

    # -- collections ---------------------------------------------------------------------

    def list_collections(self) -> list[str]:
        return self._backend.list_collections()

    def exists(self, name: str) -> bool:
        return self._backend.exists(name)

    def collection_info(self, name: str) -> dict[str, Any] | None:
        """The collection's recorded metadata plus `name`, `points` and `has_sparse`; None if absent."""
        if not self.exists(name):
            return None
        meta = self._backend.metadata(name)
        result: dict[str, Any] = {"name": name}
        result.update({k: meta.get(k) for k in METADATA_KEYS})
        result.update({k: v for k, v in meta.items() if k not in result})
        result["points"] = self._backend.points_count(name)
        result["has_sparse"] = self._backend.has_sparse(name)
        return result

    def no_collection(self, name: str) -> StoreError:
        """The error for a collection this store does not hold, naming those it does (a typo shows)."""
        existing = ", ".join(self.list_collections()) or t("eval.none")
        return StoreError(t("store.no_collection", name=repr(name), store=self.describe(), id=name, existing=existing))

    def check_model(self, name: str, model: str, dimension: int | None = None) -> dict[str, Any]:
        """The collection's info if it was built with `model` (and `dimension`), else a StoreError."""
        info = self.collection_info(name)
        if info is None:
            raise self.no_collection(name)
        built_with, dims = info.get("embedding_model"), info.get("dimension")
        if built_with is None:
            raise StoreError(t("store.no_model", name=repr(name)))
        if built_with != model or (dimension is not None and dims is not None and int(dims) != int(dimension)):
            now = f"{model}" + (t("store.dimensions", n=dimension) if dimension else "")
            raise StoreError(t("store.other_model", name=repr(name), built=built_with, dims=dims, now=now))
        return info

    def ensure_collection(
        self, name: str, model: str, dimension: int, strategy: str, chunk_settings: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Create the collection if absent (dense + BM25 sparse, metadata, payload indexes); check it if present."""
        if self.exists(name):
            return self.check_model(name, model, dimension)
        stamp = now_iso()
        self.create_collection(name, int(dimension), {
            "embedding_model": model,
            "dimension": int(dimension),
            "distance": DISTANCE,
            "strategy": strategy,
            "chunk_settings": chunk_settings or {},
            "threshold": None,
            "sparse_version": SPARSE_VERSION,  # how its keywords were made: queries must match
            "created": stamp,
            "updated": stamp,
        })
        return self.collection_info(name) or {}

    def create_collection(self, name: str, dimension: int, metadata: dict[str, Any]) -> None:
        """A new empty collection with this exact metadata (migration copies it as it is)."""
        self._backend.create(name, int(dimension), dict(metadata))

    def recreate_collection(
        self, name: str, model: str, dimension: int, strategy: str, chunk_settings: dict[str, Any] | None
    ) -> dict[str, Any]:
        self.delete_collection(name)
        return self.ensure_collection(name, model, dimension, strategy, chunk_settings)

    def delete_collection(self, name: str) -> bool:
        return self._backend.drop(name)

    def metadata(self, name: str) -> dict[str, Any]:
        """The collection's metadata as recorded, every key."""
        return self._backend.metadata(name)

    def update_metadata(self, name: str, **values: Any) -> None:
        """Merge `values` into the collection metadata and stamp `updated`."""
        merged = {**self._backend.metadata(name), "updated": now_iso(), **values}
        self._backend.set_metadata(name, merged)

    def set_threshold(self, name: str, value: float | None) -> None:
        """Record the calibrated score threshold (None clears it). It replaces the gate's record
        (rag.answer.gate.save_calibration), whose floor would otherwise still be the one read."""
        if not self.exists(name):
            raise StoreError(t("store.no_threshold", name=repr(name)))
        self.update_metadata(name, threshold=None if value is None else float(value), gate=None)

    def dimension(self, name: str) -> int | None:
        return self._backend.dimension(name)

    def has_sparse(self, name: str) -> bool:
        return self._backend.has_sparse(name)

    def count(self, name: str, where: Where | None = None, groups: Sequence[str] | None = None) -> int:
        """Points matching `where`, among those readers of `groups` may see (None = every point)."""
        return self._backend.count(name, both(where, readable_by(groups)))

    def create_index(self, name: str, field_name: str, kind: str = "keyword") -> None:
        """A payload index on `field_name` ("keyword", "integer", "float" or "bool"); idempotent."""
        self._backend.create_index(name, field_name, kind)

    def indexes(self, name: str) -> dict[str, str]:
        """Indexed payload fields and their type."""
        return self._backend.indexes(name)

    # -- points --------------------------------------------------------------------------

    def upsert(self, name: str, records: Sequence[PointRecord]) -> None:
        self._backend.upsert(name, list(records))

    def delete_points(self, name: str, ids: Iterable[str]) -> int:
        ids = list(ids)
        self._backend.delete_ids(name, ids)
        return len(ids)

    def delete_where(self, name: str, where: Where) -> None:
        self._backend.delete_where(name, where)

    def delete_stale(self, name: str, url: str, keep_ids: Iterable[str]) -> None:
        """Delete the points of `url` whose ids are not in `keep_ids`."""
        self._backend.delete_where(name, Where(must=(match("url", url),), must_not=(has_id(list(keep_ids)),)))

    def commit(self, name: str) -> None:
        """A document's writes are done: make them durable soon (the embedded store flushes
        at most every five seconds while writing; see rag.store.edge_store)."""
        self._backend.commit(name)

    def finish(self, name: str) -> bool:
        """An ingest is done: every write durable, and the search index built if the collection
        is large enough to need it (blocking). True when the collection was optimised for that."""
        return self._backend.finish(name)

    def scroll(
        self,
        name: str,
        payload: Sequence[str] | bool = True,
        flt: Where | None = None,
        with_vectors: bool = False,
        limit: int | None = None,
    ) -> Iterator[StoredPoint]:
        offset = None
        seen = 0
        while True:
            page = _PAGE if limit is None else min(_PAGE, limit - seen)
            if page <= 0:
                return
            records, offset = self._backend.scroll_page(name, flt, page, offset, payload, with_vectors)
            yield from records
            seen += len(records)
            if offset is None or not records:
                return

    def points_for_url(self, name: str, url: str, payload: Sequence[str] | bool = True) -> list[StoredPoint]:
        return list(self.scroll(name, payload=payload, flt=Where(must=(match("url", url),))))

    def get_points(self, name: str, ids: Sequence[str], with_vectors: bool = False) -> list[StoredPoint]:
        return self._backend.retrieve(name, list(ids), with_vectors)

    # -- queries -------------------------------------------------------------------------

    def search_dense(
        self, name: str, vector: Sequence[float], limit: int, groups: Sequence[str] | None = None,
        ids: Sequence[str] | None = None, where: Where | None = None,
    ) -> list[Hit]:
        """Nearest points by cosine; `groups` restricts to points whose `access` shares one group."""
        restrict = Where(must=(has_id(ids),)) if ids is not None else None
        return self._backend.search(name, vector, limit, both(where, restrict, readable_by(groups)))

    def search_hybrid(
        self, name: str, vector: Sequence[float], sparse: Sparse, limit: int,
        groups: Sequence[str] | None = None, candidates: int | None = None, where: Where | None = None,
        fusion: str = "rrf", weight: float = DENSE_WEIGHT, rrf_k: float | None = None, documents: bool = False,
    ) -> list[Hit]:
        """Dense and BM25 candidates fused by RRF (ranks), or by `fusion` "convex": `weight` x the
        normalised cosine + (1 - `weight`) x the normalised BM25 score (rag.store.fusion). `score`
        is the fused score here, not a similarity (see rag.answer.retrieve). `rrf_k`: RRF with that
        constant, computed here on either backend (None: the store's own, k 2). `documents`: the
        chunks ordered by their document's fused rank first (rag.store.fusion.by_documents)."""
        candidates = max(candidates or limit * 4, limit)
        # BM25 over what the reader may see: the IDF counted by the store among their points only.
        corpus = readable_by(groups)
        flt = both(where, corpus)
        if fusion not in ("rrf", "convex"):
            raise StoreError(t("store.unknown_fusion", fusion=repr(fusion), known="rrf, convex"))
        if fusion == "rrf" and rrf_k is None and not documents and groups is None:
            return self._backend.hybrid(name, vector, sparse, limit, candidates, flt)
        # A reader's fusion is made here, ties in each branch taken by id: the store orders equal
        # scores by how it holds every point, hidden ones included.
        dense = self._backend.search(name, vector, candidates, flt)
        lexical = self._backend.sparse_search(name, sparse, candidates, flt, corpus=corpus) if sparse and sparse[0] else []
        branches = ([(h.id, h.score) for h in dense], [(i, s) for i, s, _ in lexical])

        def fuse(d: Sequence[tuple[str, float]], s: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
            return convex(d, s, weight, len(d) + len(s)) if fusion == "convex" else rrf(d, s, rrf_k or RRF_K)

        fused = fuse(*branches) if documents else fuse(*branches)[:limit]
        payloads = {h.id: h.payload for h in dense}
        missing = [i for i, _ in fused if i not in payloads]
        payloads.update({p.id: p.payload for p in self._backend.retrieve(name, missing, False)} if missing else {})
        if documents:
            urls = {i: str((payloads.get(i) or {}).get("url") or "") for i, _ in fused}
            fused = by_documents(fused, *branches, urls, fuse)[:limit]
        return [Hit(id=i, score=score, payload=dict(payloads.get(i) or {})) for i, score in fused if i in payloads]
