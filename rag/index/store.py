"""Qdrant behind one small class, the same code for the embedded store and a server.

Qdrant's local mode (``QdrantClient(path=...)``) locks its folder for one client and is not
thread-safe, so there is one client per process per location and every call goes through
that location's lock. A second *process* on the same folder gets a clear StoreError.
"""

from __future__ import annotations

import atexit
import threading
import uuid
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence
from urllib.parse import urlsplit

import httpx
from qdrant_client import QdrantClient
from qdrant_client import models as qm
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from rag.config import Settings
from rag.errors import StoreError
from rag.redact import redact, strip_userinfo

DENSE = "dense"
SPARSE = "bm25"
DISTANCE = "Cosine"
INDEXED_FIELDS = ("url", "access")
METADATA_KEYS = (
    "embedding_model", "dimension", "distance", "strategy", "chunk_settings", "threshold", "created", "updated",
)
_PAGE = 256

# location key -> (client, lock). Module level: one client per process per path or URL.
_CLIENTS: dict[tuple, tuple[QdrantClient, threading.RLock]] = {}


@atexit.register
def _close_all() -> None:
    # Closed while the interpreter still works: qdrant-client's own __del__ at shutdown fails noisily.
    for client, lock in list(_CLIENTS.values()):
        with lock:
            try:
                client.close()
            except Exception:  # noqa: BLE001 - shutting down, nothing left to report to
                pass
    _CLIENTS.clear()
_REGISTRY_LOCK = threading.Lock()


