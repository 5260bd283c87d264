"""Why a question's document is not among the passages: the misses of the default settings, sorted.

    RAG_CORPORA=/path/to/corpora .venv/bin/python benchmarks/recall_misses.py [--corpus cnil]

The set is indexed with the default strategy and the bundled model (vectors cached, see
_common.CachedEmbedder), and every in-base question is asked as the product asks it (hybrid,
top 6, the context settings). For each question, the expected document's rank is also computed
branch by branch from the stored points: dense alone (cosine) and keywords alone (BM25 with
Qdrant's IDF). A miss is:

- `both branches far`: neither branch has the document in its top 24 (what the fusion gets);
- `fused below the 6th article`: a branch has it in its top 24, but the fused list ranks six
  other articles above it;
- `among the first 6 articles, but their passages fill the 6`: it is among the fused list's
  first six articles, but the articles above it take the 6 passages (up to 3 each);

and for each miss, the question's words that differ from the expected document's only by their
ending (same first 6 letters, the gate's keys: "sauvegardes" beside "sauvegarde"; what a stemmer
could bring to the keyword branch), and its words found nowhere in the collection (typos, or
words the corpus never uses). Two leads are ranked beside, by documents: the two branches fused
by documents (each article's best chunk in each list, RRF with Qdrant's k) instead of by chunks
then capped, and the same with a third list, the articles' titles embedded alone. Writes
benchmarks/results/recall_misses_<corpus>.json.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    RESULTS, CachedEmbedder, embed_threads, finish, load_documents, machine, say, settings_for,
    temp_data_dir, vector_cache,
)
from quality import SETS, TOP_K, CONTEXT, _questions  # noqa: E402

import numpy as np  # noqa: E402

from rag.answer.retrieve import retrieve  # noqa: E402
from rag.embeddings.embedded import EmbeddedEmbedder  # noqa: E402
from rag.ingest.run import ingest  # noqa: E402
from rag.store.sparse import sparse_query, tokenize  # noqa: E402
from rag.store.store import Store  # noqa: E402
from rag.store.terms import term_key  # noqa: E402

DEPTH = 24  # what retrieve() asks the fusion for before the per-article cap keeps 6


def _rank(order: list[str], accepted: set[str]) -> int | None:
    """1-based rank of the first accepted document, documents ranked by their best chunk."""
    ranks: dict[str, int] = {}
    for url in order:
        ranks.setdefault(url, len(ranks) + 1)
    found = [ranks[u] for u in accepted if u in ranks]
    return min(found) if found else None


class Branches:
    """Dense and BM25 scores over one collection's stored points, as Qdrant computes them."""

    def __init__(self, store: Store, name: str) -> None:
        points = list(store.scroll(name, payload=["url"], with_vectors=True))
        self.urls = [p.payload["url"] for p in points]
        dense = np.array([p.vector for p in points], dtype=np.float32)
        self.dense = dense / np.linalg.norm(dense, axis=1, keepdims=True)
        self.sparse = [dict(zip(*p.sparse)) if p.sparse else {} for p in points]
        df = Counter(i for vec in self.sparse for i in vec)
        n = len(points)
        self.idf = {i: math.log(1 + (n - c + 0.5) / (c + 0.5)) for i, c in df.items()}

    def dense_order(self, vector: list[float]) -> list[str]:
        """Chunk urls, best cosine first."""
        return _cosine_order(self.dense, self.urls, vector)

    def sparse_order(self, indices: list[int]) -> list[str]:
        """Urls of the chunks holding a query term, best BM25 score first."""
        scores = [sum(self.idf.get(i, 0.0) * vec.get(i, 0.0) for i in indices) for vec in self.sparse]
        return [self.urls[i] for i in sorted(range(len(scores)), key=lambda i: -scores[i]) if scores[i] > 0]


def _cosine_order(matrix: np.ndarray, urls: list[str], vector: list[float]) -> list[str]:
    q = np.asarray(vector, dtype=np.float32)
    return [urls[i] for i in np.argsort(-(matrix @ (q / np.linalg.norm(q))), kind="stable")]


def _documents(order: list[str]) -> list[str]:
    return list(dict.fromkeys(order))


def _rrf(orders: list[list[str]], k: int = 2, depth: int = 96) -> list[str]:
    """Documents fused by reciprocal rank, each list ranked by documents (Qdrant's k, 96 candidates)."""
    scores: dict[str, float] = {}
    for order in orders:
        for position, url in enumerate(_documents(order)[:depth], start=1):
            scores[url] = scores.get(url, 0.0) + 1.0 / (k + position)
    return sorted(scores, key=lambda u: -scores[u])


def _product_rank(question: str, store: Store, model: Any, name: str, accepted: set[str]) -> int | None:
    passages = retrieve(question, store, model, name, top_k=TOP_K, mode="hybrid", **CONTEXT)
    return _rank([p.url for p in passages], accepted)


