"""Retrieval levers, one at a time, on one collection per set: both sides of every change.

    .venv/bin/python benchmarks/levers.py --corpus demo        # seconds (cached vectors)
    RAG_CORPORA=../shared/corpora .venv/bin/python benchmarks/levers.py --corpus cnil
    RAG_CORPORA=../shared/corpora .venv/bin/python benchmarks/levers.py --corpus docsfr

Each set is indexed once with the default strategy (the bundled model, vectors cached on disk by
text, see _common.CachedEmbedder), then the same questions are replayed through the answer
engine's retrieval with each variant of the context options, nothing else changed. Reported per
variant: hit@1, hit@3, hit@6, MRR, answer in context, and the gate's in-base answered / off-topic
refused at the model's defaults (a retrieval change moves the scores the gate reads), with the
questions each variant wins and loses against the baseline. Writes levers_<set>.json.

    RAG_LLM_URL=http://localhost:1234/v1 .venv/bin/python benchmarks/levers.py --corpus demo --chat

adds the chat model's levers (the question rewritten, HyDE, the listwise rerank), each beside the
baseline; without a chat model at RAG_LLM_URL they are written as skipped, with the reason.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
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
from quality import CONTEXT, SETS, TOP_K, _questions, _round, gate_figures  # noqa: E402

from rag.chunking import DEFAULT_STRATEGY  # noqa: E402
from rag.embeddings.embedded import EmbeddedEmbedder  # noqa: E402
from rag.evaluate.runner import run_eval  # noqa: E402
from rag.ingest.run import ingest  # noqa: E402
from rag.store.store import Store  # noqa: E402

BASE = {k: v for k, v in CONTEXT.items() if k != "reranker"}  # the product's context, today's defaults
# The defaults before six distinct articles: RRF, at most 3 passages an article, no small-to-big.
BEFORE = {**BASE, "distinct": 0, "article_chars": 0, "fusion": "rrf"}
# The new ranking and context: six distinct articles, the top two grown by 3,000 characters of their
# own best chunks.
SIX = {**BEFORE, "distinct": 6, "article_chars": 3000, "articles": 2}
CONVEX = {"fusion": "convex", "fusion_weight": 0.5}
# Small-to-big: the budget of characters and how many top articles are searched again.
VARIANTS: dict[str, dict[str, Any]] = {
    "baseline": BEFORE,
    "article_1000_x1": {**BEFORE, "article_chars": 1000, "articles": 1},
    "article_2000_x1": {**BEFORE, "article_chars": 2000, "articles": 1},
    "article_2000_x2": {**BEFORE, "article_chars": 2000, "articles": 2},
    "article_3000_x2": {**BEFORE, "article_chars": 3000, "articles": 2},
    "article_3000_x3": {**BEFORE, "article_chars": 3000, "articles": 3},
    # The control: the same added characters given to the neighbours instead.
    "expand_4000": {**BEFORE, "expand_chars": 4000},
    # Fusion of the dense and BM25 branches: convex combinations beside RRF (the baseline).
    **{f"convex_{w}": {**BEFORE, "fusion": "convex", "fusion_weight": w} for w in (0.3, 0.5, 0.6, 0.7, 0.8, 0.9)},
    # RRF's constant (Qdrant's is 2), computed by the store on either backend.
    **{f"rrf_k{k}": {**BEFORE, "rrf_k": k} for k in (10, 60)},
    # Six distinct articles first (or the first 4), then the top articles grown by their own best
    # chunks (small-to-big), so that showing more articles does not cost the top one its answer.
    "distinct_6": {**BEFORE, "distinct": 6},
    "distinct_4": {**BEFORE, "distinct": 4},
    **{f"distinct_{d}_article_{c}_x{a}": {**BEFORE, "distinct": d, "article_chars": c, "articles": a}
       for d, c, a in ((6, 2000, 1), (6, 2000, 2), (6, 3000, 2), (6, 4000, 2), (4, 2000, 1), (4, 3000, 2))},
    # The control at about the characters before: fewer to the neighbours, the same to the top article.
    "distinct_6_article_2000_x1_expand_1000": {**BEFORE, "distinct": 6, "article_chars": 2000, "articles": 1,
                                               "expand_chars": 1000},
    # ... combined with the fusion levers.
    **{f"distinct_6_article_3000_x2_convex_{w}": {**SIX, "fusion": "convex", "fusion_weight": w}
       for w in (0.5, 0.6, 0.7)},
    **{f"distinct_{d}_article_{c}_x{a}_convex_0.5": {**SIX, **CONVEX, "distinct": d, "article_chars": c, "articles": a}
       for d, c, a in ((6, 2000, 1), (6, 2000, 2), (6, 4000, 2), (4, 3000, 2))},
    "distinct_6_article_2000_x1_expand_1000_convex_0.5": {**SIX, **CONVEX, "article_chars": 2000, "articles": 1,
                                                          "expand_chars": 1000},
    "six_rrf_k10": {**SIX, "rrf_k": 10},
    "six_rrf_documents": {**SIX, "fusion_documents": True},
    "six_rrf_k10_documents": {**SIX, "rrf_k": 10, "fusion_documents": True},
    "six_convex_0.5_documents": {**SIX, **CONVEX, "fusion_documents": True},
    "six_convex_0.7_documents": {**SIX, "fusion": "convex", "fusion_weight": 0.7, "fusion_documents": True},
    # Today's defaults: six distinct articles, small-to-big 3,000 characters over the top two, convex 0.5.
    "default": {**SIX, **CONVEX},
}
KEYS = ("hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context")
# The chat model's levers (rag.answer.query_rewrite, rag.answer.llm_rerank), measured only when a
# chat model answers at RAG_LLM_URL (`--chat`, or named in --variants); skipped, and said so, otherwise.
CHAT_VARIANTS: dict[str, dict[str, Any]] = {
    "query_rewrite": {"query_rewrite": "rewrite"},
    "hyde": {"query_rewrite": "hyde"},
    "llm_rerank": {"llm_rerank": True},
}


def chat_model() -> tuple[Any, str | None]:
    """The chat model at RAG_LLM_URL (and RAG_LLM_MODEL, RAG_LLM_API_KEY) with its id, or None and
    why it cannot be measured."""
    from rag.config import Settings
    from rag.errors import LLMError
    from rag.servers.chat import LLMClient

    settings = Settings.from_env()
    llm = LLMClient.from_settings(settings)
    try:
        return llm, llm.chat_model()
    except LLMError as exc:
        llm.close()
        return None, f"skipped: no chat model answers at {llm.shown_url} ({type(exc).__name__}); set RAG_LLM_URL"


def variant_options(variant: str, llm: Any) -> dict[str, Any]:
    """The retrieve options of `variant`; a chat-model variant's levers built on `llm`."""
    if variant not in CHAT_VARIANTS:
        return VARIANTS[variant]
    from rag.answer.retrieve import chat_levers
    from rag.config import Settings

    # Each lever on the product's own context (BASE, today's defaults): compare with --variants default,...
    return {**BASE, **chat_levers(Settings().replace(**CHAT_VARIANTS[variant]), llm)}


