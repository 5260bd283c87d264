"""The embedded store at 10k, 50k and 100k chunks: Qdrant Edge (today's) and qdrant-client's
local mode (before it) side by side, in one run, each engine in its own process.

    RAG_CORPORA=../shared/corpora nice .venv/bin/python benchmarks/store_scale.py   # 35 min or more
    RAG_CORPORA=../shared/corpora nice .venv/bin/python benchmarks/store_scale.py --engines edge \
        --out benchmarks/results/store_scale_edge.json                              # 12 min

Local mode's 100k step alone lasts over 20 minutes on a busy 2-core machine (seconds a query).

Points look like ingestion's: the payload and BM25 sparse vector of real docs-fr chunks (copied
under new urls as needed), access groups public 70% / members 20% / staff 10%, and 384-dim
vectors shaped like real embeddings: each is a real multilingual-e5-small vector of a corpus
chunk (vectors cached on disk in ~/.cache/rag-bench-vectors) plus a little noise and a share of
another one, so neighbourhoods are as crowded as in a real blog, unlike uniform random vectors.
Without the cache (first run), real chunks are embedded first (minutes at one thread).

Per engine and size: write rate as `rag ingest` writes (one document's chunks per upsert, then
Store.commit; for Edge, split into turning the points into Edge's types, Edge's update and the
flushes), reopen time, process memory, p50/p95 of dense, hybrid (dense + BM25, RRF) and
both under the access filter, deleting one document's points, and `retrieve()` end to end
against the query embedding's own time. Local mode is filled in batches of 1,000 to reach
100k in minutes (its ingest-like write rate is measured on the last 500 points of each size).
For Edge, exact search and HNSW (`optimize()`) are then compared: recall@6 and latency. Last,
a fresh process opens the store and answers 20 questions: an app start's time and memory.

`--recall-only` measures HNSW recall@6 on the real corpus embeddings alone, with real questions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from _common import (  # noqa: E402
    CNIL_DIR,
    CNIL_QUESTIONS,
    DIMENSION,
    DOCS_FR,
    RESULTS,
    CachedEmbedder,
    corpus_path,
    finish,
    folder_bytes,
    latency_summary,
    load_documents,
    machine,
    say,
    settings_for,
    temp_data_dir,
)

from rag.chunking import DEFAULT_STRATEGY, make_chunker  # noqa: E402
from rag.demo import QUESTIONS_PATH  # noqa: E402
from rag.embeddings.embedded import MODEL_ID as EMBEDDED_MODEL_ID, EmbeddedEmbedder  # noqa: E402
from rag.store import edge_store  # noqa: E402
from rag.ingest.point_payload import point_payload  # noqa: E402
from rag.ingest.versions import build_key  # noqa: E402
from rag.store.points import PointRecord, point_id  # noqa: E402
from rag.store.server_store import QdrantClientBackend  # noqa: E402
from rag.store.sparse import sparse_query, sparse_vector  # noqa: E402
from rag.store.terms import TERMS_FIELD  # noqa: E402
from rag.store.store import Store  # noqa: E402
from rag.evaluate.questions import load_questions  # noqa: E402
from rag.answer.retrieve import retrieve  # noqa: E402

OUT = RESULTS / "store_scale.json"
SIZES = (10_000, 50_000, 100_000)
COLLECTION = "bench"
CACHE = Path.home() / ".cache" / "rag-bench-vectors"
ACCESS = (["public"] * 7) + (["members"] * 2) + ["staff"]
READER = ["public"]  # the common reader: sees 70% of the points
NARROW = ["staff"]  # a reader of one small group: 10%
LOCAL_BULK = 1_000
LOCAL_INGEST_TAIL = 500
SAMPLE_POINTS = 2_000  # converted apart to split an upsert's time


# -- real vectors ---------------------------------------------------------------------------------


def corpus_chunks() -> list[tuple[Any, list[Any]]]:
    chunker = make_chunker(DEFAULT_STRATEGY)
    out = []
    for relative in (CNIL_DIR, DOCS_FR):
        for doc in load_documents(corpus_path(relative)):
            chunks = chunker.chunk(doc.markdown, title=doc.title)
            if chunks:
                out.append((doc, chunks))
    return out


def real_vectors(embedder: CachedEmbedder, minimum: int = 1_000) -> np.ndarray:
    """The embedded model's vectors of corpus chunks: every one already cached, and at least
    `minimum` (embedding the missing ones, minutes at one thread on the first run)."""
    texts = [c.embedding_text for _, chunks in corpus_chunks() for c in chunks]
    cached = [t for t in texts if embedder._key("d", t) in embedder._memory]
    if len(cached) < minimum:
        missing = [t for t in texts if embedder._key("d", t) not in embedder._memory][: minimum - len(cached)]
        say(f"embedding {len(missing)} corpus chunks once (cached in {CACHE})...")
        for start in range(0, len(missing), 64):
            embedder.embed_documents(missing[start:start + 64])
        cached = [t for t in texts if embedder._key("d", t) in embedder._memory]
    return np.asarray(embedder.embed_documents(cached), dtype=np.float32)


def realistic(real: np.ndarray, count: int, seed: int) -> np.ndarray:
    """`count` vectors around real ones: a real vector, 0.3 of another, and noise (cos ~0.93 to
    the first): as crowded as real embeddings, which uniform random vectors are not."""
    rng = np.random.default_rng(seed)
    first = real[rng.integers(0, len(real), count)]
    second = real[rng.integers(0, len(real), count)]
    vectors = first + 0.3 * second + rng.normal(0, 0.02, (count, real.shape[1])).astype(np.float32)
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


# -- the points -----------------------------------------------------------------------------------


class Corpus:
    """An endless supply of documents' points: docs-fr chunks under new urls, realistic vectors."""

    def __init__(self, real: np.ndarray, seed: int = 7) -> None:
        chunker = make_chunker(DEFAULT_STRATEGY)
        self.strategy, self.settings = DEFAULT_STRATEGY, chunker.settings()
        self.build = build_key(self.strategy, self.settings, EMBEDDED_MODEL_ID)
        self.docs = []
        for doc in load_documents(corpus_path(DOCS_FR)):
            chunks = chunker.chunk(doc.markdown, title=doc.title)
            if chunks:
                self.docs.append((doc, chunks, [sparse_vector(c.embedding_text) for c in chunks]))
        self.real, self.seed = real, seed
        self.written = self.documents = 0
        self.urls: list[tuple[str, list[str]]] = []

    def next_document(self) -> list[PointRecord]:
        doc, chunks, sparse = self.docs[self.documents % len(self.docs)]
        url = f"copy{self.documents // len(self.docs)}/{doc.url}"
        access = [ACCESS[self.documents % len(ACCESS)]]
        vectors = realistic(self.real, len(chunks), self.seed + self.documents)
        records = []
        for position, chunk in enumerate(chunks):
            payload = point_payload(doc, chunk, position, self.strategy, self.build, EMBEDDED_MODEL_ID, len(chunks))
            payload.update(url=url, access=access)
            records.append(PointRecord(point_id(url, position), vectors[position].tolist(), sparse[position], payload))
        self.documents += 1
        self.written += len(records)
        self.urls.append((url, [r.id for r in records]))
        return records


