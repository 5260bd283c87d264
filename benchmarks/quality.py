"""Retrieval quality per chunking strategy, dense and hybrid, with the embedded model.

    .venv/bin/python benchmarks/quality.py                  # demo then CNIL: 8-15 minutes
    .venv/bin/python benchmarks/quality.py --corpus demo    # demo set only: 1-2 minutes
    .venv/bin/python benchmarks/quality.py --enrich lead    # enrichment: none against lead (section below)
    .venv/bin/python benchmarks/quality.py --gate-sets after  # the gate on every set, both sides (README 6c)

Two question sets, measured the same way (rag.evaluate.runner.run_eval, top_k 6, no LLM):

- demo: the shipped rag/demo/questions.jsonl over rag/demo/articles -> benchmarks/results/quality.json
- cnil: the public PIAF paraphrase set (168 questions) over the 523 CNIL FAQ documents
  (found through RAG_CORPORA, see benchmarks/README.md) -> benchmarks/results/quality_cnil.json. It has no off-topic questions, so
  no threshold can be calibrated on it, and no expected answers (answer_in_context is null).

Each strategy is indexed once (embedded model, RAG_EMBED_THREADS else 2 threads) into a
throwaway data folder; both retrieval modes then run on that collection. Reported per strategy
and mode: hit@1, hit@3, hit@k, MRR, answer in context, the suggested threshold with its balanced
accuracy and the overlap between in-base and off-topic top-1 scores; plus each question's rank,
so misses can be read. Nothing here is tuned to the questions.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    CNIL_DIR,
    DOCS_FR,
    ROOT,
    CachedEmbedder,
    vector_cache,
    CNIL_QUESTIONS,
    RESULTS,
    TimingEmbedder,
    corpus_label,
    corpus_path,
    embed_threads,
    finish,
    load_documents,
    machine,
    say,
    settings_for,
    temp_data_dir,
)

from rag.chunking import STRATEGIES, make_chunker  # noqa: E402
from rag.answer.retrieve import retrieve_options  # noqa: E402
from rag.config import Settings  # noqa: E402
from rag.demo import DEMO_DIR, QUESTIONS_PATH  # noqa: E402
from rag.embeddings.embedded import EmbeddedEmbedder  # noqa: E402
from rag.evaluate.runner import run_eval  # noqa: E402
from rag.ingest.run import ingest  # noqa: E402
from rag.evaluate.questions import load_questions  # noqa: E402
from rag.store.store import Store  # noqa: E402

TOP_K = 6
CONTEXT = retrieve_options(Settings())  # RAG_PER_DOCUMENT, RAG_EXPAND_CHARS defaults; no reranker
MODES = ("dense", "hybrid")
SETS = {
    "demo": {"docs": lambda: DEMO_DIR, "questions": lambda: QUESTIONS_PATH, "out": RESULTS / "quality.json",
             "docs_label": "rag/demo/articles", "questions_label": "rag/demo/questions.jsonl"},
    # Resolved when the set runs: the demo set needs no RAG_CORPORA.
    # The PIAF set has no off-topic questions: ours (written before any tuning, kept fixed) joins it.
    "cnil": {"docs": lambda: corpus_path(CNIL_DIR),
             "questions": lambda: [corpus_path(CNIL_QUESTIONS), OFF_TOPIC_CNIL],
             "out": RESULTS / "quality_cnil.json", "docs_label": corpus_label(CNIL_DIR),
             "questions_label": f"{corpus_label(CNIL_QUESTIONS)} + benchmarks/data/cnil_off_topic.jsonl"},
    # Our held-out set on the French Windows Server pages: 3,000 chunks, hours at 2 threads.
    "docsfr": {"docs": lambda: corpus_path(DOCS_FR), "questions": lambda: [DOCSFR_QUESTIONS],
               "out": RESULTS / "quality_docsfr.json", "docs_label": corpus_label(DOCS_FR),
               "questions_label": "benchmarks/data/docsfr_questions.jsonl"},
    # The confirmation set on the same pages, written before round 3's levers, never tuned to.
    "docsfr2": {"docs": lambda: corpus_path(DOCS_FR), "questions": lambda: [DOCSFR_QUESTIONS_2],
                "out": RESULTS / "quality_docsfr2.json", "docs_label": corpus_label(DOCS_FR),
                "questions_label": "benchmarks/data/docsfr_questions_2.jsonl"},
    # Our own set on the same 523 CNIL documents, over 60 the public set does not use, with its
    # off-topic list: the one to tune FAQ levers on, so that the public set stays untuned.
    "cnil2": {"docs": lambda: corpus_path(CNIL_DIR), "questions": lambda: [CNIL_QUESTIONS_2, OFF_TOPIC_CNIL_2],
              "out": RESULTS / "quality_cnil2.json", "docs_label": corpus_label(CNIL_DIR),
              "questions_label": "benchmarks/data/cnil_questions_2.jsonl + benchmarks/data/cnil_off_topic_2.jsonl"},
}
OFF_TOPIC_CNIL = ROOT / "benchmarks" / "data" / "cnil_off_topic.jsonl"
DOCSFR_QUESTIONS = ROOT / "benchmarks" / "data" / "docsfr_questions.jsonl"
DOCSFR_QUESTIONS_2 = ROOT / "benchmarks" / "data" / "docsfr_questions_2.jsonl"
CNIL_QUESTIONS_2 = ROOT / "benchmarks" / "data" / "cnil_questions_2.jsonl"
OFF_TOPIC_CNIL_2 = ROOT / "benchmarks" / "data" / "cnil_off_topic_2.jsonl"
SUMMARY_KEYS = (
    "questions", "in_base", "out_of_base", "k", "hit_at_1", "hit_at_3", "hit_at_k", "mrr",
    "answer_in_context", "threshold", "threshold_source", "in_base_accepted", "out_of_base_refused",
    "suggested_threshold", "unknown_sources", "seconds",
)


def _round(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


def chunk_counts(docs: list, strategies: list[str]) -> dict[str, dict[str, Any]]:
    counts = {}
    for name in strategies:
        chunker = make_chunker(name)
        chunks = [c for d in docs for c in chunker.chunk(d.markdown, title=d.title)]
        counts[name] = {
            "chunks": len(chunks),
            "mean_embedding_chars": round(sum(len(c.embedding_text) for c in chunks) / max(1, len(chunks)), 1),
            "settings": chunker.settings(),
        }
    return counts


def summary_of(results: dict[str, Any]) -> dict[str, Any]:
    s = results["summary"]
    cal = s.get("calibration") or {}
    out = {k: _round(s.get(k)) for k in SUMMARY_KEYS}
    out["calibration"] = {
        "suggested_threshold": _round(cal.get("suggested")),
        "balanced_accuracy": _round(cal.get("balanced_accuracy")),
        "overlap_count": cal.get("overlap_count"),
        "overlap_sentence": cal.get("overlap_sentence"),
        "at_suggested": {k: _round(v) for k, v in (cal.get("at_suggested") or {}).items()},
        "reason": cal.get("reason"),
    }
    out["counts"] = s.get("counts")
    return out


def _questions(spec: dict[str, Any]) -> list:
    found = spec["questions"]()
    return [q for path in (found if isinstance(found, list) else [found]) for q in load_questions(path)]


def gate_figures(results: dict[str, Any]) -> dict[str, Any]:
    """The gate's in-base answered / off-topic refused at the model's defaults and calibrated on
    this set, beside the cosine threshold alone (default and calibrated), and each signal's AUC."""
    s = results["summary"]
    gate = s.get("gate") or {}
    cos = gate.get("cosine_only") or {}
    suggested = (gate.get("calibration") or {}).get("suggested") or {}
    rows = results["questions"]
    return {
        "default": {"settings": gate.get("params"), "in_base_answered": _round(gate.get("in_base_answered")),
                    "off_topic_refused": _round(gate.get("off_topic_refused"))},
        "calibrated": {"settings": {k: _round(suggested.get(k)) for k in ("min_cosine", "min_coverage",
                                                                          "refuse_unknown_names")},
                       "in_base_answered": _round(suggested.get("in_base_answered")),
                       "off_topic_refused": _round(suggested.get("off_topic_refused"))},
        "cosine_only_default": {"threshold": cos.get("threshold"),
                                "in_base_answered": _round(cos.get("in_base_accepted")),
                                "off_topic_refused": _round(cos.get("out_of_base_refused"))},
        "cosine_only_calibrated": {"threshold": cos.get("suggested_threshold"),
                                   "in_base_answered": _round((cos.get("at_suggested") or {}).get("in_base_accepted")),
                                   "off_topic_refused": _round((cos.get("at_suggested") or {}).get("out_of_base_refused"))},
        "auc": {key: _round(auc(rows, key)) for key in ("cosine", "coverage", "passage_coverage")},
        "refusal_reasons": _reasons(rows),
    }


