"""The embedded Qdrant's write and query cost at 1k, 10k and 20k chunks: when to move to a server.

    .venv/bin/python benchmarks/store_scale.py       # 1-2 minutes (longer on a slow disk); writes benchmarks/results/store_scale.json

One collection grows to each size in turn. Points look like ingestion's: random 384-dim unit
vectors (the model's cost is measured by benchmarks/ingest.py), the payload ingestion writes, built
from real docs-fr chunks (text, header, heading path...), and the BM25 sparse vector of that text.
They are written one document's chunks per Store.upsert call, as `rag ingest` does. At each size:
write rate (whole step and its last 1000 points), time to open the store again (what an app start
or `rag ask` pays), folder size, process memory, and query latency p50/p95 for dense, dense with
an access filter and hybrid (dense + BM25, RRF) searches.

Writing stops when --write-budget seconds are spent; the sizes not reached are reported with the
rate measured so far, never silently dropped.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    DOCS_FR,
    RESULTS,
    corpus_path,
    finish,
    folder_bytes,
    latency_summary,
    load_documents,
    machine,
    say,
    settings_for,
    temp_data_dir,
    unit_vectors,
)

from rag.chunking import DEFAULT_STRATEGY, make_chunker  # noqa: E402
from rag.demo import QUESTIONS_PATH  # noqa: E402
from rag.embeddings import EMBEDDED_MODEL_ID  # noqa: E402
from rag.index.ingest import _payload, build_key  # noqa: E402
from rag.evaluate.questions import load_questions  # noqa: E402
from rag.index.sparse import sparse_query, sparse_vector  # noqa: E402
from rag.index.store import PointRecord, Store, point_id  # noqa: E402

OUT = RESULTS / "store_scale.json"
SIZES = (1_000, 10_000, 20_000)
COLLECTION = "bench"


class SyntheticCorpus:
    """An endless supply of documents' points: docs-fr chunks, copied under new urls as needed."""

    def __init__(self, strategy: str = DEFAULT_STRATEGY, seed: int = 7) -> None:
        chunker = make_chunker(strategy)
        self.strategy = strategy
        self.settings = chunker.settings()
        self.build = build_key(strategy, self.settings, EMBEDDED_MODEL_ID)
        self.docs = []
        for doc in load_documents(corpus_path(DOCS_FR)):
            chunks = chunker.chunk(doc.markdown, title=doc.title)
            if chunks:
                sparse = [sparse_vector(c.embedding_text) for c in chunks]
                self.docs.append((doc, chunks, sparse))
        self.seed = seed
        self.written = 0
        self._copy = 0
        self._next = 0

    def next_batch(self) -> list[PointRecord]:
        """The points of the next document (a copy of a real one under a new url)."""
        doc, chunks, sparse = self.docs[self._next]
        self._next += 1
        if self._next == len(self.docs):
            self._next, self._copy = 0, self._copy + 1
        url = doc.url if self._copy == 0 else f"copy{self._copy}/{doc.url}"
        vectors = unit_vectors(len(chunks), self.seed + self.written)
        records = []
        for position, chunk in enumerate(chunks):
            payload = _payload(doc, chunk, position, self.strategy, self.build, EMBEDDED_MODEL_ID, len(chunks))
            payload["url"] = url
            records.append(PointRecord(point_id(url, position), vectors[position].tolist(), sparse[position], payload))
        self.written += len(records)
        return records


