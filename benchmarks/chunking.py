"""Chunking speed and correctness: our strategies against langchain-text-splitters and
semantic-text-splitter, on the same Markdown built from the docs-fr corpus.

    .venv/bin/pip install -e '.[bench]'      # langchain-text-splitters, semantic-text-splitter
    .venv/bin/python benchmarks/chunking.py  # about a minute; writes benchmarks/results/chunking.json

Speed: median seconds of several runs per input (small page, 100 KB, 1 MB), throughput in MB/s
and the ratio ours/theirs (above 1 = ours faster). Correctness: does each chunk's start offset
point at exactly its text (`text[start:start+len(chunk)] == chunk`), and how many non-blank
characters of the input no chunk covers. A splitter that gives no offsets is located by searching
each chunk after the previous one, and its offsets are reported as "none given".
"""

from __future__ import annotations

import argparse
import gc
import datetime as dt
import json
import os
import platform
import statistics
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DOCS_FR, corpus_path  # noqa: E402

from rag.chunking import STRATEGIES, make_chunker  # noqa: E402
from rag.documents import Document  # noqa: E402
from rag.sources.files import load_file  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "chunking.json"
SIZES = {"small": None, "100KB": 100_000, "1MB": 1_000_000}
CHUNK, OVERLAP = 1000, 200

# (offset or None when the splitter gives none, chunk text)
Result = list[tuple[int | None, str]]


def build_inputs() -> dict[str, str]:
    """One real page, then the corpus concatenated (as ingestion would see it) up to each size."""
    docs = []
    corpus = corpus_path(DOCS_FR)
    for path in sorted(corpus.rglob("*.md")):
        doc = load_file(path, corpus)
        if isinstance(doc, Document):
            docs.append(doc.markdown)
    inputs = {"small": next(d for d in docs if 4_000 <= len(d) <= 8_000)}
    joined = "\n\n".join(docs)
    while len(joined) < max(s for s in SIZES.values() if s):
        joined += "\n\n" + joined
    for name, size in SIZES.items():
        if size:
            cut = joined.rfind("\n", 0, size)
            inputs[name] = joined[: cut + 1]
    return inputs


def contenders() -> dict[str, Callable[[str], Result]]:
    found: dict[str, Callable[[str], Result]] = {}
    for name in STRATEGIES:
        chunker = make_chunker(name)
        found[f"ours:{name}"] = lambda text, c=chunker: [(ch.start, ch.text) for ch in c.chunk(text)]
    try:
        from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

        recursive = RecursiveCharacterTextSplitter(chunk_size=CHUNK, chunk_overlap=OVERLAP, add_start_index=True)
        found["langchain:RecursiveCharacterTextSplitter"] = lambda text: [
            (d.metadata["start_index"], d.page_content) for d in recursive.create_documents([text])
        ]
        headers = MarkdownHeaderTextSplitter(
            headers_to_split_on=[("#", "h1"), ("##", "h2"), ("###", "h3")], strip_headers=False
        )
        found["langchain:MarkdownHeaderTextSplitter"] = lambda text: [
            (None, d.page_content) for d in headers.split_text(text)
        ]
    except ImportError:
        print("langchain-text-splitters is not installed: skipped", file=sys.stderr)
    try:
        from semantic_text_splitter import MarkdownSplitter, TextSplitter

        text_splitter = TextSplitter(CHUNK, overlap=OVERLAP)
        markdown_splitter = MarkdownSplitter(CHUNK, overlap=OVERLAP)
        found["semantic-text-splitter:TextSplitter"] = lambda text: list(text_splitter.chunk_indices(text))
        found["semantic-text-splitter:MarkdownSplitter"] = lambda text: list(markdown_splitter.chunk_indices(text))
    except ImportError:
        print("semantic-text-splitter is not installed: skipped", file=sys.stderr)
    return found


def _locate(text: str, result: Result) -> tuple[list[tuple[int, int]], int]:
    """Spans of the chunks in `text`: the given offset when it is exact, else the first match
    after the previous chunk (else anywhere). Returns the spans and how many were not found."""
    spans, missing, cursor = [], 0, 0
    for start, chunk in result:
        found = start if start is not None and text.startswith(chunk, start) else text.find(chunk, cursor)
        if found < 0:
            found = text.find(chunk)
        if found < 0:
            missing += 1
            continue
        spans.append((found, found + len(chunk)))
        cursor = found + 1
    return spans, missing


def _uncovered_non_blank(text: str, spans: list[tuple[int, int]]) -> int:
    covered = bytearray(len(text))
    for start, end in spans:
        covered[start:end] = b"\x01" * (end - start)
    return sum(1 for i, flag in enumerate(covered) if not flag and not text[i].isspace())


