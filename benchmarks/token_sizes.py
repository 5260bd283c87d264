"""Sizes in tokens: the bundled model's characters-a-token ratio (the estimate used for server
models) and what `--unit tokens` does to each strategy's chunks, beside the default in characters.

    .venv/bin/python benchmarks/token_sizes.py                         # the demo articles
    RAG_CORPORA=/path/to/corpora .venv/bin/python benchmarks/token_sizes.py --docs-fr

For each strategy: chunk count, the largest body in the model's tokens, how many chunks the
model's 512-token window cuts before indexing, and seconds to chunk the set. Writes
benchmarks/results/token_sizes.json (or token_sizes_docsfr.json).
"""

from __future__ import annotations

import argparse
import time

from _common import DOCS_FR, RESULTS, corpus_label, corpus_path, finish, load_documents, machine, say

from rag.chunking import STRATEGIES
from rag.chunking._measure import CHARS_PER_TOKEN, TokenMeasure
from rag.chunking.preview import chunkers
from rag.chunking.token_cap import indexed_chunks
from rag.demo import DEMO_DIR
from rag.embeddings.embedded import EmbeddedEmbedder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs-fr", action="store_true", help="the 226 Windows Server articles (RAG_CORPORA)")
    parser.add_argument("--limit", type=int, default=None, help="the first N documents only (the window's counts are slow)")
    args = parser.parse_args()
    started = time.monotonic()
    folder = corpus_path(DOCS_FR) if args.docs_fr else DEMO_DIR
    docs = load_documents(folder, args.limit)
    model = EmbeddedEmbedder(threads=1)
    count, window = model.token_count, model.max_tokens
    words: dict[str, int] = {}
    chars = sum(len(d.markdown) for d in docs)
    tokens = 0
    for d in docs:  # summed over words: the tokenizer's own count of a whole text, measured equal
        measure = TokenMeasure(d.markdown, count, words)
        tokens += measure.tokens(0, len(d.markdown)) - measure.overhead
    say(f"{len(docs)} documents, {chars} characters, {tokens} tokens: {chars / tokens:.2f} a token")
    rows = {}
    for unit in ("chars", "tokens"):
        for chunker in chunkers("all", {"unit": unit if unit == "tokens" else None}):
            chunker.count = count
            t0 = time.perf_counter()
            made = [(d, chunker.chunk(d.markdown, title=d.title)) for d in docs]
            seconds = time.perf_counter() - t0
            indexed = [indexed_chunks(chunker, d.markdown, d.title, count, window) for d in docs]
            bodies = [count(c.text) for _, cs in made for c in cs]
            rows[f"{chunker.name}:{unit}"] = {
                "settings": chunker.settings(),
                "chunks": len(bodies),
                "max_body_tokens": max(bodies),
                "median_body_tokens": sorted(bodies)[len(bodies) // 2],
                "chunks_cut_by_window": sum(len({s for _, s in pieces if s is not None}) for pieces in indexed),
                "indexed_chunks": sum(len(pieces) for pieces in indexed),
                "chunking_seconds": round(seconds, 3),
            }
            say(f"{chunker.name:17} {unit:6} {rows[f'{chunker.name}:{unit}']}")
    results = {
        "corpus": corpus_label(DOCS_FR) if args.docs_fr else "rag/demo/articles",
        "documents": len(docs),
        "limit": args.limit,
        "characters": chars,
        "tokens": tokens,
        "characters_per_token": round(chars / tokens, 2),
        "estimate_characters_per_token": CHARS_PER_TOKEN,
        "window_tokens": window,
        "strategies": rows,
        "strategy_names": list(STRATEGIES),
        "machine": machine(),
    }
    finish(results, RESULTS / ("token_sizes_docsfr.json" if args.docs_fr else "token_sizes.json"), started)


if __name__ == "__main__":
    main()