# -- one engine, in its own process ---------------------------------------------------------------


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def open_store(engine: str, data_dir: Path) -> Store:
    settings = settings_for(data_dir)
    if engine == "edge":
        return Store(settings)
    return Store(settings, backend=QdrantClientBackend(path=data_dir / "local-mode"))


def write_as_ingest(store: Store, corpus: Corpus, until: int, kept: list[list[PointRecord]] | None = None,
                    ) -> tuple[int, float, float]:
    """(points, seconds in upsert, seconds in commit) writing as `rag ingest` does; the first
    documents' records (up to SAMPLE_POINTS) appended to `kept` when given."""
    points, upserting, committing = 0, 0.0, 0.0
    while corpus.written < until:
        records = corpus.next_document()
        if kept is not None and points < SAMPLE_POINTS:
            kept.append(records)
        start = time.perf_counter()
        store.upsert(COLLECTION, records)
        middle = time.perf_counter()
        store.commit(COLLECTION)
        upserting += middle - start
        committing += time.perf_counter() - middle
        points += len(records)
    return points, upserting, committing


def counting_flushes(store: Store) -> dict[str, int]:
    """Counts the Edge backend's flushes from now on, in the dict returned."""
    backend, counts = store._backend, {"flushes": 0}
    flush = backend.flush

    def counted(name: str) -> None:
        counts["flushes"] += 1
        flush(name)

    backend.flush = counted
    return counts


