"""The waits a newcomer feels, this checkout against an earlier commit, measured in one run:
"Load the demo corpus" (rag.demo.load_demo on a fresh store) and Enter to passages (the embedded
model embeds the question, then retrieve() with the session's options, as the Ask page does
before the chat model is called), the two trees taking turns so a busy moment hits both.

    .venv/bin/python benchmarks/side_by_side.py                 # against the merge base with main
    .venv/bin/python benchmarks/side_by_side.py --base HEAD~3 --rounds 3

The earlier commit is exported with `git archive` into a temporary folder (no worktree, nothing
checked out here) and run with its own `rag` first on PYTHONPATH. Each measure is a fresh
process with the load average read just before it: a figure without its load says little on a
shared machine. Writes benchmarks/results/side_by_side.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]
OUT = ROOT / "benchmarks" / "results" / "side_by_side.json"
QUESTIONS = 20  # demo questions timed from Enter to passages, after one warm-up


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def child(threads: int) -> dict:
    """In a fresh process, inside one tree: the demo load, then Enter to passages per question."""
    from rag.answer.retrieve import retrieve, retrieve_options
    from rag.config import Settings
    from rag.demo import DEMO_COLLECTION, QUESTIONS_PATH, load_demo
    from rag.embeddings.embedded import EmbeddedEmbedder
    from rag.evaluate.questions import load_questions
    from rag.store.store import Store

    with tempfile.TemporaryDirectory(prefix="rag-bench-side-") as folder:
        settings = Settings(data_dir=Path(folder), qdrant_url=None)
        store = Store(settings)
        load_before = _load()
        began = time.perf_counter()
        load_demo(store, EmbeddedEmbedder(threads))
        demo_seconds = time.perf_counter() - began
        embedder = EmbeddedEmbedder(threads)  # the page's cached model, loaded once
        options = retrieve_options(settings)
        questions = [q.question for q in load_questions(QUESTIONS_PATH)][: QUESTIONS + 1]
        retrieve(questions[0], store, embedder, DEMO_COLLECTION, **options)  # warm-up
        ask_before = _load()
        times = []
        for question in questions[1:]:
            start = time.perf_counter()
            retrieve(question, store, embedder, DEMO_COLLECTION, **options)
            times.append(time.perf_counter() - start)
        store.close()
    return {"demo_load_s": round(demo_seconds, 2), "demo_load_load_average": load_before,
            "enter_to_passages_median_s": round(statistics.median(times), 3),
            "enter_to_passages_p90_s": round(sorted(times)[int(0.9 * (len(times) - 1))], 3),
            "ask_load_average": ask_before}


def _export(commit: str, into: Path) -> str:
    sha = subprocess.run(["git", "rev-parse", commit], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    archive = into / "tree.tar"
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), sha], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return sha


def _run_in(tree: Path, threads: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "RAG_EMBED_THREADS": str(threads)}
    env = {k: v for k, v in env.items() if not (k.startswith("RAG_") and k not in ("RAG_EMBED_THREADS",))}
    out = subprocess.run([sys.executable, str(HERE), "--child", "--threads", str(threads)], cwd=tree, env=env,
                         capture_output=True, text=True, timeout=900, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=None, help="the earlier commit (default: the merge base with main)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.threads)))
        return
    base = args.base or subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT, capture_output=True,
                                       text=True, check=True).stdout.strip()
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    runs: dict[str, list[dict]] = {"base": [], "head": []}
    with tempfile.TemporaryDirectory(prefix="rag-bench-base-") as folder:
        base_sha = _export(base, Path(folder))
        trees = {"base": Path(folder) / "tree", "head": ROOT}
        for round_ in range(args.rounds):
            for name in (("base", "head") if round_ % 2 == 0 else ("head", "base")):
                runs[name].append(_run_in(trees[name], args.threads))
                print(f"{name} round {round_ + 1}: {runs[name][-1]}", flush=True)

    def summary(rows: list[dict]) -> dict:
        return {"demo_load_median_s": round(statistics.median(r["demo_load_s"] for r in rows), 2),
                "enter_to_passages_median_s": round(statistics.median(r["enter_to_passages_median_s"] for r in rows), 3),
                "load_average_median": round(statistics.median(r["demo_load_load_average"] for r in rows), 2),
                "runs": rows}

    results = {"base": {"commit": base_sha, **summary(runs["base"])}, "head": {"commit": head, **summary(runs["head"])},
               "threads": args.threads, "cores": os.cpu_count(), "questions_timed": QUESTIONS}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    for name in ("base", "head"):
        r = results[name]
        print(f"{name} {r['commit'][:7]}: demo load {r['demo_load_median_s']} s, Enter to passages "
              f"{r['enter_to_passages_median_s']} s (median; load average {r['load_average_median']})")


if __name__ == "__main__":
    main()