def correctness(text: str, result: Result) -> dict:
    offsets_given = all(start is not None for start, _ in result)
    exact = sum(1 for start, chunk in result if start is not None and text.startswith(chunk, start))
    spans, verbatim_missing = _locate(text, result)
    if verbatim_missing:
        # A splitter that rewrites whitespace (joins lines, trims) is not blamed for it: its
        # chunks are located again with all whitespace removed on both sides.
        squeeze = str.maketrans("", "", " \t\n\r\f\v\u00a0")
        squeezed = text.translate(squeeze)
        spans, missing = _locate(squeezed, [(None, chunk.translate(squeeze)) for _, chunk in result])
        lost = _uncovered_non_blank(squeezed, spans)
    else:
        missing, lost = 0, _uncovered_non_blank(text, spans)
    sizes = [len(chunk) for _, chunk in result]
    return {
        "chunks": len(result),
        "max_chars": max(sizes, default=0),
        "median_chars": statistics.median(sizes) if sizes else 0,
        "offsets": "given" if offsets_given else "none given",
        "exact_offsets": exact if offsets_given else None,
        "exact_offsets_share": round(exact / len(result), 4) if offsets_given and result else None,
        "chunks_not_verbatim_in_text": verbatim_missing,
        "chunks_not_found_even_ignoring_whitespace": missing,
        "lost_non_blank_chars": lost,
    }


def timed_round_robin(splitters: dict[str, Callable[[str], Result]], text: str, runs: int) -> dict[str, tuple[float, Result]]:
    """Median seconds per splitter. Runs are interleaved so that load from other processes falls
    on every splitter alike, and the garbage collector is paused while a run is timed (as timeit does)."""
    times: dict[str, list[float]] = {name: [] for name in splitters}
    results: dict[str, Result] = {}
    for _ in range(runs):
        for name, func in splitters.items():
            gc.collect()
            gc.disable()
            try:
                start = time.perf_counter()
                results[name] = func(text)
                times[name].append(time.perf_counter() - start)
            finally:
                gc.enable()
    return {name: (statistics.median(times[name]), results[name]) for name in splitters}


def machine() -> dict:
    versions = {}
    for package in ("langchain-text-splitters", "semantic-text-splitter"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "packages": versions,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="runs per measurement; the median is kept (default 9)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)

    inputs = build_inputs()
    splitters = contenders()
    results: dict = {
        "command": ".venv/bin/python benchmarks/chunking.py",
        "machine": machine(),
        "settings": {"chunk_size": CHUNK, "overlap": OVERLAP, "runs": args.runs},
        "notes": [
            "seconds are medians of `runs` runs, splitters interleaved run by run, garbage collector paused while timing",
            "throughput_ratio_ours_over_theirs = their seconds / our seconds: above 1 means ours is faster",
            "our strategies also compute warnings and heading paths; the peers compute neither",
            "MarkdownHeaderTextSplitter (strip_headers=False) gives no offsets and rewrites whitespace: "
            "its chunks are located ignoring whitespace, and lost_non_blank_chars counts non-blank characters "
            "no chunk covers",
        ],
    }
    results["inputs"] = {name: {"chars": len(text), "bytes": len(text.encode("utf-8"))} for name, text in inputs.items()}
    results["runs"] = {}
    for input_name, text in inputs.items():
        megabytes = len(text.encode("utf-8")) / 1e6
        runs = args.runs
        row = {}
        for name, (seconds, result) in timed_round_robin(splitters, text, runs).items():
            row[name] = {"seconds": round(seconds, 5), "mb_per_s": round(megabytes / seconds, 2), **correctness(text, result)}
            print(f"{input_name:>6} {name:<42} {seconds * 1000:9.1f} ms {row[name]['mb_per_s']:8.2f} MB/s "
                  f"{row[name]['chunks']:5} chunks  exact offsets: {row[name]['exact_offsets_share']}  "
                  f"lost: {row[name]['lost_non_blank_chars']}")
        results["runs"][input_name] = row

    one_mb = inputs["1MB"]
    chunkers = [make_chunker(name) for name in STRATEGIES]
    all_four, _ = timed_round_robin({"all": lambda text: [c.chunk(text) for c in chunkers]}, one_mb, args.runs)["all"]
    results["all_four_strategies_1MB_seconds"] = round(all_four, 4)
    print(f"all four strategies on 1 MB: {all_four * 1000:.0f} ms")

    ratios = {}
    pairs = {
        "ours:recursive / langchain:RecursiveCharacterTextSplitter": ("ours:recursive", "langchain:RecursiveCharacterTextSplitter"),
        "ours:recursive / semantic-text-splitter:TextSplitter": ("ours:recursive", "semantic-text-splitter:TextSplitter"),
        "ours:markdown / langchain:MarkdownHeaderTextSplitter": ("ours:markdown", "langchain:MarkdownHeaderTextSplitter"),
        "ours:markdown / semantic-text-splitter:MarkdownSplitter": ("ours:markdown", "semantic-text-splitter:MarkdownSplitter"),
    }
    for label, (ours, theirs) in pairs.items():
        if theirs in splitters:
            # Throughput ratio: above 1 means ours is faster.
            ratios[label] = {
                size: round(results["runs"][size][theirs]["seconds"] / results["runs"][size][ours]["seconds"], 2)
                for size in inputs
            }
    results["throughput_ratio_ours_over_theirs"] = ratios
    for label, by_size in ratios.items():
        print(f"{label}: {by_size}")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