def without_terms(documents: list[list[PointRecord]]) -> list[list[PointRecord]]:
    return [[PointRecord(r.id, r.dense, r.sparse, {k: v for k, v in r.payload.items() if k != TERMS_FIELD})
             for r in records] for records in documents]


def conversion_seconds_per_point(documents: list[list[PointRecord]], rounds: int = 3) -> float:
    """Turning documents' records into Edge's points, one upsert's worth at a time, best of
    `rounds`: the share of Edge's upsert spent before Edge's own work starts."""
    points = sum(len(d) for d in documents)
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for records in documents:
            edge_store.edge_points(records)
        best = min(best, time.perf_counter() - start)
    return best / points


def queries(store: Store, corpus: Corpus, n: int, questions: list[str]) -> dict[str, Any]:
    vectors = realistic(corpus.real, n, seed=999)
    sparse = [sparse_query(questions[i % len(questions)]) for i in range(n)]
    kinds = {
        "dense": lambda i: store.search_dense(COLLECTION, vectors[i].tolist(), limit=6),
        "dense_access_filter": lambda i: store.search_dense(COLLECTION, vectors[i].tolist(), limit=6, groups=READER),
        "hybrid": lambda i: store.search_hybrid(COLLECTION, vectors[i].tolist(), sparse[i], limit=6),
        "hybrid_access_filter": lambda i: store.search_hybrid(COLLECTION, vectors[i].tolist(), sparse[i], limit=6,
                                                              groups=READER),
        "hybrid_narrow_filter": lambda i: store.search_hybrid(COLLECTION, vectors[i].tolist(), sparse[i], limit=6,
                                                              groups=NARROW),
    }
    out: dict[str, Any] = {}
    for name, run in kinds.items():
        run(0)  # warm-up
        times = []
        for i in range(n):
            start = time.perf_counter()
            hits = run(i)
            times.append(time.perf_counter() - start)
            assert hits, f"{name} query {i} returned nothing"
        out[name] = latency_summary(times)
    return out


