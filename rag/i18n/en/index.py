"""The index: ingestion's report and progress, the store, its collections, migration."""

TEXT: dict[str, str] = {
    # rag/ingest: ingestion's report, progress and warnings
    "index.size_note": (
        "the collection holds {points} chunks, more than the {limit} the embedded store was measured "
        "with (benchmarks/README.md): it keeps working, but a Qdrant server (RAG_QDRANT_URL, `rag "
        "migrate`) is the measured choice from there"
    ),
    "report.ingest": (
        "Collection {name} ({strategy}, {model}): {new} new, {changed} changed, {unchanged} unchanged, "
        "{skipped}{failed} failed, {pruned} pruned; {written} in {time}."
    ),
    "report.ingest_skipped": "{n} skipped (no text), ",
    "report.verify_failed": "Verification FAILED: {error}",
    "report.written_one": "{n} chunk written",
    "report.written_other": "{n} chunks written",
    "report.verified_one": "Verified {n} stored point (vector size and non-zero).",
    "report.verified_other": "Verified {n} stored points (vector size and non-zero).",
    "report.aborted": "Stopped early: {why}",
    "report.warning": "warning: {message}",
    "report.skipped": "skipped {item}: {reason}",
    "report.failed_doc": "FAILED {item}: {reason}",
    "ingest.source_failed": "the source failed: {error}",
    "ingest.nothing_listed": (
        "the source listed no document: nothing was pruned; to empty the collection on purpose, rebuild "
        "it with --full"
    ),
    "ingest.twice": "{url}: the source listed this url twice; the second copy was ignored",
    "ingest.reembedded": "{url}: its stored vectors were unusable: re-embedded",
    "ingest.chunking_failed": "chunking failed: {error}",
    "ingest.no_chunks": "no text to index (the document produced no chunks)",
    "ingest.failed_embed": "{n} documents in a row failed to embed; last error: {error}",
    "ingest.failed_contexts": "{n} documents in a row failed to get their contexts from the chat model; last error: {error}",
    "report.relinked_one": "{n} unchanged document had a new address: updated in place, not embedded again.",
    "report.relinked_other": "{n} unchanged documents had a new address: updated in place, not embedded again.",
    "ingest.kept_unlisted_one": "{n} document not listed by this run was kept: {reason}",
    "ingest.kept_unlisted_other": "{n} documents not listed by this run were kept: {reason}",
    "ingest.prune_kept_private": (
        "this run was not signed in, so it lists no private post; give --user "
        "and --app-password to prune them"
    ),
    "ingest.prune_kept_site": "they do not come from this site",
    "ingest.withdrawn": "{url}: its earlier copy was removed from the collection",
    "ingest.needs_enricher": (
        "{name} is enriched by the chat model ({mode}): a re-run needs it too; "
        "run again with --enrich {mode} and LM Studio started"
    ),
    "embed.over_limit": (
        "over {n} tokens: embedded as the average of {n}-token windows, so its vector is diluted and it "
        "retrieves worse; a strategy with smaller chunks avoids this"
    ),
    "enrich.summary": "Enrichment {mode}: {n} contexts.",
    "enrich.summary_model": (
        "Enrichment {mode} ({model}): {n} contexts, {cached} from the cache, {generated} written by the "
        "model: {prompt} prompt + {answer} answer tokens in {time}."
    ),
    "progress.documents_one": "{docs} document",
    "progress.documents_other": "{docs} documents",
    "progress.chunks_one": "{n} chunk",
    "progress.chunks_other": "{n} chunks",
    "progress.rate_one": "{rate} chunk/s",
    "progress.rate_other": "{rate} chunks/s",
    "progress.contexts": "contexts: {tokens} tokens in {time}",
    "progress.eta": "about {time} left",
    "progress.phase_item": "{phase}: {item}",
    "phase.reading": "reading",
    "phase.enriching": "enriching",
    "phase.embedding": "embedding",
    "phase.writing": "writing",
    "phase.indexed": "indexed",
    "phase.pruning": "pruning",
    "phase.verifying": "verifying",
    "phase.done": "done",
    "outcome.new": "new",
    "outcome.changed": "changed",
    "outcome.unchanged": "unchanged",
    "outcome.skipped": "skipped",
    "outcome.failed": "failed",
    "outcome.warning": "warning",
    "replace.origin": "from {source}, readable by {groups}",
    "replace.unknown_source": "an unknown source",
    "replace.nobody": "nobody",
    "replace.sentence": "{url}: the indexed document ({old}) would be replaced by this one ({new})",
    "replace.held_back_run": (
        "not indexed: {sentence}; to replace it, say so (rag ingest --replace, or "
        "the confirmation of the Ingest page)"
    ),
    "bounds.outside": "not indexed: it would be readable by {groups}, groups you are not in",
    "bounds.hidden": "not indexed: a document you cannot read already has this address",
    "replace.held_back": "not indexed: {sentence}; confirm to replace it",
    # rag/store: the store, its collections, migration
    "store.no_collection": (
        "The collection {name} does not exist in the {store}. Ingest a source first: rag ingest SOURCE "
        "--collection {id}"
    ),
    "store.no_model": (
        "The collection {name} records no embedding model (it was not built by `rag ingest`). Use "
        "another collection name (--collection NAME)."
    ),
    "store.dimensions": " ({n} dimensions)",
    "store.other_model": (
        "The collection {name} was built with the embedding model {built} ({dims} dimensions), but the "
        "current embedding model is {now}. Vectors of two models cannot be compared: re-index into a new "
        "collection (--collection NAME), rebuild this one with --full, or use the original model {built} "
        "(RAG_EMBED_MODEL)."
    ),
    "store.sparse_newer": (
        "The collection {name} was built by a newer version of rag (keywords of version {version}, this "
        "one makes those of version {known}): its keywords cannot be compared with this version's. Update "
        "rag, search without keywords (--mode dense), or rebuild the collection with this version: rag "
        "ingest SOURCE --collection {id} --full"
    ),
    "store.no_threshold": "The collection {name} does not exist: cannot record a threshold.",
    "store.unknown_fusion": "Unknown fusion {fusion}: choose one of {known}.",
    "store.folder_held": (
        "Another process holds the Qdrant folder {location} (e.g. a running `streamlit run` or `rag "
        "ingest` of an older version). Stop it, or use a Qdrant server for concurrent access: set "
        "RAG_QDRANT_URL (e.g. http://localhost:6333)."
    ),
    "store.url_needed": "A Qdrant server URL is needed (RAG_QDRANT_URL).",
    "store.unreachable": (
        "Cannot reach the Qdrant server at {location} ({error}). Start it (docker compose up -d qdrant) "
        "or unset RAG_QDRANT_URL to use the embedded store."
    ),
    "store.refused": "The Qdrant server at {location} refused the request ({status}): check RAG_QDRANT_API_KEY.",
    "store.status": "Qdrant at {location} answered {status}: {detail}",
    "name.bad_suggest": (
        "\"{name}\" cannot name a collection: unaccented letters, digits, '-' and '_' only, no spaces. "
        "For example: {suggestion}"
    ),
    "name.bad": (
        "\"{name}\" cannot name a collection: unaccented letters, digits, '-' and '_' only, no spaces, "
        "64 at most."
    ),
    "store.bad_name": (
        "The collection name {name} cannot be used by the embedded store: use 1 to 64 unaccented letters, digits, "
        "'-' or '_', starting with a letter or a digit."
    ),
    "store.disk_full": (
        "Not enough free space on the disk of {path}: {free} MB free, {needed} MB needed for this write, and {reserve} "
        "MB kept free (RAG_MIN_FREE_MB). Nothing of this write was made and what is already indexed is kept: free some "
        "space and run again (the documents already indexed are not redone)."
    ),
    "store.missing": "The collection {name} does not exist in the {store}.",
    "store.cannot_open": "The embedded collection {name} at {path} cannot be opened: {error}",
    "store.old_name": (
        "The old store at {path} holds a collection named {name}: copy it to a Qdrant server with an "
        "older version's `rag migrate --to URL`, or rename it there."
    ),
    "store.move_blocked": (
        "Cannot finish moving the embedded store to Qdrant Edge: {target} already exists. Move it away; "
        "the copied collections wait in {staging}."
    ),
    "store.meta_unreadable": (
        "The collection metadata {path} cannot be read ({error}). Restore it from a backup, or delete "
        "the collection and ingest again."
    ),
    "store.meta_not_object": "The collection metadata {path} is not a JSON object: restore it or re-ingest.",
    "store.process": "process {pid}",
    "store.another_process": "another process",
    "store.held": (
        "Another process holds the embedded Qdrant store at {path}: store held by {who} (e.g. a running "
        "`streamlit run` or `rag ingest`). Stop it, or use a Qdrant server for concurrent access: set "
        "RAG_QDRANT_URL (e.g. http://localhost:6333)."
    ),
    "store.index_kind": "Unknown payload index type {kind}: use one of {kinds}.",
    "store.other_strategy": (
        "{name} was built with the strategy {built} ({recorded}); this run asks for {strategy} "
        "({wanted}). Rebuild it with --full, or index into another collection (--collection NAME)."
    ),
    "store.default_settings": "default settings",
    "migrate.batch": "The batch size must be at least 1 (got {value}).",
    "migrate.same": "The source and the destination are the same ({store}): nothing to copy.",
    "migrate.no_collection": (
        "The collection {name} does not exist in the {store} (collections there: {available}). Pick one "
        "with --collection NAME."
    ),
    "migrate.exists": (
        "The collection {name} already exists in the {store} ({n} points). Pass --replace to overwrite "
        "it, or copy into another name."
    ),
    "migrate.no_size": "The collection {name} in the {store} records no vector size: cannot copy it.",
    "migrate.short": (
        "Copying {name} left {written} points in the {store} instead of {total}. Run the command again "
        "with --replace."
    ),
}
