"""The answerability gate on labelled example questions: what readers write, each with the signals it was judged on.

    .venv/bin/python benchmarks/gate_examples.py                 # seconds; no corpus, no embedding

The fixture, benchmarks/data/gate_examples.jsonl (fixed), holds the example sentences the rule-based
gate's tests judged (their file and test in `source`): a colleague, a company, a town or a child's
class beside the question, typos, acronyms, English on French articles, places, identifiers, and
questions whose subject no article holds. Each row gives the question, the words no visible chunk
holds (`absent`) or the document frequency of every key (`df`), the chunk count `n`, the best
passage's cosine `cosine`, and the label: `answer` (the articles answer it; the words they lack are
the reader's context, a typo...) or `refuse` (its subject is absent from the articles). `kind` says
what the example is about.

Rows from tests that set the signals by hand keep them: every key of an absent word counts 0, every
key of another word HELD_DF (the tests' count), unless the row gives `df`. Rows from tests that ran
on a collection (the demo articles, or the few articles a test indexed) give the `df`, `n` and
`cosine` measured on it once, under the reader's access groups, and were kept fixed since.

Each row is replayed through the gate's own functions: `signals_from` with one passage of the
row's cosine and no text (the rows hold no passage), then `decide_verdict` at the embedding model's
default floor. A label `answer` is met by the verdict answer or unsure (the question reaches the
passages and the chat model); `refuse` by the verdict refuse. Reported: agreement overall, per
label, per kind, and every disagreement with its signals. The rows carry no passage text, so the
share the passages hold reads 0 for every row; `passage_holds_the_known_words` replays them once
more with a passage holding every word some chunk holds, the other bound.
Writes benchmarks/results/gate_examples.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Mapping

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import RESULTS, ROOT, finish, machine, say  # noqa: E402

from rag.answer.gate import ANSWER, MODEL_PATH, REFUSE, UNSURE, GateParams, decide_verdict  # noqa: E402
from rag.answer.gate_signals import signals_from  # noqa: E402
from rag.answer.threshold import default_threshold  # noqa: E402
from rag.embeddings.embedded import MODEL_ID  # noqa: E402
from rag.store.terms import question_words  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "data" / "gate_examples.jsonl"
HELD_DF = 7  # the chunks holding a word the collection holds, as the tests that set the signals counted
LABELS = (ANSWER, REFUSE)
VERDICTS = (ANSWER, UNSURE, REFUSE)
SIGNALS = ("cosine", "coverage", "held", "unknown", "background", "rare_held", "rare_unknown")


class Passage:
    """The one retrieved passage a row stands for."""

    def __init__(self, score: float, text: str = "") -> None:
        self.score, self.text, self.id = score, text, ""


def load(path: Path = FIXTURE) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        if row["label"] not in LABELS:
            raise SystemExit(f"{row['id']}: label {row['label']!r} is neither answer nor refuse")
        words = {w.text for w in question_words(row["question"])}
        if set(row["absent"]) - words:
            raise SystemExit(f"{row['id']}: {sorted(set(row['absent']) - words)} are no words of its question")
    if len({row["id"] for row in rows}) != len(rows):
        raise SystemExit(f"{path.name}: an id is used twice")
    return rows


def frequencies(row: Mapping[str, Any]) -> dict[str, int]:
    """The chunks holding each key of the question's words: the row's `df`, else 0 for every key of
    an absent word and HELD_DF for the others (a key two words share takes the later word's count)."""
    if row.get("df") is not None:
        return {k: int(v) for k, v in row["df"].items()}
    absent, df = set(row["absent"]), {}
    for w in question_words(row["question"]):
        for key in (*w.parts, *w.forms, *([w.exact] if w.exact else []), *([w.whole] if w.whole else [])):
            df[key] = 0 if w.text in absent else HELD_DF
    return df


def known_words(row: Mapping[str, Any], df: Mapping[str, int]) -> str:
    """A passage text holding every word of the question some chunk holds."""
    missing = set(signals_from(question=row["question"], passages=[Passage(row["cosine"])], df=df, n=row["n"],
                               exact=True).missing)
    return " ".join(w.text for w in question_words(row["question"]) if w.text not in missing)


def replay(row: Mapping[str, Any], params: GateParams, known: bool = False) -> dict[str, Any]:
    """The row's signals and verdict; `known`: its passage holds every word some chunk holds."""
    df = frequencies(row)
    text = known_words(row, df) if known else ""
    signals = signals_from(question=row["question"], passages=[Passage(row["cosine"], text)], df=df, n=row["n"],
                           exact=True)
    verdict, reason, score = (*decide_verdict(signals, params), None)[:3]  # the probability, when given
    values = signals.to_dict()
    return {"verdict": verdict, "reason": reason, "score": None if score is None else round(float(score), 4),
            "met": verdict == REFUSE if row["label"] == REFUSE else verdict in (ANSWER, UNSURE),
            "signals": {k: values[k] for k in SIGNALS if values.get(k) is not None},
            "missing": values["missing"], "subject_words": values["subject_words"]}


def tally(rows: list[dict[str, Any]], outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    met = sum(o["met"] for o in outcomes)
    return {"examples": len(rows), "met": met, "share": round(met / len(rows), 4) if rows else None,
            "verdicts": {v: sum(o["verdict"] == v for o in outcomes) for v in VERDICTS}}


def score(rows: list[dict[str, Any]], outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    def part(key: str, value: str) -> dict[str, Any]:
        pairs = [(r, o) for r, o in zip(rows, outcomes) if r[key] == value]
        return tally([r for r, _ in pairs], [o for _, o in pairs])

    counts = Counter(r["kind"] for r in rows)
    by_kind = {}
    for kind in sorted(counts, key=lambda k: (-counts[k], k)):
        by_kind[kind] = part("kind", kind)
        by_kind[kind]["labels"] = dict(Counter(r["label"] for r in rows if r["kind"] == kind))
    return {
        "agreement": tally(rows, outcomes),
        "by_label": {label: part("label", label) for label in LABELS},
        "by_kind": by_kind,
        "disagreements": [
            {"id": r["id"], "kind": r["kind"], "label": r["label"], "verdict": o["verdict"], "reason": o["reason"],
             "score": o["score"], **o["signals"], "missing": o["missing"], "subject_words": o["subject_words"],
             "question": r["question"], "source": r["source"]}
            for r, o in zip(rows, outcomes) if not o["met"]],
    }


def line(name: str, figures: Mapping[str, Any]) -> str:
    v = figures["verdicts"]
    return (f"{name}: {figures['met']}/{figures['examples']} ({figures['share']:.0%}); "
            f"answer {v[ANSWER]}, unsure {v[UNSURE]}, refuse {v[REFUSE]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=RESULTS / "gate_examples.json")
    args = parser.parse_args()
    started = time.monotonic()
    rows = load()
    params = GateParams(default_threshold(MODEL_ID))
    model = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    outcomes = [replay(row, params) for row in rows]
    bound = [replay(row, params, known=True) for row in rows]
    results: dict[str, Any] = {
        "machine": machine(extra_packages=("wordfreq", "PyStemmer")),
        "command": "benchmarks/gate_examples.py",
        "fixture": str(FIXTURE.relative_to(ROOT)),
        "examples": len(rows),
        "labels": dict(Counter(r["label"] for r in rows)),
        "params": params.to_dict(),
        "model": {k: model[k] for k in ("weights", "bias", "refuse_below", "answer_from", "means") if k in model},
        "held_df": HELD_DF,
        "met_by": {ANSWER: [ANSWER, UNSURE], REFUSE: [REFUSE]},
        **score(rows, outcomes),
    }
    other = score(rows, bound)
    results["passage_holds_the_known_words"] = {
        "agreement": other["agreement"], "by_label": other["by_label"],
        "disagreements": [d["id"] for d in other["disagreements"]]}
    results["verdicts"] = {r["id"]: [o["verdict"], o["score"], b["verdict"]] for r, o, b in zip(rows, outcomes, bound)}
    say(line("all", results["agreement"]))
    for label, figures in results["by_label"].items():
        say(line(f"label {label}", figures))
    for kind, figures in results["by_kind"].items():
        say(line(f"kind {kind}", figures))
    for d in results["disagreements"]:
        say(f"  {d['id']} ({d['kind']}): {d['label']} but {d['verdict']} (p {d['score']}, cosine {d.get('cosine')}, "
            f"missing {', '.join(d['missing']) or '-'}): {d['question']}")
    for label, figures in other["by_label"].items():
        say(line(f"a passage holding the known words, label {label}", figures))
    finish(results, args.out, started)


if __name__ == "__main__":
    main()