def delete_one_document(store: Store, corpus: Corpus, n: int = 5) -> dict[str, Any]:
    times = []
    for url, ids in corpus.urls[:: max(1, len(corpus.urls) // n)][:n]:
        kept = store.get_points(COLLECTION, ids, with_vectors=True)
        start = time.perf_counter()
        store.delete_stale(COLLECTION, url, [])
        store.commit(COLLECTION)
        times.append(time.perf_counter() - start)
        store.upsert(COLLECTION, [PointRecord(p.id, p.vector or [], p.sparse, p.payload) for p in kept])
    store.finish(COLLECTION)
    return latency_summary(times)


def top_ids(hits: list[Any]) -> set[str]:
    return {h.id for h in hits}


def hnsw_phase(store: Store, corpus: Corpus, n: int) -> dict[str, Any]:
    """Exact search against HNSW on the same collection: recall@6 and latency of both (the store
    uses exact search below HNSW_FROM and HNSW from there; both are forced here)."""
    vectors = realistic(corpus.real, n, seed=4242)
    words = sparse_query("pare-feu Kerberos")
    saved = edge_store.HNSW_FROM

    def measure() -> tuple[list[tuple[set[str], set[str]]], list[float], list[float]]:
        tops, dense_t, hybrid_t = [], [], []
        for v in vectors:
            t = time.perf_counter()
            everyone = top_ids(store.search_dense(COLLECTION, v.tolist(), 6))
            dense_t.append(time.perf_counter() - t)
            narrow = top_ids(store.search_dense(COLLECTION, v.tolist(), 6, groups=NARROW))
            t = time.perf_counter()
            store.search_hybrid(COLLECTION, v.tolist(), words, 6, groups=READER)
            hybrid_t.append(time.perf_counter() - t)
            tops.append((everyone, narrow))
        return tops, dense_t, hybrid_t

    try:
        edge_store.HNSW_FROM = 10**12
        exact, exact_dense, exact_hybrid = measure()
        edge_store.HNSW_FROM = 0
        start = time.perf_counter()
        store.finish(COLLECTION)
        built = time.perf_counter() - start
        graph, dense_t, hybrid_t = measure()
    finally:
        edge_store.HNSW_FROM = saved
    return {
        "optimize_seconds": round(built, 1),
        "recall_at_6": round(float(np.mean([len(g[0] & e[0]) / 6 for g, e in zip(graph, exact)])), 4),
        "recall_at_6_narrow_filter": round(float(np.mean([len(g[1] & e[1]) / 6 for g, e in zip(graph, exact)])), 4),
        "exact": {"dense": latency_summary(exact_dense), "hybrid_access_filter": latency_summary(exact_hybrid)},
        "dense": latency_summary(dense_t),
        "hybrid_access_filter": latency_summary(hybrid_t),
    }


PROBE = """
import json, sys, time
sys.path.insert(0, {bench!r})
import store_scale as scale
store = scale.open_store({engine!r}, scale.Path({folder!r}))
start = time.perf_counter()
store.count(scale.COLLECTION, groups=scale.READER)
opened = time.perf_counter() - start
real = scale.np.random.default_rng(1).normal(size=(20, scale.DIMENSION)).astype(scale.np.float32)
for v in real:
    store.search_hybrid(scale.COLLECTION, (v / scale.np.linalg.norm(v)).tolist(), scale.sparse_query("Kerberos"), 6, groups=scale.READER)
print(json.dumps({{"open_seconds": round(opened, 2), "process_rss_mb": scale.rss_mb()}}))
store.close()
"""


def fresh_process(engine: str, data_dir: Path) -> dict[str, Any]:
    """What an app start pays: a new process opens the store and answers 20 hybrid questions
    under the access filter (no model loaded); its memory then."""
    code = PROBE.format(bench=str(Path(__file__).resolve().parent), engine=engine, folder=str(data_dir))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1800)
    if done.returncode:
        return {"error": done.stderr[-1000:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


class TimedEmbedder:
    """The embedded model, timing each query embedding: what retrieve() adds is the rest."""

    def __init__(self, inner: EmbeddedEmbedder) -> None:
        self.inner, self.model_id, self.last = inner, inner.model_id, 0.0

    def embed_query(self, text: str) -> list[float]:
        start = time.perf_counter()
        vector = self.inner.embed_query(text)
        self.last = time.perf_counter() - start
        return vector


def retrieve_phase(store: Store, embedder: EmbeddedEmbedder, questions: list[str]) -> dict[str, Any]:
    """retrieve() end to end, split into the query embedding and everything else (the store's
    queries, the BM25 query vector, the model check), measured within the same calls."""
    timed = TimedEmbedder(embedder)
    embed_t, rest_t, total_t = [], [], []
    for q in questions:
        start = time.perf_counter()
        retrieve(q, store, timed, COLLECTION, top_k=6, mode="hybrid", groups=READER)
        total = time.perf_counter() - start
        total_t.append(total)
        embed_t.append(timed.last)
        rest_t.append(total - timed.last)
    embed, rest = latency_summary(embed_t), latency_summary(rest_t)
    return {"retrieve": latency_summary(total_t), "query_embedding": embed, "everything_else": rest,
            "overhead_p50_ratio": round(rest["p50_ms"] / embed["p50_ms"], 3)}


def run_engine(engine: str, sizes: list[int], n_queries: int, hnsw: bool) -> list[dict[str, Any]]:
    embedder_cache = CachedEmbedder(EmbeddedEmbedder(threads=1), CACHE)
    corpus = Corpus(real_vectors(embedder_cache))
    questions = [q.question for q in load_questions(QUESTIONS_PATH)]
    model: EmbeddedEmbedder | None = None
    model_mb = 0.0
    rows = []
    with temp_data_dir(f"scale-{engine}") as data_dir:
        store = open_store(engine, data_dir)
        store.ensure_collection(COLLECTION, EMBEDDED_MODEL_ID, DIMENSION, corpus.strategy, corpus.settings)
        try:
            for size in sizes:
                row: dict[str, Any] = {"engine": engine, "target": size}
                started = time.perf_counter()
                if engine == "local-mode":
                    while corpus.written < size - LOCAL_INGEST_TAIL:
                        batch: list[PointRecord] = []
                        while len(batch) < LOCAL_BULK and corpus.written < size - LOCAL_INGEST_TAIL:
                            batch.extend(corpus.next_document())
                        store.upsert(COLLECTION, batch)
                flushes = counting_flushes(store) if engine == "edge" else None
                kept: list[list[PointRecord]] | None = [] if engine == "edge" else None
                points, upserting, committing = write_as_ingest(store, corpus, size, kept)
                flushed = flushes["flushes"] if flushes else 0
                store.finish(COLLECTION)
                row["fill_seconds"] = round(time.perf_counter() - started, 1)
                row["ingest_like_points"] = points
                row["ingest_like_points_per_second"] = round(points / (upserting + committing)) if points else None
                row["upsert_only_points_per_second"] = round(points / upserting) if points else None
                if kept and points:
                    # Measured apart, after the writes: timing it inside would add flushes of its own.
                    converting = conversion_seconds_per_point(kept)
                    terms = converting - conversion_seconds_per_point(without_terms(kept))
                    row["write_us_per_point"] = {
                        "to_edge_types": round(converting * 1e6, 1),
                        "of_which_terms": round(terms * 1e6, 1),
                        "edge_update": round((upserting / points - converting) * 1e6, 1),
                        "flushes": round(committing / points * 1e6, 1),
                        "flush_count": flushed,
                        "converted_points": sum(len(d) for d in kept),
                    }
                row["real_vectors"] = len(corpus.real)
                row["points"] = store.count(COLLECTION)
                store.close()
                t = time.perf_counter()
                store = open_store(engine, data_dir)
                store.count(COLLECTION, groups=READER)
                row["reopen_seconds"] = round(time.perf_counter() - t, 2)
                row["folder_mb"] = round(folder_bytes(data_dir) / 1e6, 1)
                n = n_queries if engine == "edge" or size <= 10_000 else max(5, n_queries // 8)
                row["queries"] = queries(store, corpus, n, questions)
                row["delete_one_document"] = delete_one_document(store, corpus)
                row["process_rss_mb"] = round(rss_mb() - model_mb, 1)  # the store's process, without the model
                if model is None:
                    before = rss_mb()
                    model = EmbeddedEmbedder(threads=1)
                    model.embed_query("échauffement")
                    model_mb = rss_mb() - before
                row["end_to_end"] = retrieve_phase(store, model, questions[: 12 if engine == "edge" else 4])
                if hnsw and engine == "edge":
                    row["hnsw"] = hnsw_phase(store, corpus, n_queries)
                store.close()
                row["fresh_process"] = fresh_process(engine, data_dir)
                store = open_store(engine, data_dir)
                q = row["queries"]
                say(f"{engine} {size}: {row['ingest_like_points_per_second']} points/s, reopen {row['reopen_seconds']} s, "
                    f"{row['process_rss_mb']} MB, hybrid+filter p50 {q['hybrid_access_filter']['p50_ms']} ms, "
                    f"retrieve overhead {row['end_to_end']['overhead_p50_ratio']:.0%}"
                    + (f", HNSW recall@6 {row['hnsw']['recall_at_6']}" if "hnsw" in row else "")
                    + f", fresh process {row['fresh_process'].get('process_rss_mb')} MB")
                rows.append(row)
        finally:
            store.close()
    return rows


# -- recall on the real embeddings alone ----------------------------------------------------------


def recall_on_real_embeddings(queries_limit: int = 200) -> dict[str, Any]:
    """HNSW recall@6 against exact search on the corpus's real vectors, asked with real questions.

    The graph is forced on this small collection (index every segment, never fall back to a full
    scan), so what is measured is the graph itself, as it would serve a larger collection."""
    import qdrant_edge as qe

    embedder = CachedEmbedder(EmbeddedEmbedder(threads=1), CACHE)
    real = real_vectors(embedder)
    questions = [q.question for q in load_questions(corpus_path(CNIL_QUESTIONS))]
    questions += [q.question for q in load_questions(QUESTIONS_PATH)]
    qvec = np.asarray([embedder.embed_query(q) for q in questions[:queries_limit]], dtype=np.float32)
    rng = np.random.default_rng(3)
    access = rng.choice(ACCESS, len(real))
    results: dict[str, Any] = {"points": len(real), "queries": len(qvec)}
    with temp_data_dir("recall") as folder:
        config = qe.EdgeConfig(
            vectors={"dense": qe.EdgeVectorParams(size=real.shape[1], distance=qe.Distance.Cosine)},
            hnsw_config=qe.HnswIndexConfig(m=16, ef_construct=100, full_scan_threshold=1),
            optimizers=qe.EdgeOptimizersConfig(indexing_threshold=1, default_segment_number=1),
        )
        shard = qe.EdgeShard.create(str(folder / "shard"), config)
        shard.update(qe.UpdateOperation.create_field_index("access", qe.PayloadSchemaType.Keyword))
        for start in range(0, len(real), 500):
            shard.update(qe.UpdateOperation.upsert_points([
                qe.Point(id=i, vector={"dense": real[i].tolist()}, payload={"access": [str(access[i])]})
                for i in range(start, min(start + 500, len(real)))
            ]))
        shard.optimize()

        def top(v: np.ndarray, exact: bool, flt: Any = None) -> set[int]:
            got = shard.query(qe.QueryRequest(limit=6, query=qe.Query.Nearest(v.tolist(), using="dense"),
                                              filter=flt, params=qe.SearchParams(exact=exact)))
            return {int(p.id) for p in got}

        narrow = qe.Filter(must=[qe.FieldCondition(key="access", match=qe.MatchAny(any=NARROW))])
        for label, flt in (("no_filter", None), ("narrow_filter", narrow)):
            recall = [len(top(v, False, flt) & top(v, True, flt)) / 6 for v in qvec]
            results[f"recall_at_6_{label}"] = round(float(np.mean(recall)), 4)
            results[f"queries_below_0_99_{label}"] = int(sum(r < 0.99 for r in recall))
        shard.close()
    return results


# -- the run --------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="collection sizes (comma-separated)")
    parser.add_argument("--queries", type=int, default=40, help="queries per kind and size (local mode: an eighth past 10k)")
    parser.add_argument("--engines", default="edge,local-mode")
    parser.add_argument("--no-hnsw", action="store_true", help="skip building HNSW on Edge")
    parser.add_argument("--recall-only", action="store_true", help="only HNSW recall on the real embeddings")
    parser.add_argument("--engine-process", metavar="ENGINE", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--note", default="", help="a line recorded in the results (why this run)")
    parser.add_argument("--flush-every", type=float, default=edge_store.FLUSH_EVERY,
                        help="Edge: seconds between flushes while writing (the store's FLUSH_EVERY)")
    args = parser.parse_args(argv)
    edge_store.FLUSH_EVERY = args.flush_every
    sizes = sorted(int(s) for s in args.sizes.split(","))
    if args.engine_process:  # the child: one engine, rows as JSON on stdout
        print(json.dumps(run_engine(args.engine_process, sizes, args.queries, not args.no_hnsw)))
        return 0

    started = time.monotonic()
    results: dict[str, Any] = {
        "machine": machine(("qdrant-edge-py",)),
        "note": args.note,
        "settings": {"sizes": sizes, "queries": args.queries, "limit": 6, "dimension": DIMENSION,
                     "strategy": DEFAULT_STRATEGY, "hnsw_from": edge_store.HNSW_FROM,
                     "flush_every_seconds": edge_store.FLUSH_EVERY,
                     "write_us_per_point": "Edge's upsert split into turning the records into Edge's points (timed "
                                           f"apart on the first {SAMPLE_POINTS} points, best of 3; of_which_terms: its "
                                           "difference without the terms field) and the rest "
                                           "(Edge's update); flushes: Store.commit's time; flush_count: during the "
                                           "writes, without finish's",
                     "points": "docs-fr chunks' payload and BM25 vectors under new urls; vectors around real "
                               "multilingual-e5-small vectors of the corpora (real + 0.3 x another + noise)",
                     "access": "public 70%, members 20%, staff 10%; filter = reader of public (70%), "
                               "narrow = reader of staff (10%)",
                     "write": "one document's chunks per upsert then Store.commit, as rag ingest; local mode "
                              f"is filled {LOCAL_BULK} per call and measured on its last {LOCAL_INGEST_TAIL} points"},
    }
    say("HNSW recall on the real embeddings...")
    results["hnsw_recall_real_embeddings"] = recall_on_real_embeddings()
    say(json.dumps(results["hnsw_recall_real_embeddings"]))
    if not args.recall_only:
        results["engines"] = {}
        for engine in args.engines.split(","):
            command = [sys.executable, __file__, "--engine-process", engine, "--sizes", args.sizes,
                       "--queries", str(args.queries), "--flush-every", str(args.flush_every)]
            command += ["--no-hnsw"] if args.no_hnsw else []
            done = subprocess.run(command, stdout=subprocess.PIPE, text=True, env=os.environ)
            if done.returncode:
                results["engines"][engine] = {"error": f"the {engine} process failed ({done.returncode}): see above"}
                continue
            results["engines"][engine] = json.loads(done.stdout.strip().splitlines()[-1])
            finish(results, args.out, started)  # each engine's rows saved as soon as they exist
    finish(results, args.out, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
