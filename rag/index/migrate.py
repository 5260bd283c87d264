"""Copy collections between two Qdrant locations, e.g. the embedded store to a server.

Points are copied as they are stored (dense and sparse vectors, payload, ids), so nothing is
re-embedded, and the collection is created with the source's vector layout (including the
BM25 sparse vector's IDF modifier) and its metadata (model, strategy, threshold, dates).
qdrant-client's own `migrate` helper copies whole clients and replaces collisions silently;
here one collection is copied, an existing destination is refused unless asked, and the
count is checked at the end.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Callable

from qdrant_client import models as qm

from rag.errors import StoreError
from rag.index.store import INDEXED_FIELDS, Store

Progress = Callable[[int, int], None]


@dataclass
class CopyReport:
    name: str
    points: int
    source: str
    destination: str


def _collection_config(store: Store, name: str) -> Any:
    if not store.exists(name):
        available = ", ".join(store.list_collections()) or "none"
        raise StoreError(
            f"The collection {name!r} does not exist in the {store.describe()} "
            f"(collections there: {available}). Pick one with --collection NAME."
        )
    return store._call("get_collection", name)


def _create_like(dst: Store, name: str, source_info: Any, replace: bool) -> None:
    if dst.exists(name):
        if not replace:
            raise StoreError(
                f"The collection {name!r} already exists in the {dst.describe()} "
                f"({dst.count(name)} points). Pass --replace to overwrite it, or copy into another name."
            )
        dst.delete_collection(name)
    params = source_info.config.params
    dst._call(
        "create_collection",
        name,
        vectors_config=params.vectors,
        sparse_vectors_config=params.sparse_vectors,
        metadata=dict(source_info.config.metadata or {}),
    )
    # Filtered queries on a server need the payload indexes; local mode ignores them (and warns).
    fields: dict[str, Any] = {f: qm.PayloadSchemaType.KEYWORD for f in INDEXED_FIELDS}
    for field_name, index in (source_info.payload_schema or {}).items():
        fields[field_name] = index.params if index.params is not None else index.data_type
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for field_name, schema in fields.items():
            dst._call("create_payload_index", name, field_name, schema)


def copy_collection(
    src_store: Store,
    dst_store: Store,
    name: str,
    batch: int = 256,
    *,
    dst_name: str | None = None,
    replace: bool = False,
    progress: Progress | None = None,
) -> CopyReport:
    """Copy collection `name` from `src_store` to `dst_store` (as `dst_name`, default the same name).

    Raises StoreError when the source collection is missing, the destination already has it
    (unless `replace`), or the destination ends up with a different number of points.
    `progress(copied, total)` is called after every batch.
    """
    if batch < 1:
        raise StoreError(f"The batch size must be at least 1 (got {batch}).")
    target = dst_name or name
    if src_store.location == dst_store.location and target == name:
        raise StoreError(
            f"The source and the destination are the same ({src_store.describe()}): nothing to copy."
        )
    info = _collection_config(src_store, name)
    total = src_store.count(name)
    _create_like(dst_store, target, info, replace)

    copied = 0
    offset = None
    while True:
        records, offset = src_store._call(
            "scroll", name, limit=batch, offset=offset, with_payload=True, with_vectors=True
        )
        if records:
            points = [qm.PointStruct(id=r.id, vector=r.vector or {}, payload=r.payload or {}) for r in records]
            dst_store._call("upsert", target, points=points, wait=True)
            copied += len(points)
            if progress is not None:
                progress(copied, total)
        if offset is None or not records:
            break

    written = dst_store.count(target)
    if written != total:
        raise StoreError(
            f"Copying {name!r} left {written} points in the {dst_store.describe()} instead of {total}. "
            "Run the command again with --replace."
        )
    return CopyReport(name=target, points=written, source=src_store.describe(), destination=dst_store.describe())
