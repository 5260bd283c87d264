"""Copy collections between two stores, e.g. the embedded store (Qdrant Edge) to a server.

Points are copied as they are stored (dense and sparse vectors, payload, ids), so nothing is
re-embedded, and the collection is created with the source's metadata (model, strategy,
threshold, dates) and payload indexes. Edge has no snapshot export in Python: points are read
by scrolling with their vectors and written with the destination's own upsert. One collection
at a time; an existing destination is refused unless asked, and the count is checked at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rag.i18n import t
from rag.errors import StoreError
from rag.store.points import PointRecord

Progress = Callable[[int, int], None]


@dataclass
class CopyReport:
    name: str
    points: int
    source: str
    destination: str


def copy_collection(
    src_store: Any,
    dst_store: Any,
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
        raise StoreError(t("migrate.batch", value=batch))
    target = dst_name or name
    if src_store.location == dst_store.location and target == name:
        raise StoreError(t("migrate.same", store=src_store.describe()))
    if not src_store.exists(name):
        available = ", ".join(src_store.list_collections()) or t("eval.none")
        raise StoreError(t("migrate.no_collection", name=repr(name), store=src_store.describe(), available=available))
    if dst_store.exists(target):
        if not replace:
            raise StoreError(t("migrate.exists", name=repr(target), store=dst_store.describe(), n=dst_store.count(target)))
        dst_store.delete_collection(target)
    total = src_store.count(name)
    dimension = src_store.dimension(name) or src_store.metadata(name).get("dimension")
    if not dimension:
        raise StoreError(t("migrate.no_size", name=repr(name), store=src_store.describe()))
    dst_store.create_collection(target, int(dimension), src_store.metadata(name))
    for field_name, kind in src_store.indexes(name).items():
        dst_store.create_index(target, field_name, kind)

    copied = 0
    records: list[PointRecord] = []
    for point in src_store.scroll(name, with_vectors=True):
        records.append(PointRecord(id=point.id, dense=point.vector or [], sparse=point.sparse, payload=point.payload))
        if len(records) >= batch:
            copied += _write(dst_store, target, records, total, copied, progress)
            records = []
    if records:
        copied += _write(dst_store, target, records, total, copied, progress)
    dst_store.finish(target)

    written = dst_store.count(target)
    if written != total:
        raise StoreError(t("migrate.short", name=repr(name), written=written, store=dst_store.describe(), total=total))
    return CopyReport(name=target, points=written, source=src_store.describe(), destination=dst_store.describe())


def _write(dst: Any, name: str, records: list[PointRecord], total: int, before: int, progress: Progress | None) -> int:
    dst.upsert(name, records)
    dst.commit(name)
    if progress is not None:
        progress(before + len(records), total)
    return len(records)