# LM Studio loads a chat model with a 4096-token context unless told otherwise; the answer keeps
# DEFAULT_MAX_TOKENS of it. What reaches such a model is what rag.answer.budget keeps.
SMALL_CONTEXT = 4096


def context_figures(questions: list, store: Store, model: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The six passages' mean characters, and what a model loaded with SMALL_CONTEXT tokens is
    sent (rag.answer.budget.fit_passages, the French prompt): the article in it, the answer in it,
    the articles dropped, the characters sent. In-base questions."""
    from rag.answer import budget, prompts
    from rag.answer.pipeline import DEFAULT_MAX_TOKENS
    from rag.answer.retrieve import retrieve
    from rag.evaluate.metrics import contains_answer, hit_rank

    system = prompts.load_system_prompt("fr")
    sizes, sent_chars, hits, answers, dropped = [], [], [], [], []
    for q in questions:
        if not q.in_base:
            continue
        passages = retrieve(q.question, store, model, "levers", top_k=TOP_K, **options)
        sizes.append(sum(len(p.text) for p in passages))
        fit = budget.fit_passages(passages, lambda chosen: prompts.build_messages(q.question, chosen, "fr", system),
                                  SMALL_CONTEXT, DEFAULT_MAX_TOKENS)
        sent_chars.append(sum(len(p.text) for p in fit.kept))
        hits.append(hit_rank([p.url for p in fit.kept], q.accepted_urls) is not None)
        dropped.append(len(fit.dropped))
        found = contains_answer(q.expected_answer, [p.text for p in fit.kept])
        if found is not None:
            answers.append(found)

    def mean(values: list) -> float | None:
        return round(sum(values) / len(values), 4) if values else None

    return {"context_chars_mean": round(sum(sizes) / max(1, len(sizes)), 1),
            f"sent_{SMALL_CONTEXT}": {"hit_at_k": mean(hits), "answer_in_context": mean(answers),
                                      "passages_dropped_mean": mean(dropped), "chars_mean": mean(sent_chars)}}


def run(name: str, variants: list[str], threads: int) -> dict[str, Any]:
    from rag.answer.retrieve import options_record

    llm, chat = chat_model() if any(v in CHAT_VARIANTS for v in variants) else (None, None)
    spec = SETS[name]
    docs = load_documents(spec["docs"]())
    questions = _questions(spec)
    model = CachedEmbedder(EmbeddedEmbedder(threads=threads), vector_cache())
    report: dict[str, Any] = {
        "machine": machine(),
        "settings": {"top_k": TOP_K, "strategy": DEFAULT_STRATEGY, "mode": "auto", "embedding_model": model.model_id,
                     "documents": spec["docs_label"], "document_count": len(docs),
                     "question_set": spec["questions_label"]},
        "variants": {},
    }
    with temp_data_dir(f"levers-{name}") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            started = time.monotonic()
            ingested = ingest(docs, store, model, "levers", strategy=DEFAULT_STRATEGY, full=True)
            assert ingested.ok, ingested.summary()
            report["settings"]["chunks"] = store.count("levers")
            report["settings"]["chunks_embedded"] = model.misses
            report["settings"]["ingest_seconds"] = round(time.monotonic() - started, 1)
            say(f"[{name}] {len(docs)} documents, {report['settings']['chunks']} chunks, {len(questions)} questions")
            per_q: dict[str, dict[str, Any]] = {}
            for variant in variants:
                if variant in CHAT_VARIANTS and llm is None:
                    report["variants"][variant] = {"skipped": chat}
                    say(f"  {variant}: {chat}")
                    continue
                options = variant_options(variant, llm)
                results = run_eval(questions, store, model, "levers", top_k=TOP_K, mode="auto",
                                   question_set=spec["questions_label"], retrieve_options=options)
                s = results["summary"]
                g = gate_figures(results)
                row = {k: _round(s.get(k)) for k in KEYS}
                row["options"] = options_record(options)
                if variant in CHAT_VARIANTS:  # what the lever costs: a chat call a question
                    row["chat_model"] = chat
                    row["seconds_per_question"] = round(s["seconds"] / max(1, len(questions)), 3)
                row.update(context_figures(questions, store, model, options))
                row["gate_in_base_answered"] = g["default"]["in_base_answered"]
                row["gate_off_topic_refused"] = g["default"]["off_topic_refused"]
                row["gate_calibrated"] = g["calibrated"]
                per_q[variant] = {q["id"]: q for q in results["questions"] if q.get("in_base")}
                if variant != variants[0]:
                    base = per_q[variants[0]]
                    row["answer_won"] = sorted(i for i, q in per_q[variant].items()
                                               if q.get("answer_in_context") and not base[i].get("answer_in_context"))
                    row["answer_lost"] = sorted(i for i, q in per_q[variant].items()
                                                if base[i].get("answer_in_context") and not q.get("answer_in_context"))
                row["answer_missing"] = sorted(i for i, q in per_q[variant].items()
                                               if q.get("answer_in_context") is False)
                row["article_missing"] = sorted(i for i, q in per_q[variant].items() if q.get("rank") is None)
                report["variants"][variant] = row
                say(f"  {variant}: " + ", ".join(f"{k} {row[k]}" for k in KEYS)
                    + f"; gate {row['gate_in_base_answered']} / {row['gate_off_topic_refused']}"
                    + f"; context {row['context_chars_mean']} chars"
                    + f"; sent at {SMALL_CONTEXT} tokens {row[f'sent_{SMALL_CONTEXT}']}")
        finally:
            store.close()
    return report


# -- `lead` enrichment: what decides whether it helps ------------------------------------------
#
# The same documents indexed twice (enrichment none, then lead), the same questions replayed with
# the product's context; the in-base questions bucketed by the shape of their expected article
# (how many chunks it makes, whether it has sections), so that what decides is read per bucket;
# then the same ingest with `auto`, to record what the product picks for the set, and the embedding
# model's CPU time for a sample of chunks with and without their context (the ingest's cost).


def article_shape(doc: Any, chunker: Any) -> dict[str, Any]:
    from rag.markdown_structure import heading

    chunks = chunker.chunk(doc.markdown, title=doc.title)
    sections = sum(1 for line in doc.markdown.splitlines() if heading(line) and line.startswith("##"))
    return {"chunks": len(chunks), "sections": sections, "chars": len(doc.markdown)}


def bucket(shape: dict[str, Any]) -> str:
    if shape["chunks"] <= 1:
        return "1 chunk"
    if shape["chunks"] <= 3:
        return "2-3 chunks"
    return "4+ chunks"


def embedded_of(payload: dict[str, Any]) -> str:
    parts = [payload.get(k) or "" for k in ("header", "context", "text")]
    return "\n\n".join(p for p in parts if p)


def embedding_cost(docs: list, chunker: Any, threads: int, sample: int) -> dict[str, Any]:
    """The model's CPU time for the same chunks with and without their lead context, on an even
    sample of the set's chunks, never cached: what `lead` adds to an ingest, as a machine's
    cores spend it (CPU seconds, not wall time, which the other processes on a shared machine move)."""
    from rag.chunking.base import Chunk
    from rag.enrich import enriched_text, make_enricher

    lead = make_enricher("lead")
    pairs: list[tuple[str, str]] = []
    for doc in docs:
        chunks: list[Chunk] = chunker.chunk(doc.markdown, title=doc.title)
        for chunk, context in zip(chunks, lead.contexts(doc, chunks)):
            pairs.append((chunk.embedding_text, enriched_text(chunk, context)))
    step = max(1, len(pairs) // max(1, sample))
    picked = pairs[::step][:sample]
    model = EmbeddedEmbedder(threads=threads)
    model.embed_documents(["warm-up"])
    out: dict[str, Any] = {"sample_chunks": len(picked), "all_chunks": len(pairs)}
    for side, index in (("none", 0), ("lead", 1)):
        texts = [p[index] for p in picked]
        cpu = time.process_time()
        model.embed_documents(texts)
        out[f"{side}_cpu_seconds_per_chunk"] = round((time.process_time() - cpu) / max(1, len(texts)), 4)
        out[f"{side}_chars_all_chunks"] = sum(len(p[index]) for p in pairs)
    out["lead_extra_chars"] = round(out["lead_chars_all_chunks"] / max(1, out["none_chars_all_chunks"]) - 1, 3)
    out["lead_extra_cpu"] = round(out["lead_cpu_seconds_per_chunk"] / max(1e-9, out["none_cpu_seconds_per_chunk"])
                                  - 1, 3)
    return out


def lead_without_trail() -> Any:
    """`lead` less its heading trail, which the default strategy's `Article:`/`Section:` header
    already holds: what the title's repetition weighs, measured apart from the lead paragraph's."""
    from rag.enrich import Enricher

    class LeadNoTrail(Enricher):
        def contexts(self, doc, chunks, document_hash=None, progress=None):  # type: ignore[override]
            return [c.split("\n", 1)[1] if "\n" in c else "" for c in super().contexts(doc, chunks, document_hash)]

    return LeadNoTrail("lead")


def run_enrichment(name: str, threads: int, sample: int = 32, no_trail: bool = False) -> dict[str, Any]:
    from rag.chunking import make_chunker
    from rag.enrich import make_enricher
    from rag.enrich.auto import AUTO

    spec = SETS[name]
    docs = load_documents(spec["docs"]())
    questions = _questions(spec)
    model = CachedEmbedder(EmbeddedEmbedder(threads=threads), vector_cache())
    chunker = make_chunker(DEFAULT_STRATEGY)
    shapes = {d.url: article_shape(d, chunker) for d in docs}
    report: dict[str, Any] = {
        "machine": machine(),
        "settings": {"top_k": TOP_K, "strategy": DEFAULT_STRATEGY, "mode": "auto", "embedding_model": model.model_id,
                     "documents": spec["docs_label"], "document_count": len(docs),
                     "question_set": spec["questions_label"], "context": BASE},
        "corpus_shape": {
            "chunks_per_document_mean": round(sum(s["chunks"] for s in shapes.values()) / max(1, len(shapes)), 2),
            "documents_with_sections": round(sum(1 for s in shapes.values() if s["sections"]) / max(1, len(shapes)), 3),
            "documents_by_bucket": {b: sum(1 for s in shapes.values() if bucket(s) == b)
                                    for b in ("1 chunk", "2-3 chunks", "4+ chunks")},
        },
        "runs": {},
    }
    rows: dict[str, dict[str, Any]] = {}
    with temp_data_dir(f"levers-enrich-{name}") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            for mode in ("none", "lead", AUTO, *(("lead_no_trail",) if no_trail else ())):
                misses, started = model.misses, time.monotonic()
                collection = f"levers_{mode}"
                ingested = ingest(docs, store, model, collection, strategy=DEFAULT_STRATEGY, full=True,
                                  enricher=lead_without_trail() if mode == "lead_no_trail" else make_enricher(mode))
                assert ingested.ok, ingested.summary()
                results = run_eval(questions, store, model, collection, top_k=TOP_K, mode="auto",
                                   question_set=spec["questions_label"], retrieve_options=BASE)
                s, g = results["summary"], gate_figures(results)
                row = {k: _round(s.get(k)) for k in KEYS}
                row.update(gate_in_base_answered=g["default"]["in_base_answered"],
                           gate_off_topic_refused=g["default"]["off_topic_refused"],
                           ingest_seconds=round(time.monotonic() - started, 1),
                           chunks_embedded=model.misses - misses, enrichment=ingested.enrichment)
                row["embedded_chars_mean"] = round(sum(len(x.payload.get("context") or "") for x in
                                                       store.scroll(collection, payload=["context"]))
                                                   / max(1, store.count(collection)), 1)
                # What the model reads: header, context and body of every chunk (the ingest's cost).
                row["embedded_chars_total"] = sum(len(embedded_of(x.payload)) for x in
                                                  store.scroll(collection, payload=["header", "context", "text"]))
                rows[mode] = {q["id"]: q for q in results["questions"] if q.get("in_base")}
                report["runs"][mode] = row
                say(f"  [{name}] {mode}: " + ", ".join(f"{k} {row[k]}" for k in KEYS)
                    + f"; gate {row['gate_in_base_answered']} / {row['gate_off_topic_refused']}")
                store.delete_collection(collection)
        finally:
            store.close()
    # The better of none and lead: the one ahead on more of the measures (retrieval and the gate),
    # ties aside; then how auto (the default) stands against each.
    runs = report["runs"]
    measures = (*KEYS, "gate_in_base_answered", "gate_off_topic_refused")

    def ahead(a: str, b: str) -> list[str]:
        return [k for k in measures if runs[a][k] is not None and runs[a][k] > runs[b][k]]

    better = "lead" if len(ahead("lead", "none")) > len(ahead("none", "lead")) else "none"
    report["auto"] = {"better_of_none_and_lead": better,
                      "measures_won": {"none": ahead("none", "lead"), "lead": ahead("lead", "none")},
                      **{f"auto_ahead_of_{m}": ahead(AUTO, m) for m in ("none", "lead")},
                      **{f"auto_behind_{m}": ahead(m, AUTO) for m in ("none", "lead")}}
    report["ingest_cost"] = embedding_cost(docs, chunker, threads, sample)
    say(f"  [{name}] better of none and lead: {better}; auto against them: {report['auto']}; "
        f"cost {report['ingest_cost']}")
    by_id = {q.id: q for q in questions}
    buckets: dict[str, dict[str, Any]] = {}
    for qid in rows["none"]:
        shape = shapes.get(by_id[qid].expected_source or "")
        if shape is None:
            continue
        b = buckets.setdefault(bucket(shape), {"questions": 0, **{f"{m}_{k}": 0 for m in ("none", "lead", AUTO)
                                                                  for k in ("hit_at_1", "hit_at_k")}})
        b["questions"] += 1
        for mode in ("none", "lead", AUTO):
            rank = rows[mode][qid].get("rank")
            b[f"{mode}_hit_at_1"] += int(rank == 1)
            b[f"{mode}_hit_at_k"] += int(rank is not None)
    report["by_article_shape"] = buckets
    sections: dict[str, dict[str, Any]] = {}
    for qid in rows["none"]:
        shape = shapes.get(by_id[qid].expected_source or "")
        if shape is None:
            continue
        b = sections.setdefault("with sections" if shape["sections"] else "without sections",
                                {"questions": 0, **{f"{m}_{k}": 0 for m in ("none", "lead", AUTO)
                                                    for k in ("hit_at_1", "hit_at_k", "answer")}})
        b["questions"] += 1
        for mode in ("none", "lead", AUTO):
            rank = rows[mode][qid].get("rank")
            b[f"{mode}_hit_at_1"] += int(rank == 1)
            b[f"{mode}_hit_at_k"] += int(rank is not None)
            b[f"{mode}_answer"] += int(bool(rows[mode][qid].get("answer_in_context")))
    report["by_sections"] = sections
    say(f"  [{name}] by whether the expected article has sections: {sections}")
    # Per question, so that what decides can be read against any feature of the expected article.
    report["questions"] = {qid: {"expected_source": by_id[qid].expected_source,
                                 **{f"{mode}_rank": rows[mode][qid].get("rank") for mode in ("none", "lead", AUTO)},
                                 **{f"{mode}_answer": rows[mode][qid].get("answer_in_context")
                                    for mode in ("none", "lead", AUTO)}}
                           for qid in rows["none"]}
    say(f"  [{name}] by the expected article's shape: {buckets}")
    return report


# -- a mixed collection: articles in sections and FAQ pages in one ------------------------------
#
# docs-fr's 221 pages and CNIL's 523 in one collection, both question sets replayed: what `none`,
# `lead` and `auto` (lead for the documents with sections only) give each side. Every vector is
# the one the single-set runs cached (a context depends on its own document only).


def subset_figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    ranks = [r.get("rank") for r in rows]
    answers = [r.get("answer_in_context") for r in rows if r.get("answer_in_context") is not None]
    n = max(1, len(ranks))
    return {"questions": len(ranks), "hit_at_1": round(sum(1 for x in ranks if x == 1) / n, 4),
            "hit_at_3": round(sum(1 for x in ranks if x is not None and x <= 3) / n, 4),
            "hit_at_k": round(sum(1 for x in ranks if x is not None) / n, 4),
            "mrr": round(sum(1 / x for x in ranks if x) / n, 4),
            "answer_in_context": round(sum(1 for a in answers if a) / len(answers), 4) if answers else None}


def run_mixed(threads: int) -> dict[str, Any]:
    from rag.enrich import make_enricher
    from rag.enrich.auto import has_sections

    parts = {"docsfr": SETS["docsfr"], "cnil": SETS["cnil"]}
    docs = [d for spec in parts.values() for d in load_documents(spec["docs"]())]
    questions = [q for spec in parts.values() for q in _questions(spec)]
    model = CachedEmbedder(EmbeddedEmbedder(threads=threads), vector_cache())
    report: dict[str, Any] = {
        "machine": machine(),
        "settings": {"top_k": TOP_K, "strategy": DEFAULT_STRATEGY, "mode": "auto", "embedding_model": model.model_id,
                     "documents": " + ".join(spec["docs_label"] for spec in parts.values()),
                     "document_count": len(docs), "documents_with_sections": sum(1 for d in docs if has_sections(d.markdown)),
                     "question_set": " + ".join(spec["questions_label"] for spec in parts.values()), "context": BASE},
        "runs": {},
    }
    makers = {"none": lambda: make_enricher("none"), "lead": lambda: make_enricher("lead"),
              "auto": lambda: make_enricher("auto")}
    with temp_data_dir("levers-enrich-mixed") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            for mode, make in makers.items():
                misses = model.misses
                collection = f"levers_{mode}"
                ingested = ingest(docs, store, model, collection, strategy=DEFAULT_STRATEGY, full=True, enricher=make())
                assert ingested.ok, ingested.summary()
                results = run_eval(questions, store, model, collection, top_k=TOP_K, mode="auto",
                                   question_set=report["settings"]["question_set"], retrieve_options=BASE)
                g = gate_figures(results)
                rows = [q for q in results["questions"] if q.get("in_base")]
                row = {side: subset_figures([r for r in rows if str(r["id"]).startswith("dfr-") == (side == "docsfr")])
                       for side in parts}
                row.update(gate_in_base_answered=g["default"]["in_base_answered"],
                           gate_off_topic_refused=g["default"]["off_topic_refused"],
                           chunks_embedded=model.misses - misses)
                report["runs"][mode] = row
                say(f"  [mixed] {mode}: {row}")
                store.delete_collection(collection)
        finally:
            store.close()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=["demo", "cnil", "docsfr", "docsfr2", "cnil2"], default="demo")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated, the first is the baseline")
    parser.add_argument("--chat", action="store_true",
                        help="add the chat model's levers (" + ", ".join(CHAT_VARIANTS) + "): measured when a chat "
                             "model answers at RAG_LLM_URL, skipped otherwise")
    parser.add_argument("--out", type=Path, metavar="FILE", help="instead of results/levers_<set>.json")
    parser.add_argument("--enrich", action="store_true",
                        help="compare enrichment none and lead instead, by the expected article's shape")
    parser.add_argument("--mixed", action="store_true",
                        help="with --enrich: docs-fr and CNIL in one collection, none, lead and auto")
    parser.add_argument("--no-trail", action="store_true",
                        help="with --enrich: lead without its heading trail too (the title's weight)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    if args.enrich and args.mixed:
        report = run_mixed(embed_threads())
        finish(report, args.out or RESULTS / "levers_enrich_mixed.json", started)
        return 0
    if args.enrich:
        report = run_enrichment(args.corpus, embed_threads(), no_trail=args.no_trail)
        finish(report, args.out or RESULTS / f"levers_enrich_{args.corpus}.json", started)
        return 0
    variants = args.variants.split(",")
    variants += [v for v in CHAT_VARIANTS if args.chat and v not in variants]
    unknown = [v for v in variants if v not in VARIANTS and v not in CHAT_VARIANTS]
    if unknown:
        parser.error(f"unknown variants: {', '.join(unknown)} (known: {', '.join([*VARIANTS, *CHAT_VARIANTS])})")
    report = run(args.corpus, variants, embed_threads())
    finish(report, args.out or RESULTS / f"levers_{args.corpus}.json", started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
