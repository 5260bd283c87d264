"""The server backend: a Qdrant server through qdrant-client.

The same class also opens qdrant-client's local mode (`QdrantClient(path=...)`), which speaks the
server's API in pure Python: the tests run the server backend through it, and data folders made
before the embedded store moved to Qdrant Edge are read through it to be migrated.
Collection metadata lives in Qdrant's own collection metadata.
"""

from __future__ import annotations

import threading
import warnings
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import urlsplit

import httpx
from qdrant_client import QdrantClient
from qdrant_client import models as qm
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from rag.i18n import t
from rag.errors import StoreError
from rag.store.filters import Where, translate
from rag.store.points import (
    DENSE, INDEX_KINDS, INDEXED_FIELDS, SPARSE, Hit, PointRecord, Sparse, StoredPoint, check_index_kind,
)
from rag.redact import redact, strip_userinfo

_INDEX_TYPES = {kind: getattr(qm.PayloadSchemaType, kind.upper()) for kind in INDEX_KINDS}


def _loopback(url: str) -> bool:
    return (urlsplit(url).hostname or "") in ("localhost", "127.0.0.1", "::1")


def to_qdrant_filter(where: Where | None) -> qm.Filter | None:
    return translate(
        where,
        value=lambda key, v: qm.FieldCondition(key=key, match=qm.MatchValue(value=v)),
        any_of=lambda key, values: qm.FieldCondition(key=key, match=qm.MatchAny(any=values)),
        ids=lambda ids: qm.HasIdCondition(has_id=ids),
        make=lambda must, must_not, should: qm.Filter(must=must, must_not=must_not, should=should),
    )


def _stored(rec: Any) -> StoredPoint:
    dense = sparse = None
    if isinstance(rec.vector, dict):
        dense = rec.vector.get(DENSE)
        raw = rec.vector.get(SPARSE)
        if raw is not None:
            sparse = (list(raw.indices), [float(v) for v in raw.values])
    elif isinstance(rec.vector, list):
        dense = rec.vector
    return StoredPoint(id=str(rec.id), payload=rec.payload or {}, vector=dense, sparse=sparse)


def _hits(points: Sequence[Any]) -> list[Hit]:
    return [Hit(id=str(p.id), score=float(p.score), payload=p.payload or {}) for p in points]



def _idf_params(corpus: Where | None) -> qm.SearchParams | None:
    """BM25's IDF counted by Qdrant among the points of `corpus` (a reader's: what they may see)."""
    return None if corpus is None else qm.SearchParams(idf=qm.IdfCorpusParams(corpus=to_qdrant_filter(corpus)))