def auc(rows: list[dict[str, Any]], key: str) -> float | None:
    """Probability that an in-base question scores above an off-topic one on `key` (ties half)."""
    pos = [r[key] for r in rows if r.get("in_base") and r.get(key) is not None]
    neg = [r[key] for r in rows if not r.get("in_base") and r.get(key) is not None]
    if not pos or not neg:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def _reasons(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {"in_base": {}, "off_topic": {}}
    for r in rows:
        if r.get("refused"):
            side = out["in_base" if r.get("in_base") else "off_topic"]
            side[r.get("refusal_reason") or "threshold"] = side.get(r.get("refusal_reason") or "threshold", 0) + 1
    return out


def run_set(name: str, strategies: list[str], threads: int, max_minutes: float) -> dict[str, Any]:
    spec = SETS[name]
    docs = load_documents(spec["docs"]())
    questions = _questions(spec)
    counts = chunk_counts(docs, strategies)
    say(f"[{name}] {len(docs)} documents, {len(questions)} questions; chunks per strategy: "
        + ", ".join(f"{s} {c['chunks']}" for s, c in counts.items()))
    model = CachedEmbedder(EmbeddedEmbedder(threads=threads), vector_cache())
    report: dict[str, Any] = {
        "machine": machine(),
        "settings": {"top_k": TOP_K, "modes": list(MODES), "embedding_model": model.model_id,
                     "embed_threads": threads, "documents": spec["docs_label"],
                     "document_count": len(docs), "question_set": spec["questions_label"],
                     "threshold": "none set: each collection uses the model default (rag.answer.threshold)",
                     "context": {k: v for k, v in CONTEXT.items() if k != "reranker"}},
        "strategies": {},
        "skipped": {},
    }
    per_question: dict[str, dict[str, Any]] = {
        q.id: {"question": q.question, "in_base": q.in_base, "expected_source": q.expected_source,
               "also_in": list(q.also_in), "category": q.category, "runs": {}}
        for q in questions
    }
    rate = None  # chunks/s of the embedder, measured on the first strategy, to estimate the next ones
    with temp_data_dir(f"quality-{name}") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            for strategy in strategies:
                estimate = counts[strategy]["chunks"] / rate / 60 if rate else None
                if estimate is not None and estimate > max_minutes:
                    report["skipped"][strategy] = (
                        f"indexing would take about {estimate:.0f} minutes at the measured "
                        f"{rate:.1f} chunks/s (limit --max-minutes {max_minutes:g})"
                    )
                    say(f"[{name}] {strategy}: skipped, {report['skipped'][strategy]}")
                    continue
                say(f"[{name}] indexing {strategy} ({counts[strategy]['chunks']} chunks"
                    + (f", about {estimate:.1f} min" if estimate else "") + ")...")
                timing = TimingEmbedder(model)
                misses = model.misses
                collection = f"bench_{strategy}"
                ingested = ingest(docs, store, timing, collection, strategy=strategy, full=True)
                assert ingested.ok, ingested.summary()
                # Cached vectors cost nothing: the rate counts the chunks the model embedded.
                embedded = model.misses - misses
                rate = embedded / timing.document_seconds if embedded and timing.document_seconds else rate
                row: dict[str, Any] = {
                    **counts[strategy],
                    "ingest_seconds": round(ingested.seconds, 1),
                    "embed_chunks_per_second": round(rate, 2) if rate else None,
                    "chunks_embedded": embedded,
                    "chunks_over_512_tokens": sum(1 for w in ingested.warnings if "over 512 tokens" in w),
                }
                plain = run_eval(questions, store, model, collection, top_k=TOP_K, mode="hybrid",
                                 question_set=spec["questions_label"])
                row["hybrid_without_context_levers"] = {
                    k: _round(plain["summary"].get(k)) for k in ("hit_at_1", "hit_at_k", "mrr", "answer_in_context")}
                for mode in MODES:
                    # The product's context: at most 3 passages an article, grown by their neighbours.
                    results = run_eval(questions, store, model, collection, top_k=TOP_K, mode=mode,
                                       question_set=spec["questions_label"], retrieve_options=CONTEXT)
                    row[mode] = summary_of(results)
                    row[mode]["gate"] = gate_figures(results)
                    for q in results["questions"]:
                        per_question[q["id"]]["runs"][f"{strategy}/{mode}"] = {
                            "rank": q["rank"], "top1_score": _round(q["top1_score"]),
                            "top1_url": q["top1_url"], "answer_in_context": q["answer_in_context"],
                            "coverage": q.get("coverage"), "refused": q.get("refused"),
                            "refusal_reason": q.get("refusal_reason"), "missing_terms": q.get("missing_terms"),
                        }
                    m = row[mode]
                    g = m["gate"]
                    say(f"  {mode} gate: default {g['default']['in_base_answered']} / "
                        f"{g['default']['off_topic_refused']}, calibrated {g['calibrated']['in_base_answered']} / "
                        f"{g['calibrated']['off_topic_refused']}; cosine alone {g['cosine_only_default']} "
                        f"calibrated {g['cosine_only_calibrated']}; AUC {g['auc']}")
                    say(f"  {mode}: hit@1 {m['hit_at_1']} hit@3 {m['hit_at_3']} hit@{TOP_K} {m['hit_at_k']} "
                        f"MRR {m['mrr']} answer-in-context {m['answer_in_context']} "
                        f"suggested threshold {m['calibration']['suggested_threshold']} "
                        f"(balanced accuracy {m['calibration']['balanced_accuracy']}, "
                        f"overlap {m['calibration']['overlap_count']})")
                report["strategies"][strategy] = row
                store.delete_collection(collection)  # local mode keeps every collection in memory
        finally:
            store.close()
    report["ranking"] = ranking(report["strategies"])
    report["questions"] = per_question
    return report


def ranking(strategies: dict[str, Any]) -> list[dict[str, Any]]:
    """Strategy x mode, best first by MRR then hit@1."""
    rows = [
        {"strategy": s, "mode": m, "mrr": r[m]["mrr"], "hit_at_1": r[m]["hit_at_1"], "hit_at_3": r[m]["hit_at_3"],
         "hit_at_k": r[m]["hit_at_k"], "answer_in_context": r[m]["answer_in_context"]}
        for s, r in strategies.items() for m in MODES
    ]
    return sorted(rows, key=lambda r: (-(r["mrr"] or 0), -(r["hit_at_1"] or 0)))


# -- enrichment: the same questions with and without a context before each chunk ----------------
#
# A separate measurement (its own option and result file): each strategy is indexed once per
# enrichment mode into a throwaway folder, and the two are compared on the same questions, dense
# and hybrid. `lead` needs no model. `llm` and `questions` need a chat model in LM Studio
# (RAG_LLM_URL): their contexts are cached under the throwaway folder only, so every run pays them.

ENRICH_OUT = {"demo": RESULTS / "quality_enrichment.json", "cnil": RESULTS / "quality_enrichment_cnil.json"}
ENRICH_KEYS = ("hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context", "suggested_threshold")


def _question_list(spec: dict[str, Any]) -> list:
    found = spec["questions"]()
    return [q for path in (found if isinstance(found, list) else [found]) for q in load_questions(path)]


def run_enrichment(name: str, strategies: list[str], modes: list[str], threads: int) -> dict[str, Any]:
    from rag.config import Settings
    from rag.enrich import make_enricher

    spec = SETS[name]
    docs = load_documents(spec["docs"]())
    questions = _question_list(spec)
    model = EmbeddedEmbedder(threads=threads)
    report: dict[str, Any] = {
        "machine": machine(),
        "settings": {"top_k": TOP_K, "retrieval_modes": list(MODES), "enrichment_modes": modes,
                     "embedding_model": model.model_id, "documents": spec["docs_label"],
                     "document_count": len(docs), "question_set": spec["questions_label"]},
        "runs": {},
    }
    with temp_data_dir(f"quality-enrich-{name}") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            for strategy in strategies:
                for mode in modes:
                    enricher = make_enricher(mode, Settings.from_env().replace(data_dir=data_dir))
                    collection = f"enrich_{strategy}_{mode}"
                    say(f"[{name}] indexing {strategy} with enrichment {mode}...")
                    ingested = ingest(docs, store, model, collection, strategy=strategy, full=True, enricher=enricher)
                    assert ingested.ok, ingested.summary()
                    row: dict[str, Any] = {"ingest_seconds": round(ingested.seconds, 1),
                                           "enrichment": ingested.enrichment}
                    for retrieval in MODES:
                        results = run_eval(questions, store, model, collection, top_k=TOP_K, mode=retrieval,
                                           question_set=spec["questions_label"])
                        summary = results["summary"]
                        row[retrieval] = {k: _round(summary.get(k)) for k in ENRICH_KEYS}
                        row[retrieval]["misses"] = sorted(q["id"] for q in results["questions"]
                                                          if q.get("in_base") and q.get("rank") is None)
                        say(f"  {retrieval}: hit@1 {row[retrieval]['hit_at_1']} MRR {row[retrieval]['mrr']} "
                            f"hit@{TOP_K} {row[retrieval]['hit_at_k']}")
                    report["runs"][f"{strategy}/{mode}"] = row
                    store.delete_collection(collection)
        finally:
            store.close()
    report["effect"] = {
        f"{strategy}/{mode}/{retrieval}": {
            k: _round((report["runs"][f"{strategy}/{mode}"][retrieval][k] or 0)
                      - (report["runs"][f"{strategy}/{modes[0]}"][retrieval][k] or 0))
            for k in ("hit_at_1", "mrr", "hit_at_k")
        }
        for strategy in strategies for mode in modes[1:] for retrieval in MODES
    }
    return report


# -- the peer: what a user would build instead (benchmarks/_peer.py) ----------------------------
#
# Our default strategy with the product's retrieval (auto mode, its context levers) against
# LangChain's RecursiveCharacterTextSplitter 1000/200, dense top-6, no levers; the same model,
# questions and normalisation; refusals at the plain cosine threshold for both (the model's
# default, then each side's calibrated one). Ratios are ours / peer.

PEER_OUT = {name: RESULTS / f"quality_peer_{name}.json" for name in SETS}  # every set, the confirmation one too
PEER_KEYS = ("hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context")


def side_figures(results: dict[str, Any]) -> dict[str, Any]:
    s = results["summary"]
    cos = (s.get("gate") or {}).get("cosine_only") or {}
    at = cos.get("at_suggested") or {}
    return {
        **{k: _round(s.get(k)) for k in PEER_KEYS},
        "plain_threshold": {"threshold": _round(cos.get("threshold")),
                            "in_base_accepted": _round(cos.get("in_base_accepted")),
                            "off_topic_refused": _round(cos.get("out_of_base_refused"))},
        "plain_threshold_calibrated": {"threshold": _round(cos.get("suggested_threshold")),
                                       "in_base_accepted": _round(at.get("in_base_accepted")),
                                       "off_topic_refused": _round(at.get("out_of_base_refused"))},
        "gate_off_topic_refused": _round((s.get("gate") or {}).get("off_topic_refused")),
        "gate_in_base_answered": _round((s.get("gate") or {}).get("in_base_answered")),
    }


def ratios(ours: dict[str, Any], peer: dict[str, Any]) -> dict[str, Any]:
    out = {k: _round(ours[k] / peer[k]) if ours.get(k) is not None and peer.get(k) else None for k in PEER_KEYS}
    a = ours["plain_threshold"]["off_topic_refused"]
    b = peer["plain_threshold"]["off_topic_refused"]
    out["off_topic_refused_plain_threshold"] = _round(a / b) if a is not None and b else None
    return out


def run_peer_set(name: str, threads: int, strategy: str) -> dict[str, Any]:
    from _peer import LangChainPeer, Uncapped, peer_chunker

    spec = SETS[name]
    docs = load_documents(spec["docs"]())
    questions = _questions(spec)
    model = CachedEmbedder(EmbeddedEmbedder(threads=threads), vector_cache())
    peer_model = Uncapped(model)
    report: dict[str, Any] = {
        "machine": machine(),
        "settings": {"top_k": TOP_K, "embedding_model": model.model_id, "embed_threads": threads,
                     "documents": spec["docs_label"], "document_count": len(docs),
                     "question_set": spec["questions_label"],
                     "ours": {"strategy": strategy, "mode": "auto",
                              "context": {k: v for k, v in CONTEXT.items() if k != "reranker"}},
                     "peer": {**LangChainPeer().settings(), "mode": "dense", "context": "top-6 chunks as found",
                              "token_cap": False, "header": False}},
    }
    say(f"[{name}] {len(docs)} documents, {len(questions)} questions; ours {strategy}, peer LangChain 1000/200")
    with temp_data_dir(f"quality-peer-{name}") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            sides: dict[str, Any] = {}
            for side in ("ours", "peer"):
                started = time.monotonic()
                misses = model.misses
                if side == "ours":
                    ingested = ingest(docs, store, model, "bench_ours", strategy=strategy, full=True)
                else:
                    with peer_chunker():
                        ingested = ingest(docs, store, peer_model, "bench_peer", strategy="recursive", full=True)
                assert ingested.ok, ingested.summary()
                collection = f"bench_{side}"
                options = dict(mode="auto", retrieve_options=CONTEXT) if side == "ours" else dict(mode="dense")
                results = run_eval(questions, store, peer_model if side == "peer" else model, collection,
                                   top_k=TOP_K, question_set=spec["questions_label"], **options)
                row = side_figures(results)
                row["chunks"] = store.count(collection)
                row["chunks_embedded"] = model.misses - misses
                row["seconds"] = round(time.monotonic() - started, 1)
                row["misses"] = sorted(q["id"] for q in results["questions"]
                                       if q.get("in_base") and q.get("rank") is None)
                sides[side] = row
                say(f"  {side}: " + ", ".join(f"{k} {row[k]}" for k in PEER_KEYS)
                    + f"; plain threshold {row['plain_threshold']}, calibrated {row['plain_threshold_calibrated']}"
                    + f" ({row['chunks']} chunks, {row['seconds']} s)")
                store.delete_collection(collection)
        finally:
            store.close()
    report.update(sides)
    report["ours_over_peer"] = ratios(sides["ours"], sides["peer"])
    say(f"  ours / peer: {report['ours_over_peer']}")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=["demo", "cnil", "docsfr", "docsfr2", "cnil2", "all"], default="demo",
                        help="demo: the shipped set (about 75 s); cnil: the public CNIL set with its off-topic "
                             "list (about 15 min); docsfr: our held-out docs-fr set (hours); docsfr2: its "
                             "confirmation set, never tuned to; cnil2: our CNIL set (60 other documents, 20 "
                             "off-topic), the one to tune on; all: demo and cnil")
    parser.add_argument("--strategies", default=",".join(STRATEGIES), help="comma-separated (default: all four)")
    parser.add_argument("--max-minutes", type=float, default=10.0,
                        help="skip a strategy whose indexing is estimated to take longer (default 10)")
    parser.add_argument("--enrich", metavar="MODES", default=None,
                        help="measure enrichment instead: the modes to compare, the first being the baseline "
                             "(e.g. lead, or none,llm with a chat model in LM Studio); writes "
                             "quality_enrichment*.json")
    parser.add_argument("--per-document", type=int, metavar="N", default=None,
                        help="at most N passages an article in the context (default: the product's, "
                             f"{CONTEXT['per_document']}); with --out, to keep the default run's file")
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="write the JSON here instead of the set's default file (a partial run then "
                             "leaves the full one alone)")
    parser.add_argument("--peer", action="store_true",
                        help="measure our default strategy against the LangChain peer instead; writes "
                             "quality_peer_<set>.json")
    parser.add_argument("--gate-sets", metavar="LABEL", default=None,
                        help="measure the gate instead: in-base answered and off-topic refused on every set "
                             "(demo, CNIL, docs-fr, with readers' context, lower-case identifiers), full and "
                             "small collections, at the model defaults and calibrated; writes "
                             "gate_sets_LABEL.json (benchmarks/gate_sets.py)")
    args = parser.parse_args(argv)
    if args.gate_sets:
        import gate_sets

        return gate_sets.main(["--label", args.gate_sets])
    if args.per_document is not None:
        CONTEXT["per_document"] = args.per_document  # read by run_set and recorded in the settings
    strategies = args.strategies.split(",")
    threads = embed_threads()
    if args.enrich:
        modes = args.enrich.split(",")
        modes = modes if modes[0] == "none" else ["none", *modes]
        for name in ["demo", "cnil"] if args.corpus == "all" else [args.corpus]:
            started = time.monotonic()
            finish(run_enrichment(name, strategies, modes, threads), ENRICH_OUT[name], started)
        return 0
    if args.peer:
        from rag.chunking import DEFAULT_STRATEGY

        for name in ["demo", "cnil"] if args.corpus == "all" else [args.corpus]:
            started = time.monotonic()
            finish(run_peer_set(name, threads, DEFAULT_STRATEGY), args.out or PEER_OUT[name], started)
        return 0
    names = ["demo", "cnil"] if args.corpus == "all" else [args.corpus]
    for name in names:  # a missing corpus stops the run now, not after the first set's minutes
        SETS[name]["docs"](), SETS[name]["questions"]()
    for name in names:
        started = time.monotonic()
        report = run_set(name, strategies, threads, args.max_minutes)
        finish(report, args.out or SETS[name]["out"], started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
