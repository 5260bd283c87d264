"""Adversarial inputs of growing size through every chunking strategy, the HTML conversion and the
display sanitiser: the time must grow linearly (break 6 of the security review: a 120 KB file
took 50 s in one strategy and a 9 MB nested list never finished ingesting).

For each input and operation it times 100 KB, 1 MB and 9 MB (by default) and fits the growth
exponent between the two largest sizes: 1 is linear, 2 quadratic. An exponent over 1.3 (unless
the largest input takes under 0.5 s, where noise decides), or less than 0.1 MB/s at the largest
size (the time budget: 9 MB in 90 s), fails the run (exit status 1). Writes
benchmarks/results/adversarial.json.

    .venv/bin/python benchmarks/adversarial.py [--sizes 100000 1000000 9000000] [--only NAME]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, finish, machine, median_of, say  # noqa: E402

from ui.present.answer import demote_headings  # noqa: E402
from rag.chunking import STRATEGIES, make_chunker  # noqa: E402
from rag.sources.html import html_to_markdown  # noqa: E402
from ui.present.safe_markdown import sanitize_markdown  # noqa: E402

LINEAR_ENOUGH = 1.3  # growth exponent; timing noise on a shared machine stays well under it
# Seconds at the largest size below which noise decides the exponent (the machine is shared).
# Harmless either way: a quadratic process that fast at 9 MB stays that fast up to the 10 MB cap.
TOO_FAST_TO_FIT = 0.5
MIN_MB_PER_S = 0.1  # the time budget: 9 MB in at most 90 s, whatever the input


def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


MARKDOWN: dict[str, Callable[[int], str]] = {
    "spaces then text": lambda n: "Intro.\n" + " " * n + "x\n",
    "tabs then a pipe": lambda n: "a | b\n" + "\t" * n + "|x\n",
    "heading with spaces": lambda n: "# a" + " " * n + "b #c\n",
    "nested list": lambda n: "".join(" " * (2 * (i % 400)) + "- item\n" for i in range(max(1, n // 400))),
    "backticks": lambda n: _repeat("`a ", n),
    "pipes and dashes": lambda n: _repeat("|" + " " * 50 + "-" + " " * 50, n),
    "hashes": lambda n: _repeat("#" * 7 + " " * 100 + "\n", n),
    "stars": lambda n: _repeat("*a ", n),
}
HTML: dict[str, Callable[[int], str]] = {
    "spaces in a paragraph": lambda n: "<p>a" + " " * n + "b</p>",
    "unclosed tags": lambda n: _repeat("<p ", n),
    "unclosed quotes": lambda n: _repeat('<a b="', n),
    "end tags without names": lambda n: _repeat("</", n),
    "emphasis in a heading": lambda n: "<h2>" + _repeat("*a ", n) + "</h2>",
    "unclosed comments": lambda n: "<p>x</p>" + _repeat("<!--", n),
}


def _operations(kind: str) -> dict[str, Callable[[str], object]]:
    if kind == "html":
        return {"html_to_markdown": html_to_markdown}
    ops: dict[str, Callable[[str], object]] = {}
    for name in sorted(STRATEGIES):
        chunker = make_chunker(name)
        ops[f"chunk:{name}"] = lambda text, c=chunker: c.chunk(text, title="T")
    # A trailing tag makes the sanitiser do its whole work (text without "<" has nothing to escape).
    ops["display"] = lambda text: sanitize_markdown(demote_headings(text + "\n<b>"), images=False)
    return ops


def _exponent(small: tuple[int, float], large: tuple[int, float]) -> float | None:
    (n1, t1), (n2, t2) = small, large
    if t1 <= 0 or t2 <= 0 or n2 <= n1:
        return None
    return math.log(t2 / t1) / math.log(n2 / n1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000, 9_000_000])
    parser.add_argument("--only", help="run only the inputs whose name contains this")
    args = parser.parse_args()
    started = time.monotonic()
    sizes = sorted(args.sizes)
    rows = []
    failures = []
    for kind, inputs in (("markdown", MARKDOWN), ("html", HTML)):
        for input_name, make in inputs.items():
            if args.only and args.only not in input_name:
                continue
            for op_name, op in _operations(kind).items():
                points: list[tuple[int, float]] = []
                for size in sizes:
                    text = make(size)
                    runs = 3 if size <= 1_000_000 else 1
                    seconds, _, _ = median_of(lambda: op(text), runs)
                    points.append((len(text), seconds))
                    say(f"{kind:8s} {input_name:24s} {op_name:28s} {len(text) / 1e6:6.2f} MB  {seconds:8.3f} s")
                exponent = _exponent(points[-2], points[-1]) if len(points) > 1 else None
                largest, seconds_at_largest = points[-1]
                linear = exponent is None or exponent <= LINEAR_ENOUGH or seconds_at_largest < TOO_FAST_TO_FIT
                within_budget = seconds_at_largest <= largest / 1e6 / MIN_MB_PER_S
                if not linear:
                    failures.append(f"{input_name} / {op_name}: exponent {exponent:.2f}")
                if not within_budget:
                    failures.append(f"{input_name} / {op_name}: {seconds_at_largest:.1f} s for "
                                    f"{largest / 1e6:.1f} MB, under {MIN_MB_PER_S} MB/s")
                rows.append({
                    "kind": kind, "input": input_name, "operation": op_name,
                    "points": [{"chars": n, "seconds": round(t, 4), "mb_per_s": round(n / 1e6 / t, 2) if t else None}
                               for n, t in points],
                    "growth_exponent": round(exponent, 2) if exponent is not None else None,
                    "linear": linear,
                    "within_budget": within_budget,
                })
    results = {
        "machine": machine(("beautifulsoup4", "markdownify")),
        "command": " ".join(["benchmarks/adversarial.py", *sys.argv[1:]]),
        "sizes": sizes,
        "linear_enough": LINEAR_ENOUGH,
        "too_fast_to_fit_seconds": TOO_FAST_TO_FIT,
        "min_mb_per_s": MIN_MB_PER_S,
        "rows": rows,
        "failures": failures,
    }
    finish(results, RESULTS / "adversarial.json", started)
    for failure in failures:
        say(f"NOT LINEAR: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
