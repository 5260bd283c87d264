"""What a run removes from its collection: a document its source now refuses (for safety) or
another source's replaces (`withdraw`), and those its source no longer lists (`prune_unseen`,
--prune), each removal committed at once."""

from __future__ import annotations

from typing import Any, Callable

from rag.i18n import t, tn
from rag.ingest.report import IngestReport
from rag.ingest.stored_index import StoredIndex


class Removals:
    def __init__(self, store: Any, collection: str, stored: StoredIndex, report: IngestReport) -> None:
        self.store = store
        self.collection = collection
        self.stored = stored
        self.report = report

    def withdraw(self, key: str, quiet: bool = False) -> None:
        """Remove what an earlier run indexed under `key` (a file's path, a post's identity)."""
        stale = self.stored.points.pop(key, [])
        if stale:
            self.report.points_deleted += self.store.delete_points(self.collection, [p.id for p in stale])
            self.store.commit(self.collection)
            if not quiet:
                self.report.warnings.append(t("ingest.withdrawn", url=key))

    def prune_unseen(self, seen: set[str], prunable: Callable[[dict[str, Any]], bool] | None,
                     restricted: str | None) -> None:
        """Remove every document not `seen` that the source may remove (`prunable`, None: any);
        `restricted` says why the others were kept."""
        kept = 0
        for key, points in sorted(self.stored.points.items()):
            if key in seen:
                continue
            if prunable is not None and not prunable(points[0].payload):
                kept += 1
                continue
            self.report.points_deleted += self.store.delete_points(self.collection, [p.id for p in points])
            self.store.commit(self.collection)
            self.report.pruned += 1
            self.report.pruned_urls.append(str(points[0].payload.get("url") or key))
        if kept and restricted:
            self.report.warnings.append(tn("ingest.kept_unlisted", kept, reason=restricted))
