"""What an ingestion run tells while it runs (IngestProgress) and when it ends (IngestReport)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from rag.i18n import t, tn
from rag.i18n.numbers import duration
from rag.enrich import enrichment_summary


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
    # The current document's passages embedded so far, of its total (0 of 0 outside embedding):
    # a single long document moves the bar too, not only the count of documents done.
    passages_done: int = 0
    passages_total: int = 0

    @property
    def fraction(self) -> float:
        """How far the run is, 0 to 1: documents done plus the share of the current one's
        passages embedded (0 while the number of documents is unknown)."""
        if not self.docs_total:
            return 1.0 if self.phase == "done" else 0.0
        within = self.passages_done / self.passages_total if self.passages_total else 0.0
        return min(1.0, (self.docs_done + within) / self.docs_total)


ProgressCallback = Callable[[IngestProgress], None]


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
    relinked_urls: list[str] = field(default_factory=list)  # unchanged documents whose url changed, updated in place

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
        skipped = t("report.ingest_skipped", n=len(self.skipped)) if self.skipped else ""
        lines = [t("report.ingest", name=repr(self.collection), strategy=self.strategy, model=self.embedding_model,
                   new=self.new, changed=self.changed, unchanged=self.unchanged, skipped=skipped,
                   failed=len(self.failed), pruned=self.pruned, written=tn("report.written", self.chunks_written),
                   time=duration(self.seconds, 1))]
        if self.relinked_urls:
            lines.append(tn("report.relinked", len(self.relinked_urls)))
        if self.enrichment:
            lines.append(enrichment_summary(self.enrichment))
        if self.verify_error:
            lines.append(t("report.verify_failed", error=self.verify_error))
        elif self.verified:
            lines.append(tn("report.verified", self.verified))
        if self.aborted:
            lines.append(t("report.aborted", why=self.aborted))
        for message in self.warnings:
            lines.append(t("report.warning", message=message))
        for item, reason in self.skipped:
            lines.append(t("report.skipped", item=item, reason=reason))
        for item, reason in self.failed:
            lines.append(t("report.failed_doc", item=item, reason=reason))
        return "\n".join(lines)
