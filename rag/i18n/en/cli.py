"""The command line's lines: summaries, status, fetch, migration, evaluation, preview."""

TEXT: dict[str, str] = {
    # rag/cli/main.py
    "cli.description": "Local RAG workbench: ingest a blog, preview chunking, ask with citations, evaluate.",
    "cli.error": "error: {message}",
    "cli.warning": "Warning: {message}",
    "cli.interrupted": "interrupted: run the same command again to resume",
    # rag/cli/ask.py
    "ask.no_answer": "No answer was written. {error}",
    "ask.passages": "Passages retrieved (threshold {threshold}, {source}):",
    "ask.order_note": "  (ranked by keywords and meaning together: a passage with a lower score can come first)",
    "ask.below": "(below threshold)",
    "ask.answer_urls": "Web or e-mail addresses written by the model, not taken from the sources (check them): {urls}",
    "ask.sources": "Sources:",
    "ask.invalid": "Invalid citations (no such extract was given to the model): {numbers}",
    "ask.uncited": "Warning: the answer cites no extract; check it against the passages.",
    "ask.dropped": "Dropped passages (context window): {numbers}",
    "threshold.setting": "setting",
    "threshold.collection": "calibrated",
    "threshold.model_default": "model default",
    # rag/status.py: `rag status` and the sidebar
    "status.auto_url": "auto: the embedding model of {url} if it answers, else the bundled multilingual-e5-small",
    "status.auto_no_server": "auto: no server answers, so the bundled multilingual-e5-small (384 dims)",
    "status.auto_pick": "auto: the server's embedding model {model}",
    "status.auto_none": "auto: the server lists no embedding model, so the bundled multilingual-e5-small (384 dims)",
    "status.llm_up_one": "LM Studio: reachable at {url}, {n} model",
    "status.llm_up_other": "LM Studio: reachable at {url}, {n} models",
    "status.loaded": "loaded",
    "status.not_loaded": "not loaded",
    "status.state_unknown": "state unknown",
    "status.context": ", context {n}",
    "status.unknown_type": "unknown type",
    "status.llm_down": "LM Studio: NOT reachable at {url}",
    "status.embeddings": "Embeddings for a new collection: {choice}; an existing one keeps its own model",
    "status.embedded_at": "embedded at {location}",
    "status.server_at": "server at {location}",
    "status.qdrant_down": "Qdrant: {where}: NOT available",
    "status.qdrant_up_one": "Qdrant: {where}, {n} collection",
    "status.qdrant_up_other": "Qdrant: {where}, {n} collections",
    "status.not_calibrated": "not calibrated",
    "status.default": " (default)",
    "status.enrichment": ", enrichment {mode}",
    "status.collection": (
        "  - {name}{default}: {points} points, model {model}, {dimension} dims, strategy "
        "{strategy}{enriched}, threshold {threshold}, updated {updated}"
    ),
    # rag/cli/fetch.py
    "fetch.no_post_listed": "warning: the site listed no post: nothing was removed",
    "fetch.cannot_remove": "problem: could not remove {name}: {error}",
    "fetch.removed": "removed {name}  (no longer on the site)",
    "fetch.out_is_file": "--out {path} is a file, not a folder",
    "fetch.prune_modified_after": (
        "--prune cannot be combined with --modified-after: the site then lists only the posts changed "
        "since that date, and every other file would look deleted"
    ),
    "fetch.posts_one": "({n} post)",
    "fetch.posts_other": "({n} posts)",
    "fetch.page": "page {page}",
    "fetch.warning": "warning: {problem}",
    "fetch.skipped": "skipped: {problem}",
    "fetch.problem": "problem: {problem}",
    "fetch.wrote": "wrote {name}  {title}",
    "fetch.written_one": "{n} post written to {path}",
    "fetch.written_other": "{n} posts written to {path}",
    "fetch.n_removed_one": ", {n} removed",
    "fetch.n_removed_other": ", {n} removed",
    "fetch.n_skipped_one": ", {n} skipped (no text: only a redirect or a link)",
    "fetch.n_skipped_other": ", {n} skipped (no text: only a redirect or a link)",
    "fetch.n_failed_one": ", {n} failed (see the problems above)",
    "fetch.n_failed_other": ", {n} failed (see the problems above)",
    "fetch.n_warnings_one": ", {n} warning",
    "fetch.n_warnings_other": ", {n} warnings",
    # rag/cli/migrate.py
    "migrate.already_edge": "The embedded store at {path} is already Qdrant Edge: nothing to move.",
    "migrate.moved": "{name}: {points} points, now in Qdrant Edge",
    "migrate.backup": "The old files are in {path}.",
    "migrate.need_to": "--from, --collection and --replace copy collections: give the destination with --to.",
    "migrate.no_store": (
        "There is no embedded store at {path}: set RAG_DATA_DIR to the folder that holds it, or give the "
        "source with --from."
    ),
    "migrate.not_a_store": (
        "{path} holds no embedded store (expected a 'qdrant' folder inside it): give the data folder "
        "(RAG_DATA_DIR) or a server URL."
    ),
    "migrate.empty": "The {store} holds no collection: nothing to copy.",
    "migrate.copying": "Copying from the {source} to the {target}",
    "migrate.progress": "  {name}: {copied}/{total} points",
    "migrate.copied": "{name}: {points} points copied, metadata and sparse vectors included",
    "migrate.use_server": "To use the server: export RAG_QDRANT_URL={url} (and RAG_QDRANT_API_KEY if it has one).",
    # where the vectors live (Store.describe)
    "store.embedded": "embedded Qdrant at {location}",
    "store.server": "Qdrant server at {location}",
    "store.local_mode": "Qdrant local-mode folder at {location}",
    # rag/cli/eval.py
    "eval.progress": "{label}: {done}/{total} questions ({id})",
    "eval.none": "none",
    "eval.no_collection": (
        "The collection {name} does not exist in the {store} (collections: {existing}). Ingest a source "
        "first: rag ingest SOURCE --collection {name}"
    ),
    "eval.no_earlier_run": "No earlier run of the collection {name} in {path} to compare with.",
    "eval.top_k": "--top-k must be at least 1 (got {value}).",
    "eval.compare_both": "Use --compare (another collection) or --compare-run (an earlier run), not both.",
    "eval.results": "results: {path} and results.csv",
    "eval.question_failed": "question {id} (line {line}) failed, not scored: {error}",
    "eval.stopped": (
        "the evaluation stopped after {done} of {total} questions: {why}. The questions scored so far "
        "are in {path}."
    ),
    "eval.coverage": ", coverage {value}",
    "eval.saved": (
        "saved threshold {threshold}{extra} in the collection {name}: rag ask uses it unless "
        "RAG_THRESHOLD is set"
    ),
    "eval.no_suggestion": "no suggestion",
    "eval.partial": "some questions were not scored, so the calibration is partial",
    "eval.not_saved": "threshold not saved: {reason}",
    "eval.llm_errors": "the chat model gave no answer to {n} questions: see llm_error in results.csv",
    # rag/cli/preview.py
    "preview.document": "{title}  ({url}, {n} characters)",
    "preview.chunks_one": "{n} chunk",
    "preview.chunks_other": "{n} chunks",
    "preview.stats": "   {chunks}; characters min {min}, median {median}, max {max}; warnings: {warnings}",
    "preview.window": "Chunks as indexed: tokens counted by the bundled embedding model, window {n} tokens",
    "preview.window_estimated": (
        "Chunks as indexed: tokens estimated (about {chars} characters a token), the server model's window "
        "{n} tokens"
    ),
    "preview.tokens_estimated": "Tokens estimated (about {n} characters a token): the server model gives no count here",
    "preview.window_cut": "(cut from chunk #{n} by the model's window)",
    "preview.window_cut_count": "   {pieces} pieces cut by the model's {n}-token window (indexed as shown)",
    "preview.none": "none",
    # rag/cli/ingest.py
    "ingest.flag_unused": (
        "{flags} does not apply to the strategy {strategy} (its settings: {used}); choose another "
        "--strategy or drop the flag."
    ),
    "ingest.enriched_by": ", enrichment {mode} by {model}",
    "ingest.indexing": "Indexing {source} into {name} ({store}, strategy {strategy}{enriched})",
}