class QdrantClientBackend:
    """A Qdrant server at `url`, or qdrant-client's local mode in the folder `path`."""

    def __init__(self, url: str | None = None, api_key: str | None = None, timeout: float = 60.0,
                 path: Path | None = None) -> None:
        self._lock = threading.RLock()
        self._secrets = [api_key]
        if path is not None:
            self.kind = "local-mode"
            self.location = str(Path(path).resolve())
            Path(path).mkdir(parents=True, exist_ok=True)
            try:
                self._client = QdrantClient(path=str(path))
            except RuntimeError as exc:
                if "already accessed" in str(exc):
                    raise StoreError(t("store.folder_held", location=self.location)) from exc
                raise
            return
        if not url:
            raise StoreError(t("store.url_needed"))
        self.kind = "server"
        self.location = strip_userinfo(url)  # a URL may carry user:password
        with warnings.catch_warnings():
            if _loopback(url):
                # A key over plain http on this machine is the documented local setup:
                # the client's warning (a Python source line in the output) is only noise.
                warnings.filterwarnings("ignore", message="Api key is used with an insecure connection")
            self._client = QdrantClient(
                url=url, api_key=api_key, timeout=max(1, int(timeout)),
                check_compatibility=False,  # avoids a version probe (and its warning) at construction
            )

    def describe(self) -> str:
        if self.kind == "server":
            return t("store.server", location=self.location)
        return t("store.local_mode", location=self.location)

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            try:
                return getattr(self._client, method)(*args, **kwargs)
            except (ResponseHandlingException, httpx.TransportError) as exc:
                raise StoreError(t("store.unreachable", location=self.location, error=type(exc).__name__)) from exc
            except UnexpectedResponse as exc:
                if exc.status_code in (401, 403):
                    raise StoreError(t("store.refused", location=self.location, status=exc.status_code)) from exc
                detail = exc.content.decode("utf-8", "replace")[:300] if exc.content else exc.reason_phrase
                detail = redact(detail, self._secrets)
                raise StoreError(t("store.status", location=self.location, status=exc.status_code, detail=detail)) from exc

    # -- collections ---------------------------------------------------------------------

    def list_collections(self) -> list[str]:
        return sorted(c.name for c in self._call("get_collections").collections)

    def exists(self, name: str) -> bool:
        return bool(self._call("collection_exists", name))

    def create(self, name: str, dimension: int, metadata: dict[str, Any]) -> None:
        self._call(
            "create_collection", name,
            vectors_config={DENSE: qm.VectorParams(size=int(dimension), distance=qm.Distance.COSINE)},
            sparse_vectors_config={SPARSE: qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
            metadata=metadata,
        )
        for field_name in INDEXED_FIELDS:
            self.create_index(name, field_name)

    def drop(self, name: str) -> bool:
        if not self.exists(name):
            return False
        return bool(self._call("delete_collection", name))

    def metadata(self, name: str) -> dict[str, Any]:
        return dict(self._call("get_collection", name).config.metadata or {})

    def set_metadata(self, name: str, metadata: dict[str, Any]) -> None:
        self._call("update_collection", name, metadata=metadata)  # merged by Qdrant

    def has_sparse(self, name: str) -> bool:
        return SPARSE in (self._call("get_collection", name).config.params.sparse_vectors or {})

    def dimension(self, name: str) -> int | None:
        vectors = self._call("get_collection", name).config.params.vectors
        return int(vectors[DENSE].size) if isinstance(vectors, dict) and DENSE in vectors else None

    def points_count(self, name: str) -> int:
        return int(self._call("count", name, exact=True).count)

    def create_index(self, name: str, field_name: str, kind: str = "keyword") -> None:
        check_index_kind(kind)
        # Local mode ignores payload indexes (and warns); a server needs them for filtered queries.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            self._call("create_payload_index", name, field_name, _INDEX_TYPES[kind])

    def indexes(self, name: str) -> dict[str, str]:
        schema = self._call("get_collection", name).payload_schema or {}
        names = {v: k for k, v in _INDEX_TYPES.items()}
        return {key: names.get(info.data_type, str(info.data_type)) for key, info in schema.items()}

    def count(self, name: str, where: Where | None = None) -> int:
        return int(self._call("count", name, count_filter=to_qdrant_filter(where), exact=True).count)

    # -- writes --------------------------------------------------------------------------

    def upsert(self, name: str, records: Sequence[PointRecord]) -> None:
        points = []
        for rec in records:
            vector: dict[str, Any] = {DENSE: list(rec.dense)}
            if rec.sparse is not None and rec.sparse[0]:
                vector[SPARSE] = qm.SparseVector(indices=list(rec.sparse[0]), values=list(rec.sparse[1]))
            points.append(qm.PointStruct(id=rec.id, vector=vector, payload=rec.payload))
        if points:
            self._call("upsert", name, points=points, wait=True)

    def delete_ids(self, name: str, ids: Sequence[str]) -> None:
        if ids:
            self._call("delete", name, points_selector=qm.PointIdsList(points=list(ids)), wait=True)

    def delete_where(self, name: str, where: Where) -> None:
        self._call("delete", name, points_selector=qm.FilterSelector(filter=to_qdrant_filter(where)), wait=True)

    def commit(self, name: str) -> None:
        """Writes are acknowledged by the server (wait=True): nothing to do."""

    def flush(self, name: str) -> None:
        """Writes are acknowledged by the server (wait=True): nothing to do."""

    def finish(self, name: str) -> bool:
        """A server builds its indexes by itself."""
        return False

    # -- reads ---------------------------------------------------------------------------

    def scroll_page(
        self, name: str, where: Where | None, limit: int, offset: str | None,
        payload: Sequence[str] | bool, with_vectors: bool,
    ) -> tuple[list[StoredPoint], str | None]:
        records, next_offset = self._call(
            "scroll", name, scroll_filter=to_qdrant_filter(where), limit=limit, offset=offset,
            with_payload=list(payload) if not isinstance(payload, bool) else payload,
            with_vectors=[DENSE, SPARSE] if with_vectors else False,
        )
        return [_stored(r) for r in records], (str(next_offset) if next_offset is not None else None)

    def retrieve(self, name: str, ids: Sequence[str], with_vectors: bool) -> list[StoredPoint]:
        records = self._call(
            "retrieve", name, ids=list(ids), with_payload=True, with_vectors=[DENSE, SPARSE] if with_vectors else False
        )
        return [_stored(r) for r in records]

    def search(self, name: str, vector: Sequence[float], limit: int, where: Where | None) -> list[Hit]:
        response = self._call(
            "query_points", name, query=list(vector), using=DENSE, limit=limit,
            query_filter=to_qdrant_filter(where), with_payload=True,
        )
        return _hits(response.points)

    def sparse_search(
        self, name: str, sparse: Sparse, limit: int, where: Where | None, with_sparse: bool = False,
        corpus: Where | None = None,
    ) -> list[tuple[str, float, Sparse | None]]:
        """(id, BM25 score, stored sparse vector if asked) of the points sharing a term with `sparse`;
        the IDF counted among the points of `corpus` (None: every point)."""
        response = self._call(
            "query_points", name, query=qm.SparseVector(indices=list(sparse[0]), values=list(sparse[1])), using=SPARSE,
            limit=max(1, limit), query_filter=to_qdrant_filter(where), search_params=_idf_params(corpus),
            with_payload=False, with_vectors=[SPARSE] if with_sparse else False,
        )
        found = []
        for p in response.points:
            stored = (p.vector or {}).get(SPARSE) if with_sparse and isinstance(p.vector, dict) else None
            found.append((str(p.id), float(p.score),
                          (list(stored.indices), [float(v) for v in stored.values]) if stored is not None else None))
        return found

    def hybrid(
        self, name: str, vector: Sequence[float], sparse: Sparse, limit: int, candidates: int, where: Where | None,
        corpus: Where | None = None,
    ) -> list[Hit]:
        flt = to_qdrant_filter(where)
        prefetch = [qm.Prefetch(query=list(vector), using=DENSE, limit=candidates, filter=flt)]
        if sparse and sparse[0]:
            prefetch.append(qm.Prefetch(
                query=qm.SparseVector(indices=list(sparse[0]), values=list(sparse[1])),
                using=SPARSE, limit=candidates, filter=flt, params=_idf_params(corpus),
            ))
        response = self._call(
            "query_points", name, prefetch=prefetch, query=qm.FusionQuery(fusion=qm.Fusion.RRF),
            query_filter=flt, limit=limit, with_payload=True,
        )
        return _hits(response.points)

    def close(self) -> None:
        with self._lock:
            self._client.close()
