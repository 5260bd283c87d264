"""The question matched to the articles' titles, for FAQ collections whose titles are questions.

    RAG_CORPORA=../shared/corpora .venv/bin/python benchmarks/title_match.py --corpus cnil,cnil2,demo

FAQ retrieval often matches the reader's question to the FAQ's own questions (query-question
similarity) beside the answers. Here each article's title is embedded as a query (e5's "query: "
prefix on both sides, the model's recipe for symmetric similarity) and its cosine to the question
re-orders the product's candidates: the articles of the 24 chunks the hybrid search proposes,
fused by RRF of their product rank and their title rank. Two ways: `all` (every candidate's title
counts) and `questions` (only a title that ends with "?" counts; another keeps its product rank,
so a collection without question titles keeps its order). Measured on the public CNIL set, on
our own CNIL set written before this lever (cnil2) and on the demo set; both sides: the
questions won and lost. Writes benchmarks/results/title_match.json.
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
from quality import CONTEXT, SETS, _questions  # noqa: E402

from rag.chunking import DEFAULT_STRATEGY  # noqa: E402
from rag.embeddings.embedded import EmbeddedEmbedder  # noqa: E402
from rag.ingest.run import ingest  # noqa: E402
from rag.store.store import Store  # noqa: E402

POOL = 24  # the chunks the product's hybrid search proposes for six distinct articles
VARIANTS = [(pool, k, way) for pool in (10, 24) for k in (10, 60) for way in ("all", "questions")]


def candidates(question: str, store: Store, model: Any) -> list[str]:
    """The articles of the product's candidate pool, in the product's order (its first six are
    the six articles the product shows)."""
    from rag.answer.retrieve import retrieve

    options = {**{k: v for k, v in CONTEXT.items() if k != "reranker"},
               "per_document": None, "distinct": 0, "expand_chars": 0, "article_chars": 0}
    urls: list[str] = []
    for p in retrieve(question, store, model, "titles", top_k=POOL, **options):
        if p.url not in urls:
            urls.append(p.url)
    return urls


def reordered(urls: list[str], title_cosine: dict[str, float], is_question: dict[str, bool],
              pool: int, k: int, way: str) -> list[str]:
    head, rest = urls[:pool], urls[pool:]
    by_title = {u: r for r, u in enumerate(sorted(head, key=lambda u: -title_cosine[u]))}
    score = {u: 1 / (k + r + 1) + 1 / (k + (by_title[u] if way == "all" or is_question[u] else r) + 1)
             for r, u in enumerate(head)}
    return sorted(head, key=lambda u: -score[u]) + rest


def figures(rows: list[tuple[str, set[str], list[str]]]) -> dict[str, Any]:
    ranks = {qid: next((i for i, u in enumerate(urls) if u in accepted), None) for qid, accepted, urls in rows}
    n = max(1, len(rows))
    return {"hit_at_1": round(sum(r == 0 for r in ranks.values()) / n, 3),
            "hit_at_6": round(sum(r is not None and r < 6 for r in ranks.values()) / n, 3),
            "mrr": round(sum(1 / (r + 1) for r in ranks.values() if r is not None) / n, 3),
            "_found": {q for q, r in ranks.items() if r is not None and r < 6}}


def run(name: str, threads: int) -> dict[str, Any]:
    spec = SETS[name]
    docs = load_documents(spec["docs"]())
    questions = [q for q in _questions(spec) if q.in_base]
    model = CachedEmbedder(EmbeddedEmbedder(threads=threads), vector_cache())
    title_vectors = {d.url: model.embed_query(d.title) for d in docs}
    is_question = {d.url: d.title.strip().endswith("?") for d in docs}
    report: dict[str, Any] = {"documents": spec["docs_label"], "document_count": len(docs),
                              "question_titles": round(sum(is_question.values()) / max(1, len(docs)), 3),
                              "questions": spec["questions_label"], "in_base": len(questions), "variants": {}}
    with temp_data_dir(f"titles-{name}") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            assert ingest(docs, store, model, "titles", strategy=DEFAULT_STRATEGY, full=True).ok
            lists = []
            for q in questions:
                vector = model.embed_query(q.question)
                cosine = {u: sum(a * b for a, b in zip(v, vector)) for u, v in title_vectors.items()}
                lists.append((q.id, set(q.accepted_urls), candidates(q.question, store, model), cosine))
        finally:
            store.close()
    base = figures([(qid, acc, urls) for qid, acc, urls, _ in lists])
    found = base.pop("_found")
    report["variants"]["product"] = base
    for pool, k, way in VARIANTS:
        row = figures([(qid, acc, reordered(urls, cosine, is_question, pool, k, way)) for qid, acc, urls, cosine in lists])
        mine = row.pop("_found")
        row.update(won=sorted(mine - found), lost=sorted(found - mine))
        report["variants"][f"pool{pool}_k{k}_{way}"] = row
        say(f"[{name}] pool {pool} k {k} {way}: {row['hit_at_1']} / {row['hit_at_6']} / {row['mrr']}"
            f" (+{len(row['won'])} -{len(row['lost'])})")
    say(f"[{name}] product: {base['hit_at_1']} / {base['hit_at_6']} / {base['mrr']}")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="cnil,cnil2,demo", help="comma-separated sets of quality.SETS")
    args = parser.parse_args(argv)
    started = time.monotonic()
    report = {"machine": machine(), "strategy": DEFAULT_STRATEGY, "pool": POOL,
              "sets": {name: run(name, embed_threads()) for name in args.corpus.split(",")}}
    finish(report, RESULTS / "title_match.json", started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
