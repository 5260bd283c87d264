"""Subjects with no article: how well the refused questions group into the subjects readers asked about.

    .venv/bin/python benchmarks/journal_subjects.py                 # the demo collection (small)
    RAG_CORPORA=/path .venv/bin/python benchmarks/journal_subjects.py --corpus docsfr   # 226 docs

The fixture, benchmarks/data/journal_subjects.jsonl (fixed), holds 40 questions about 5 subjects
the demo articles do not cover (backups, BitLocker, Intune, mail authentication, VPN), written
plainly and with the details readers add (a colleague's name, a typo, an error code). Their
"words no article mentions" come from the gate's word checks against the collection's chunks, as
the journal records them. Three groupings are measured: the questions' closeness alone (bundled
e5-small), the shared unknown words alone, and both (what the Journal page uses).

Reported: purity (share of questions whose group's majority subject is theirs; 1.0 = no group
mixes subjects), completeness (share of each subject's questions in its largest group; 1.0 = no
subject split), groups, singletons. Writes benchmarks/results/journal_subjects.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import DOCS_FR, RESULTS, corpus_path, finish, load_documents, machine, say  # noqa: E402

from rag.answer.gate_signals import signals_from  # noqa: E402
from rag.chunking import make_chunker  # noqa: E402
from rag.demo import DEMO_DIR  # noqa: E402
from rag.store.terms import chunk_terms, question_keys, question_words  # noqa: E402
from rag.journal.answers import unknown_terms  # noqa: E402
from rag.journal.records import Entry  # noqa: E402
from rag.journal.subjects import JOIN_AT, SHARED_TERM_BONUS, embed_questions, group  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "data" / "journal_subjects.jsonl"


def purity(groups: list[list[str]]) -> float:
    total = sum(len(g) for g in groups)
    return sum(Counter(g).most_common(1)[0][1] for g in groups) / total


def completeness(groups: list[list[str]]) -> float:
    sizes = Counter(label for g in groups for label in g)
    best = {label: max(g.count(label) for g in groups) for label in sizes}
    return sum(best.values()) / sum(sizes.values())


def measure(subjects, truth: dict[str, str]) -> dict:
    groups = [[truth[e.id] for e in s.entries] for s in subjects]
    return {"purity": round(purity(groups), 4), "completeness": round(completeness(groups), 4),
            "groups": len(groups), "singletons": sum(len(g) == 1 for g in groups),
            "sizes": [len(g) for g in groups],
            "groups_by_subject": [dict(Counter(g)) for g in groups]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", choices=("demo", "docsfr"), default="demo")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    started = time.monotonic()
    folder = DEMO_DIR if args.corpus == "demo" else corpus_path(DOCS_FR)
    docs = load_documents(folder)
    chunks = [c for d in docs for c in make_chunker("markdown").chunk(d.markdown, title=d.title)]
    df = Counter(k for c in chunks for k in chunk_terms(c.embedding_text))
    rows = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
    entries = []
    for row in rows:
        counts = {k: df.get(k, 0) for k in question_keys(question_words(row["question"]))}
        signals = signals_from(row["question"], [type("P", (), {"score": 1.0, "text": ""})()], counts, len(chunks))
        terms = unknown_terms({"signals": signals.to_dict()})  # as the journal records them
        entries.append(Entry(question=row["question"], outcome="refused_gate", reader=row["reader"],
                             unknown_terms=terms, id=row["id"], time="2026-11-30T10:00:00+00:00"))
    truth = {row["id"]: row["subject"] for row in rows}
    say(f"{len(entries)} questions, {len(set(truth.values()))} subjects, {len(chunks)} chunks ({args.corpus})")
    embedded_at = time.monotonic()
    vectors = embed_questions([e.question for e in entries])
    embed_seconds = time.monotonic() - embedded_at
    runs = {
        "closeness_only": group(entries, vectors, bonus=0.0),
        "unknown_words_only": group(entries, None),
        "both (shipped)": group(entries, vectors),
    }
    results = {"machine": machine(), "corpus": args.corpus, "fixture": str(FIXTURE.relative_to(FIXTURE.parents[2])),
               "questions": len(entries), "subjects": len(set(truth.values())),
               "with_unknown_words": sum(bool(e.unknown_terms) for e in entries),
               "join_at": JOIN_AT, "shared_term_bonus": SHARED_TERM_BONUS,
               "embed_seconds": round(embed_seconds, 2), "groupings": {}}
    for name, subjects in runs.items():
        results["groupings"][name] = measure(subjects, truth)
        figures = {k: v for k, v in results["groupings"][name].items() if k in ("purity", "completeness", "groups", "singletons")}
        say(f"{name}: {figures}")
    # The shipped grouping's sensitivity to its one threshold, both sides.
    results["join_at_sweep"] = {
        f"{value:.2f}": {k: v for k, v in measure(group(entries, vectors, join_at=value), truth).items()
                         if k in ("purity", "completeness", "groups", "singletons")}
        for value in (0.84, 0.85, 0.86, 0.87, 0.88, 0.89, 0.90, 0.91)}
    results["labels"] = [s.label for s in runs["both (shipped)"]]
    out = args.out or RESULTS / ("journal_subjects.json" if args.corpus == "demo" else "journal_subjects_docsfr.json")
    finish(results, out, started)


if __name__ == "__main__":
    main()