def rss_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def query_latencies(store: Store, queries: int, questions: list[str]) -> dict[str, Any]:
    vectors = unit_vectors(queries, seed=12345)
    sparse = [sparse_query(questions[i % len(questions)]) for i in range(queries)]
    out: dict[str, Any] = {}
    for name, run in (
        ("dense", lambda i: store.search_dense(COLLECTION, vectors[i].tolist(), limit=6)),
        ("dense_access_filter", lambda i: store.search_dense(COLLECTION, vectors[i].tolist(), limit=6,
                                                             groups=["public"])),
        ("hybrid", lambda i: store.search_hybrid(COLLECTION, vectors[i].tolist(), sparse[i], limit=6)),
    ):
        run(0)  # warm-up
        times = []
        for i in range(queries):
            start = time.perf_counter()
            hits = run(i)
            times.append(time.perf_counter() - start)
            assert hits, f"{name} query {i} returned nothing"
        out[name] = latency_summary(times)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="collection sizes (comma-separated)")
    parser.add_argument("--queries", type=int, default=50, help="queries per kind and size (default 50)")
    parser.add_argument("--write-budget", type=float, default=420.0,
                        help="seconds of writing after which larger sizes are skipped (default 420)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))

    started = time.monotonic()
    questions = [q.question for q in load_questions(QUESTIONS_PATH)]
    corpus = SyntheticCorpus()
    results: dict[str, Any] = {
        "machine": machine(),
        "settings": {"sizes": sizes, "queries": args.queries, "limit": 6, "dimension": 384,
                     "strategy": corpus.strategy, "write_budget_seconds": args.write_budget,
                     "points": "random unit vectors; payload and BM25 sparse vectors of real docs-fr chunks",
                     "batch": "one document's chunks per upsert (as rag ingest)"},
        "sizes": [],
    }
    writing = 0.0
    with temp_data_dir("scale") as data_dir:
        settings = settings_for(data_dir)
        store = Store(settings)
        store.ensure_collection(COLLECTION, EMBEDDED_MODEL_ID, 384, corpus.strategy, corpus.settings)
        try:
            for size in sizes:
                step_points = 0
                step_seconds, tail = 0.0, []  # (points, seconds) of each batch, for the last-1000 rate
                while corpus.written < size and writing < args.write_budget:
                    batch = corpus.next_batch()
                    t = time.perf_counter()
                    store.upsert(COLLECTION, batch)
                    seconds = time.perf_counter() - t
                    step_seconds += seconds
                    writing += seconds
                    step_points += len(batch)
                    tail.append((len(batch), seconds))
                reached = corpus.written >= size
                last_points, last_seconds = 0, 0.0
                for n, s in reversed(tail):
                    if last_points >= 1000:
                        break
                    last_points, last_seconds = last_points + n, last_seconds + s
                row: dict[str, Any] = {
                    "target": size,
                    "reached": reached,
                    "points": store.count(COLLECTION),
                    "step_points_written": step_points,
                    "step_write_seconds": round(step_seconds, 2),
                    "step_points_per_second": round(step_points / step_seconds, 1) if step_seconds else None,
                    "last_1000_points_per_second": round(last_points / last_seconds, 1) if last_seconds else None,
                    "total_write_seconds": round(writing, 2),
                }
                say(f"{size}: {row['points']} points, {row['step_points_per_second']} points/s this step "
                    f"(last 1000: {row['last_1000_points_per_second']}/s), {writing:.0f} s writing so far")
                if not reached:
                    row["not_reached"] = (
                        f"stopped after {writing:.0f} s of writing (--write-budget); at the measured rate "
                        f"the remaining {size - corpus.written} points would take about "
                        f"{(size - corpus.written) / (step_points / step_seconds):.0f} s more"
                    )
                    results["sizes"].append(row)
                    say(row["not_reached"])
                    break
                store.close()
                t = time.perf_counter()
                store = Store(settings)
                store.count(COLLECTION)
                row["open_seconds"] = round(time.perf_counter() - t, 2)
                row["folder_mb"] = round(folder_bytes(data_dir) / 1e6, 1)
                row["process_rss_mb"] = rss_mb()
                row["queries"] = query_latencies(store, args.queries, questions)
                q = row["queries"]
                say(f"  open {row['open_seconds']} s, {row['folder_mb']} MB, dense p50 {q['dense']['p50_ms']} ms "
                    f"p95 {q['dense']['p95_ms']} ms, hybrid p50 {q['hybrid']['p50_ms']} ms p95 {q['hybrid']['p95_ms']} ms")
                results["sizes"].append(row)
        finally:
            store.close()
    finish(results, args.out, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