def _fused_rank(question: str, store: Store, model: Any, name: str, accepted: set[str]) -> int | None:
    """The document's rank, by documents, in the fused list before the per-article cap."""
    passages = retrieve(question, store, model, name, top_k=DEPTH, mode="hybrid")
    return _rank([p.url for p in passages], accepted)


def _classify(row: dict[str, Any]) -> str:
    def near(rank: int | None, depth: int = DEPTH) -> bool:
        return rank is not None and rank <= depth
    if not near(row["dense"]) and not near(row["keywords"]):
        return "both branches far"
    if near(row["fused"], TOP_K):
        return "among the first 6 articles, but their passages fill the 6"
    return "fused below the 6th article"


def _inflected(question: str, doc_words: set[str]) -> list[str]:
    """The question's words absent from the document whose 6-letter key the document has."""
    keys = {term_key(w) for w in doc_words}
    return [w for w in dict.fromkeys(tokenize(question)) if w not in doc_words and term_key(w) in keys]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=["demo", "cnil"], default="cnil")
    args = parser.parse_args(argv)
    started = time.monotonic()
    spec = SETS[args.corpus]
    docs = load_documents(spec["docs"]())
    questions = [q for q in _questions(spec) if q.in_base and q.expected_source]
    model = CachedEmbedder(EmbeddedEmbedder(threads=embed_threads()), vector_cache())
    rows: list[dict[str, Any]] = []
    doc_words = {d.url: set(tokenize(f"{d.title}\n{d.markdown}")) for d in docs}
    vocabulary = set().union(*doc_words.values())
    with temp_data_dir(f"misses-{args.corpus}") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            report_ingest = ingest(docs, store, model, "misses", strategy="markdown", full=True)
            assert report_ingest.ok, report_ingest.summary()
            branches = Branches(store, "misses")
            # A lead, not the product: each article's title embedded alone, as a third list.
            titles = np.array(model.embed_documents([d.title for d in docs]), dtype=np.float32)
            titles /= np.linalg.norm(titles, axis=1, keepdims=True)
            for q in questions:
                vector = model.embed_query(q.question.strip())
                expected = set().union(*(doc_words.get(u, set()) for u in q.accepted_urls))
                dense = branches.dense_order(vector)
                keywords = branches.sparse_order(sparse_query(q.question)[0])
                title = _cosine_order(titles, [d.url for d in docs], vector)
                rows.append({
                    "id": q.id, "question": q.question, "expected": q.expected_source,
                    "product": _product_rank(q.question, store, model, "misses", q.accepted_urls),
                    "fused": _fused_rank(q.question, store, model, "misses", q.accepted_urls),
                    "dense": _rank(dense, q.accepted_urls),
                    "keywords": _rank(keywords, q.accepted_urls),
                    "title": _rank(title, q.accepted_urls),
                    "documents_fused": _rank(_rrf([dense, keywords]), q.accepted_urls),
                    "documents_fused_with_title": _rank(_rrf([dense, keywords, title]), q.accepted_urls),
                    "inflected_words": _inflected(q.question, expected),
                    "unknown_words": [w for w in dict.fromkeys(tokenize(q.question)) if w not in vocabulary],
                })
        finally:
            store.close()
    report: dict[str, Any] = {
        "machine": machine(),
        "settings": {"top_k": TOP_K, "depth": DEPTH, "strategy": "markdown", "mode": "hybrid",
                     "context": {k: v for k, v in CONTEXT.items() if k != "reranker"},
                     "question_set": spec["questions_label"], "documents": spec["docs_label"]},
        "summary": {},
        "questions": rows,
    }
    misses = [r for r in rows if r["product"] is None]
    for r in misses:
        r["miss_class"] = _classify(r)

    def share(key: str, top: int) -> float:
        return round(sum(1 for r in rows if r[key] is not None and r[key] <= top) / len(rows), 3)

    def mrr(key: str) -> float:
        return round(sum(1 / r[key] for r in rows if r[key]) / len(rows), 3)

    lists = ("product", "dense", "keywords", "title", "documents_fused", "documents_fused_with_title")
    report["summary"] = {
        "questions": len(rows),
        **{f"{key}_hit_at_{top}": share(key, top) for key in lists for top in (1, 6)},
        **{f"{key}_mrr": mrr(key) for key in lists},
        **{f"{key}_hit_at_{DEPTH}": share(key, DEPTH) for key in ("dense", "keywords")},
        "misses": len(misses),
        "by_class": dict(Counter(r["miss_class"] for r in misses)),
        "misses_with_inflected_words": sum(1 for r in misses if r["inflected_words"]),
        "misses_with_unknown_words": sum(1 for r in misses if r["unknown_words"]),
    }
    say(str(report["summary"]))
    finish(report, RESULTS / f"recall_misses_{args.corpus}.json", started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
