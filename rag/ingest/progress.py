"""Ingestion progress as text: one line a document, or one line rewritten in place on a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from rag.i18n import t, tn
from rag.i18n.numbers import decimal, duration, integer
from rag.ingest.report import IngestProgress


def format_progress(p: IngestProgress) -> str:
    docs = f"{p.docs_done}/{p.docs_total}" if p.docs_total is not None else f"{p.docs_done}"
    # "1/1 document", "1 morceau": the count that agrees is the total, when there is one.
    parts = [tn("progress.documents", p.docs_total if p.docs_total is not None else p.docs_done, docs=docs),
             tn("progress.chunks", p.chunks_done)]
    if p.rate > 0:
        # The plural agrees with the number as written: "0,8 morceau/s", "1.5 chunks/s".
        parts.append(tn("progress.rate", round(p.rate, 1), rate=decimal(p.rate, 1)))
    if p.enrich_tokens:
        parts.append(t("progress.contexts", tokens=integer(p.enrich_tokens), time=duration(p.enrich_seconds)))
    if p.eta is not None and p.eta >= 1 and p.phase != "done":  # "about 0 s left" tells nothing
        parts.append(t("progress.eta", time=duration(p.eta)))
    line = ", ".join(parts)
    if p.current and p.phase == "indexed":
        line += f" | {p.current}"
    elif p.current:
        line += " | " + t("progress.phase_item", phase=t(f"phase.{p.phase}"), item=p.current)
        if p.passages_total:
            line += " — " + tn("progress.passages", p.passages_total, done=integer(p.passages_done),
                               total=integer(p.passages_total))
    elif p.phase not in ("reading", "done"):
        line += f" | {t('phase.' + p.phase)}"
    return line


class ProgressPrinter:
    """A progress callback for ingest(). On a terminal it redraws one line (at most every
    `interval` seconds); elsewhere (logs, pipes) it prints one line per finished document."""

    def __init__(self, stream: TextIO | None = None, interval: float = 0.25) -> None:
        self.stream = stream or sys.stderr
        self.interval = interval
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last = 0.0
        self._width = 0

    def __call__(self, p: IngestProgress) -> None:
        if self.tty:
            now = time.monotonic()
            if p.phase != "done" and now - self._last < self.interval:
                return
            self._last = now
            line = format_progress(p)[:160]
            pad = " " * max(0, self._width - len(line))
            self._width = len(line)
            end = "\n" if p.phase == "done" else ""
            print(f"\r{line}{pad}", end=end, file=self.stream, flush=True)
        elif p.phase == "indexed":
            print(f"{format_progress(p)} [{t('outcome.' + p.outcome) if p.outcome else ''}]", file=self.stream, flush=True)
