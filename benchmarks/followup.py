"""Follow-up questions on the demo collection: what retrieval finds for a follow-up ("Et pour un
compte de service ?") as asked, through the fallback without a chat model (the previous question's
terms appended, rag.answer.followup.with_terms), and in its standalone form (what a good rewrite by
the chat model gives), against the expected article: hit@1, hit@6, MRR, and the gate's verdict.

Both sides: the demo set's own questions (standalone, in base and off topic), each asked after the
question before it, go through the same detection: a standalone question taken for a follow-up
would be searched with another question's terms.

Pairs: benchmarks/data/followup_pairs.jsonl (written before any tuning, kept fixed). Short
everyday questions off the subject, each after an in-base one ("Comment faire une pâte à crêpes ?"
after a question on klist): benchmarks/data/followup_offtopic.jsonl (written before the rule that
reads them, kept fixed). Each side is measured with the detection alone ("before") and with the
articles' words (`holds`, rag.answer.gate.term_holder: a short question naming only words no
article holds is no follow-up by its shortness).

`turn`: each follow-up asked after its previous question through the engine's turn
(rag.answer.engine.AnswerEngine.chat, as the Ask page and `rag chat` play it, without a chat model):
judged as asked first, then the previous question's subject terms carried over, then the gate.

    .venv/bin/python benchmarks/followup.py      # ~1 min with cached vectors
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    ROOT,
    RESULTS,
    CachedEmbedder,
    embed_threads,
    finish,
    load_documents,
    machine,
    say,
    settings_for,
    temp_data_dir,
    vector_cache,
)

from rag.answer.engine import AnswerEngine  # noqa: E402
from rag.answer.followup import Turn, is_follow_up, understand  # noqa: E402
from rag.answer.pipeline import Outcome  # noqa: E402
from rag.answer.gate import term_holder  # noqa: E402
from rag.answer.retrieve import retrieve, retrieve_options  # noqa: E402
from rag.chunking import DEFAULT_STRATEGY  # noqa: E402
from rag.demo import DEMO_DIR, QUESTIONS_PATH  # noqa: E402
from rag.embeddings.embedded import EmbeddedEmbedder  # noqa: E402
from rag.evaluate.metrics import hit_rank  # noqa: E402
from rag.evaluate.questions import load_questions  # noqa: E402
from rag.ingest.run import ingest  # noqa: E402
from rag.store.store import Store  # noqa: E402

PAIRS = ROOT / "benchmarks" / "data" / "followup_pairs.jsonl"
OFF_TOPIC = ROOT / "benchmarks" / "data" / "followup_offtopic.jsonl"
TOP_K = 6
COLLECTION = "bench_followup"


def _figures(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    ranks = [r[key]["rank"] for r in rows]
    n = len(ranks)
    return {
        "n": n,
        "hit_at_1": round(sum(1 for r in ranks if r == 1) / n, 3),
        "hit_at_6": round(sum(1 for r in ranks if r is not None and r <= TOP_K) / n, 3),
        "mrr": round(sum(1 / r for r in ranks if r) / n, 3),
        "gate_answers": round(sum(1 for r in rows if r[key]["answer"]) / n, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=RESULTS / "followup.json")
    args = parser.parse_args(argv)
    started = time.monotonic()
    pairs = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    questions = load_questions(QUESTIONS_PATH)
    threads = embed_threads()
    model = CachedEmbedder(EmbeddedEmbedder(threads=threads), vector_cache())
    docs = load_documents(DEMO_DIR)
    with temp_data_dir("followup") as data_dir:
        settings = settings_for(data_dir)
        store = Store(settings)
        try:
            report = ingest(docs, store, model, COLLECTION, strategy=DEFAULT_STRATEGY, full=True)
            assert report.ok, report.summary()
            info = store.collection_info(COLLECTION)
            options = retrieve_options(settings)
            engine = AnswerEngine(settings, store, collection=COLLECTION, info=info, embedder=model, with_llm=False,
                                  top_k=TOP_K, retrieve_options=options)

            def search(text: str, source: str | None, also: tuple[str, ...] = ()) -> dict[str, Any]:
                passages = retrieve(text, store, model, COLLECTION, top_k=TOP_K, **options)
                decision = engine.gate(text, passages)
                rank = hit_rank([p.url for p in passages], [source, *also]) if source else None
                return {"searched": text, "rank": rank, "answer": bool(decision.answer)}

            holds = term_holder(store, COLLECTION, info, None)

            def turn(previous: str, question: str, source: str | None) -> dict[str, Any]:
                """The question asked after `previous` through the engine's turn, as the Ask page and
                `rag chat` ask it (without a chat model: the subject terms carry over)."""
                played = engine.chat(question, [engine.chat(previous)])
                result = played.result
                rank = hit_rank([p.url for p in result.passages], [source]) if source else None
                return {"searched": played.understood.standalone, "rank": rank,
                        "answer": result.outcome != Outcome.REFUSED_GATE, "judged_as_asked": played.judged_as_asked}

            rows = []
            for pair in pairs:
                before = understand(pair["follow_up"], [Turn(pair["previous"])], llm=None)
                fallback = understand(pair["follow_up"], [Turn(pair["previous"])], llm=None, holds=holds)
                rows.append({
                    "id": pair["id"], "follow_up": pair["follow_up"], "detected": is_follow_up(pair["follow_up"], holds),
                    "detected_before": is_follow_up(pair["follow_up"]),
                    "as_asked": search(pair["follow_up"], pair["expected_source"]),
                    "fallback_before": search(before.standalone, pair["expected_source"]),
                    "fallback": search(fallback.standalone, pair["expected_source"]),
                    "standalone": search(pair["standalone"], pair["expected_source"]),
                    "turn": turn(pair["previous"], pair["follow_up"], pair["expected_source"]),
                })
                say(f"{pair['id']}: as asked {rows[-1]['as_asked']['rank']}, fallback {rows[-1]['fallback']['rank']}, "
                    f"standalone {rows[-1]['standalone']['rank']}")
            # The other side: the demo's standalone questions, each after the one before it.
            others = []
            for before, question in zip(questions, questions[1:]):
                understood = understand(question.question, [Turn(before.question)], llm=None, holds=holds)
                others.append({
                    "id": question.id, "in_base": question.in_base, "taken_for_follow_up": understood.rewritten,
                    "as_asked": search(question.question, question.expected_source, tuple(question.also_in)),
                    "understood": search(understood.standalone, question.expected_source, tuple(question.also_in)),
                })
            changed = []
            for row in (json.loads(line) for line in OFF_TOPIC.read_text(encoding="utf-8").splitlines() if line.strip()):
                before = understand(row["question"], [Turn(row["previous"])], llm=None)
                after = understand(row["question"], [Turn(row["previous"])], llm=None, holds=holds)
                changed.append({
                    "id": row["id"], "question": row["question"], "taken_before": before.rewritten,
                    "taken": after.rewritten, "as_asked": search(row["question"], None),
                    "understood_before": search(before.standalone, None), "understood": search(after.standalone, None),
                    "turn": turn(row["previous"], row["question"], None),
                })
                say(f"{row['id']}: taken before {before.rewritten}, after {after.rewritten}, "
                    f"refused before {not changed[-1]['understood_before']['answer']}, "
                    f"after {not changed[-1]['understood']['answer']}")
        finally:
            store.close()
    in_base = [r for r in others if r["in_base"]]
    off_topic = [r for r in others if not r["in_base"]]
    refused = lambda key: round(sum(1 for r in changed if not r[key]["answer"]) / len(changed), 3)  # noqa: E731
    summary = {
        "follow_ups": {"detected": sum(r["detected"] for r in rows), "detected_before": sum(r["detected_before"] for r in rows),
                       "of": len(rows), "as_asked": _figures(rows, "as_asked"),
                       "fallback_before": _figures(rows, "fallback_before"), "fallback": _figures(rows, "fallback"),
                       "standalone": _figures(rows, "standalone"), "turn": _figures(rows, "turn")},
        "changed_subject": {"taken_for_follow_ups_before": sum(r["taken_before"] for r in changed),
                            "taken_for_follow_ups": sum(r["taken"] for r in changed), "of": len(changed),
                            "gate_refuses_as_asked": refused("as_asked"),
                            "gate_refuses_understood_before": refused("understood_before"),
                            "gate_refuses_understood": refused("understood"),
                            "turn_refuses": refused("turn")},
        "standalone_questions": {
            "taken_for_follow_ups": sum(r["taken_for_follow_up"] for r in others), "of": len(others),
            "in_base_as_asked": _figures(in_base, "as_asked"), "in_base_understood": _figures(in_base, "understood"),
            "off_topic_gate_refuses_as_asked": round(1 - _figures(off_topic, "as_asked")["gate_answers"], 3),
            "off_topic_gate_refuses_understood": round(1 - _figures(off_topic, "understood")["gate_answers"], 3),
        },
    }
    gap = summary["follow_ups"]["standalone"]["hit_at_6"] - summary["follow_ups"]["fallback"]["hit_at_6"]
    summary["follow_ups"]["fallback_gap_hit_at_6"] = round(gap, 3)
    say(json.dumps(summary, indent=1))
    results = {
        "machine": machine(),
        "settings": {"top_k": TOP_K, "strategy": DEFAULT_STRATEGY, "embedding_model": model.model_id,
                     "embed_threads": threads, "pairs": "benchmarks/data/followup_pairs.jsonl",
                     "changed_subject": "benchmarks/data/followup_offtopic.jsonl",
                     "questions": "rag/demo/questions.jsonl", "retrieve": {k: v for k, v in options.items()
                                                                  if k not in ("reranker", "rewriter", "llm_reranker")}},
        "summary": summary,
        "pairs": rows,
        "standalone_questions": others,
        "changed_subject": changed,
    }
    finish(results, args.out, started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