def point_id(url: str, index: int) -> str:
    """Deterministic point id of chunk `index` of the document at `url`."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{url}#{index}"))


def _loopback(url: str) -> bool:
    return (urlsplit(url).hostname or "") in ("localhost", "127.0.0.1", "::1")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class PointRecord:
    """One point to write: its id, dense vector, sparse (indices, values) and payload."""

    id: str
    dense: list[float]
    sparse: tuple[list[int], list[float]] | None
    payload: dict[str, Any]


@dataclass
class Hit:
    id: str
    score: float
    payload: dict[str, Any]
    vector: list[float] | None = None
    rrf_score: float | None = None


@dataclass
class StoredPoint:
    """A point read back (payload selection, optional dense vector)."""

    id: str
    payload: dict[str, Any] = field(default_factory=dict)
    vector: list[float] | None = None


def _access_filter(groups: Sequence[str] | None, extra: Iterable[qm.Condition] = ()) -> qm.Filter | None:
    must: list[Any] = list(extra)
    if groups is not None:
        must.append(qm.FieldCondition(key="access", match=qm.MatchAny(any=list(groups))))
    return qm.Filter(must=must) if must else None


class Store:
    """Collections, points and queries over one Qdrant location (embedded path or server URL)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        if settings.qdrant_url:
            self.backend = "server"
            self.location = strip_userinfo(settings.qdrant_url)  # a URL may carry user:password
            key: tuple = ("server", settings.qdrant_url, settings.qdrant_api_key)
            def factory() -> QdrantClient:
                with warnings.catch_warnings():
                    if _loopback(settings.qdrant_url):
                        # A key over plain http on this machine is the documented local setup:
                        # the client's warning (a Python source line in the output) is only noise.
                        warnings.filterwarnings("ignore", message="Api key is used with an insecure connection")
                    return QdrantClient(
                        url=settings.qdrant_url,
                        api_key=settings.qdrant_api_key,
                        timeout=max(1, int(settings.timeout)),
                        check_compatibility=False,  # avoids a version probe (and its warning) at construction
                    )
        else:
            self.backend = "embedded"
            path = Path(settings.qdrant_path).resolve()
            self.location = str(path)
            key = ("embedded", str(path))

            def factory() -> QdrantClient:
                path.mkdir(parents=True, exist_ok=True)
                try:
                    return QdrantClient(path=str(path))
                except RuntimeError as exc:
                    if "already accessed" in str(exc):
                        raise StoreError(
                            f"Another process (e.g. a running `streamlit run` or `rag ingest`) holds the "
                            f"embedded Qdrant store at {path}. Stop that process, or use a Qdrant server "
                            "for concurrent access: set RAG_QDRANT_URL (e.g. http://localhost:6333)."
                        ) from exc
                    raise
        self._key = key
        with _REGISTRY_LOCK:
            if key not in _CLIENTS:
                _CLIENTS[key] = (factory(), threading.RLock())
            self._client, self._lock = _CLIENTS[key]

    # -- plumbing ------------------------------------------------------------------------

    def describe(self) -> str:
        """Where the vectors live, for humans (never includes the API key)."""
        if self.backend == "server":
            return f"Qdrant server at {self.location}"
        return f"embedded Qdrant at {self.location}"

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            try:
                return getattr(self._client, method)(*args, **kwargs)
            except (ResponseHandlingException, httpx.TransportError) as exc:
                raise StoreError(
                    f"Cannot reach the Qdrant server at {self.location} ({type(exc).__name__}). Start it "
                    "(docker compose up -d qdrant) or unset RAG_QDRANT_URL to use the embedded store."
                ) from exc
            except UnexpectedResponse as exc:
                if exc.status_code in (401, 403):
                    raise StoreError(
                        f"The Qdrant server at {self.location} refused the request ({exc.status_code}): "
                        "check RAG_QDRANT_API_KEY."
                    ) from exc
                detail = exc.content.decode("utf-8", "replace")[:300] if exc.content else exc.reason_phrase
                detail = redact(detail, [self.settings.qdrant_api_key])
                raise StoreError(f"Qdrant at {self.location} answered {exc.status_code}: {detail}") from exc

    def close(self) -> None:
        """Close this location's shared client (every Store on it) and free the embedded folder."""
        with _REGISTRY_LOCK:
            entry = _CLIENTS.pop(self._key, None)
        if entry:
            with entry[1]:
                entry[0].close()

    # -- collections ---------------------------------------------------------------------

    def list_collections(self) -> list[str]:
        return sorted(c.name for c in self._call("get_collections").collections)

    def exists(self, name: str) -> bool:
        return bool(self._call("collection_exists", name))

    def collection_info(self, name: str) -> dict[str, Any] | None:
        """The collection's recorded metadata plus `name`, `points` and `has_sparse`; None if absent."""
        if not self.exists(name):
            return None
        info = self._call("get_collection", name)
        meta = dict(info.config.metadata or {})
        result: dict[str, Any] = {"name": name}
        result.update({k: meta.get(k) for k in METADATA_KEYS})
        result.update({k: v for k, v in meta.items() if k not in result})
        result["points"] = int(info.points_count or 0)
        result["has_sparse"] = SPARSE in (info.config.params.sparse_vectors or {})
        return result

    def check_model(self, name: str, model: str, dimension: int | None = None) -> dict[str, Any]:
        """The collection's info if it was built with `model` (and `dimension`), else a StoreError."""
        info = self.collection_info(name)
        if info is None:
            raise StoreError(
                f"The collection {name!r} does not exist in the {self.describe()}. Ingest a source first: "
                f"rag ingest SOURCE --collection {name}"
            )
        built_with, dims = info.get("embedding_model"), info.get("dimension")
        if built_with is None:
            raise StoreError(
                f"The collection {name!r} records no embedding model (it was not built by `rag ingest`). "
                "Use another collection name (--collection NAME)."
            )
        if built_with != model or (dimension is not None and dims is not None and int(dims) != int(dimension)):
            now = f"{model}" + (f" ({dimension} dimensions)" if dimension else "")
            raise StoreError(
                f"The collection {name!r} was built with the embedding model {built_with} ({dims} dimensions), "
                f"but the current embedding model is {now}. Vectors of two models cannot be compared: "
                f"re-index into a new collection (--collection NAME), rebuild this one with --full, "
                f"or use the original model {built_with} (RAG_EMBED_MODEL)."
            )
        return info

    def ensure_collection(
        self, name: str, model: str, dimension: int, strategy: str, chunk_settings: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Create the collection if absent (dense + BM25 sparse, metadata, payload indexes); check it if present."""
        if self.exists(name):
            return self.check_model(name, model, dimension)
        stamp = now_iso()
        metadata = {
            "embedding_model": model,
            "dimension": int(dimension),
            "distance": DISTANCE,
            "strategy": strategy,
            "chunk_settings": chunk_settings or {},
            "threshold": None,
            "created": stamp,
            "updated": stamp,
        }
        self._call(
            "create_collection",
            name,
            vectors_config={DENSE: qm.VectorParams(size=int(dimension), distance=qm.Distance.COSINE)},
            sparse_vectors_config={SPARSE: qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
            metadata=metadata,
        )
        for field_name in INDEXED_FIELDS:
            # Local mode ignores payload indexes (and warns); a server needs them for filtered queries.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                self._call("create_payload_index", name, field_name, qm.PayloadSchemaType.KEYWORD)
        return self.collection_info(name) or {}

    def recreate_collection(
        self, name: str, model: str, dimension: int, strategy: str, chunk_settings: dict[str, Any] | None
    ) -> dict[str, Any]:
        self.delete_collection(name)
        return self.ensure_collection(name, model, dimension, strategy, chunk_settings)

    def delete_collection(self, name: str) -> bool:
        if not self.exists(name):
            return False
        return bool(self._call("delete_collection", name))

    def update_metadata(self, name: str, **values: Any) -> None:
        """Merge `values` into the collection metadata and stamp `updated`."""
        values = {"updated": now_iso(), **values}
        self._call("update_collection", name, metadata=values)

    def set_threshold(self, name: str, value: float | None) -> None:
        """Record the calibrated score threshold (None clears it)."""
        if not self.exists(name):
            raise StoreError(f"The collection {name!r} does not exist: cannot record a threshold.")
        self.update_metadata(name, threshold=None if value is None else float(value))

    def count(self, name: str) -> int:
        return int(self._call("count", name, exact=True).count)

    # -- points --------------------------------------------------------------------------

    def upsert(self, name: str, records: Sequence[PointRecord]) -> None:
        points = []
        for rec in records:
            vector: dict[str, Any] = {DENSE: list(rec.dense)}
            if rec.sparse is not None and rec.sparse[0]:
                vector[SPARSE] = qm.SparseVector(indices=list(rec.sparse[0]), values=list(rec.sparse[1]))
            points.append(qm.PointStruct(id=rec.id, vector=vector, payload=rec.payload))
        if points:
            self._call("upsert", name, points=points, wait=True)

    def delete_points(self, name: str, ids: Iterable[str]) -> int:
        ids = list(ids)
        if ids:
            self._call("delete", name, points_selector=qm.PointIdsList(points=ids), wait=True)
        return len(ids)

    def delete_stale(self, name: str, url: str, keep_ids: Iterable[str]) -> None:
        """Delete the points of `url` whose ids are not in `keep_ids`."""
        flt = qm.Filter(
            must=[qm.FieldCondition(key="url", match=qm.MatchValue(value=url))],
            must_not=[qm.HasIdCondition(has_id=list(keep_ids))],
        )
        self._call("delete", name, points_selector=qm.FilterSelector(filter=flt), wait=True)

    def scroll(
        self,
        name: str,
        payload: Sequence[str] | bool = True,
        flt: qm.Filter | None = None,
        with_vectors: bool = False,
        limit: int | None = None,
    ) -> Iterator[StoredPoint]:
        offset = None
        seen = 0
        selector = list(payload) if not isinstance(payload, bool) else payload
        while True:
            page = _PAGE if limit is None else min(_PAGE, limit - seen)
            if page <= 0:
                return
            records, offset = self._call(
                "scroll", name, scroll_filter=flt, limit=page, offset=offset,
                with_payload=selector, with_vectors=[DENSE] if with_vectors else False,
            )
            for rec in records:
                yield _stored(rec)
            seen += len(records)
            if offset is None or not records:
                return

    def points_for_url(self, name: str, url: str, payload: Sequence[str] | bool = True) -> list[StoredPoint]:
        flt = qm.Filter(must=[qm.FieldCondition(key="url", match=qm.MatchValue(value=url))])
        return list(self.scroll(name, payload=payload, flt=flt))

    def get_points(self, name: str, ids: Sequence[str], with_vectors: bool = False) -> list[StoredPoint]:
        records = self._call(
            "retrieve", name, ids=list(ids), with_payload=True, with_vectors=[DENSE] if with_vectors else False
        )
        return [_stored(rec) for rec in records]

    # -- queries -------------------------------------------------------------------------

    def search_dense(
        self, name: str, vector: Sequence[float], limit: int, groups: Sequence[str] | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Hit]:
        """Nearest points by cosine; `groups` restricts to points whose `access` shares one group."""
        extra = [qm.HasIdCondition(has_id=list(ids))] if ids is not None else []
        response = self._call(
            "query_points", name, query=list(vector), using=DENSE, limit=limit,
            query_filter=_access_filter(groups, extra), with_payload=True,
        )
        return [Hit(id=str(p.id), score=float(p.score), payload=p.payload or {}) for p in response.points]

    def search_hybrid(
        self, name: str, vector: Sequence[float], sparse: tuple[list[int], list[float]], limit: int,
        groups: Sequence[str] | None = None, candidates: int | None = None,
    ) -> list[Hit]:
        """Dense and BM25 candidates fused by RRF. `score` is the RRF score here (see rag.answer.retrieve)."""
        candidates = max(candidates or limit * 4, limit)
        flt = _access_filter(groups)
        prefetch = [qm.Prefetch(query=list(vector), using=DENSE, limit=candidates, filter=flt)]
        if sparse and sparse[0]:
            prefetch.append(
                qm.Prefetch(
                    query=qm.SparseVector(indices=list(sparse[0]), values=list(sparse[1])),
                    using=SPARSE, limit=candidates, filter=flt,
                )
            )
        response = self._call(
            "query_points", name, prefetch=prefetch, query=qm.FusionQuery(fusion=qm.Fusion.RRF),
            query_filter=flt, limit=limit, with_payload=True,
        )
        return [Hit(id=str(p.id), score=float(p.score), payload=p.payload or {}) for p in response.points]


def _stored(rec: Any) -> StoredPoint:
    vector = None
    if isinstance(rec.vector, dict):
        vector = rec.vector.get(DENSE)
    elif isinstance(rec.vector, list):
        vector = rec.vector
    return StoredPoint(id=str(rec.id), payload=rec.payload or {}, vector=vector)
