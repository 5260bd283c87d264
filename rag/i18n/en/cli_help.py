"""The command line's help (--help) and argparse's own sentences."""

TEXT: dict[str, str] = {
    # the command line's help (argparse)
    "help.ask": "answer a question from the indexed articles, citing its sources",
    "help.ask.description": (
        "Retrieve the passages closest to QUESTION, refuse when none reaches the score threshold, "
        "otherwise ask the chat model (LM Studio) to answer from them only, then list the cited sources. "
        "Without --json the answer is streamed as it is written."
    ),
    "help.ask.question": "the question, in quotes",
    "help.ask.collection": "collection to search (default: RAG_COLLECTION or 'blog')",
    "help.ask.json": "print the result as JSON only",
    "help.ask.top_k": "passages to retrieve (default: RAG_TOP_K or 6)",
    "help.ask.threshold": (
        "minimum dense score to accept a passage (default: RAG_THRESHOLD, else the collection's "
        "calibrated value, else the embedding model's default)"
    ),
    "help.ask.min_coverage": (
        "share (0-1) of the question's words, weighted by rarity, the readable articles must hold "
        "(default: RAG_MIN_COVERAGE, else the collection's calibrated value, else 0.6); 0 turns the word "
        "checks off, the score alone decides"
    ),
    "help.ask.mode": "retrieval: dense, hybrid (dense + BM25), or auto (hybrid when the collection has BM25)",
    "help.ask.groups": (
        "answer as a reader in these access groups, e.g. public (default: every document; the command "
        "line is the administrator's)"
    ),
    "help.ask.no_llm": "retrieval only: list the passages and the threshold decision, without the chat model",
    "help.eval": "replay a question set: hit@k, MRR, threshold calibration, answer checks",
    "help.eval.description": (
        "Replay a question set (JSON Lines, or CSV with the same columns) against a collection. Measures "
        "whether the expected article is retrieved (hit@1, hit@3, hit@k, MRR), whether the expected "
        "answer is in the passages, suggests the score threshold that best separates in-base from "
        "off-topic questions, and with the chat model checks the answers. Writes results.json and "
        "results.csv, and keeps the run in $RAG_DATA_DIR/evals for later comparison."
    ),
    "help.eval.questions": "question set (.jsonl or .csv)",
    "help.eval.collection": "collection to measure (default: RAG_COLLECTION, else blog)",
    "help.eval.no_llm": "retrieval only: do not call the chat model",
    "help.eval.out": "where to write results (default: a new folder under $RAG_DATA_DIR/evals)",
    "help.eval.compare": "also run the questions against COLLECTION2 and compare",
    "help.eval.compare_run": (
        "compare with an earlier run: its folder or results.json, or 'latest' for the previous run of "
        "the same collection"
    ),
    "help.eval.save_threshold": (
        "record the suggested settings of the answerability gate (cosine floor, term coverage) in the "
        "collection, with the question set's name and the date, so `rag ask` uses them"
    ),
    "help.eval.mode": "retrieval mode",
    "help.eval.top_k": "passages retrieved per question (default: RAG_TOP_K)",
    "help.eval.json": "print the summary (and comparison) as JSON",
    "help.eval.groups": "retrieve as a reader in these access groups (default: every document)",
    "help.fetch": "download every post of a WordPress site as Markdown files",
    "help.fetch.description": (
        "Read every post of SITE through the WordPress REST API and write one Markdown file per post "
        "(named after its slug) with front matter: title, url, modified, access. Running it again "
        "overwrites the same files. A post with no text (only a redirect or a link) is skipped with a "
        "note. Exit status 1 if any post could not be converted."
    ),
    "help.fetch.site": "the WordPress site's address, e.g. https://blog.example.com",
    "help.fetch.out": "folder to write the .md files to (created if needed)",
    "help.fetch.user": "WordPress username, to include private posts (default: RAG_WP_USER)",
    "help.fetch.app_password": (
        "an application password of that user (default: RAG_WP_APP_PASSWORD; prefer the variable, a "
        "command-line argument is visible to other local users)"
    ),
    "help.fetch.modified_after": "only posts modified after this ISO date",
    "help.fetch.private_group": "access group given to private posts (default: private)",
    "help.fetch.timeout": "seconds to wait for each request (default: 30)",
    "help.fetch.max_doc_mb": "skip a post larger than this [${env} or {mb}]",
    "help.fetch.types": "content types to read, comma-separated: {types} (default: posts)",
    "help.fetch.prune": (
        "delete the files this command wrote earlier for posts the site no longer lists (only after the "
        "whole site was read; never other files)"
    ),
    "help.ingest": "index a WordPress site or a folder of .md/.html files",
    "help.ingest.description": (
        "Read SOURCE (a WordPress site URL or a local folder of .md/.markdown/.html/.htm files), chunk "
        "it, embed it and store it in a Qdrant collection. Re-running is safe and only re-embeds "
        "documents that changed; an interrupted run resumes where it stopped. A document with no text "
        "(only a redirect or a link) is skipped with a note, not a failure. Exit status: 0 all indexed, "
        "1 some documents failed (the others are indexed), 2 fatal error."
    ),
    "help.ingest.source": "WordPress site URL or local folder (or file)",
    "help.ingest.collection": "collection name [$RAG_COLLECTION or blog]",
    "help.ingest.strategy": "chunking strategy: {names} [the collection's own, else {default}]",
    "help.ingest.enrich": (
        "context prepended to each chunk before embedding: none; lead (the heading trail and the "
        "article's lead paragraph, no model); llm (one or two sentences from the chat model); questions "
        "(the questions it answers and keywords, from the chat model). Contexts from the model are "
        "cached under $RAG_DATA_DIR/cache [the collection's own, else none]"
    ),
    "help.ingest.full": "rebuild the collection from scratch (also the way to change its embedding model)",
    "help.ingest.replace": ("let a document replace another source's with the same identity or address (without it such a "
                            "document is not indexed and the run exits 1)"),
    "help.ingest.prune": "delete the points of documents no longer in the source (only after a complete read)",
    "help.ingest.access": (
        "access groups of a folder's documents [public]; a file's front-matter access can only narrow "
        "them (the stricter wins), access: [] means editors only"
    ),
    "help.ingest.max_doc_mb": "skip a file or post larger than this [${env} or {mb}]",
    "help.ingest.user": "WordPress user, to include private posts [$RAG_WP_USER]",
    "help.ingest.app_password": "WordPress application password [$RAG_WP_APP_PASSWORD]",
    "help.ingest.types": "a WordPress site's content types, comma-separated: {types} [posts]",
    "help.ingest.json": "print the summary as JSON on stdout",
    "help.ingest.chunk_size": "recursive, markdown: most characters (or tokens, --unit tokens) a chunk holds",
    "help.ingest.overlap": "recursive, sections, markdown: characters (or tokens) repeated between chunks",
    "help.ingest.min_size": "sections_min_max: a shorter section joins the next one",
    "help.unit": (
        "what the sizes count: chars (characters, the default) or tokens (the embedding model's own count; "
        "a server model's is estimated at {chars} characters a token)"
    ),
    "help.ingest.max_size": "sections, sections_min_max: longest chunk before a section is cut",
    "help.migrate": "move an older embedded store to Qdrant Edge, or copy collections to a Qdrant server",
    "help.migrate.description": (
        "Without --to: move an embedded store written by an older version (qdrant-client's local mode) "
        "to Qdrant Edge, keeping the old files in a backup folder (this also happens by itself the first "
        "time the store opens). With --to: copy collections as they are stored, without re-embedding, "
        "from the embedded store ($RAG_DATA_DIR/qdrant) to a Qdrant server; afterwards set "
        "RAG_QDRANT_URL (and RAG_QDRANT_API_KEY) to use the server. Stop the app first: the embedded "
        "store admits one process at a time."
    ),
    "help.migrate.to": "destination: a Qdrant server URL (http://localhost:6333) or a data folder",
    "help.migrate.from": "source: a Qdrant server URL or a data folder [the embedded store in $RAG_DATA_DIR]",
    "help.migrate.collection": "collection to copy; repeat for several [every collection of the source]",
    "help.migrate.api_key": "API key of a server given as URL [$RAG_QDRANT_API_KEY]",
    "help.migrate.replace": "overwrite a collection that already exists at the destination",
    "help.migrate.batch": "points per request [256]",
    "help.preview": "show where each chunking strategy cuts a document (no indexing)",
    "help.preview.description": (
        "Chunk one document and show the boundaries: chunk count, sizes, warnings (code_block_split, "
        "table_split, no_heading_context, oversized, tiny) and each chunk's offsets. FILE_OR_URL is a "
        ".md/.markdown/.html/.htm file or a web page address."
    ),
    "help.preview.strategy": "one of {names}, or {all} (default: {all})",
    "help.preview.json": "print the document and its chunks as JSON",
    "help.preview.chunk_size": "recursive, markdown: most characters (or tokens, --unit tokens) a chunk holds",
    "help.preview.overlap": "recursive, sections, markdown: characters (or tokens) repeated between chunks",
    "help.preview.min_size": "sections_min_max: a shorter section joins the next one",
    "help.preview.max_size": "sections, sections_min_max: longest chunk before a section is cut",
    "help.preview.timeout": "seconds to wait for a URL (default: 30)",
    "help.preview.max_doc_mb": "refuse a document larger than this [${env} or {mb}]",
    "help.preview.curl": (
        "print a curl command that embeds the chunks in one request, to try an embeddings server by "
        "hand: lmstudio (default; RAG_EMBED_URL) or ollama (its /api/embed). Chunks of --strategy, else "
        "of {default}"
    ),
    "help.preview.model": "with --curl: the embedding model id [RAG_EMBED_MODEL when it names a server model]",
    "help.status": "show LM Studio, its models, the Qdrant backend and the collections",
    "help.status.description": (
        "Report whether LM Studio answers (and its models: type, loaded, context length), the embedding "
        "setting, the Qdrant backend (embedded folder or server URL) and each collection with its model, "
        "dimension, strategy, points and threshold."
    ),
    "help.status.json": "print the status as JSON",
    "help.ingest.sizes": "chunk settings",
    "help.ingest.sizes_description": (
        "over the strategy's defaults; a collection keeps the settings it was built with, so other "
        "settings need --full or another --collection"
    ),
    "cli.usage": "usage: ",
    "cli.positionals": "positional arguments",
    "cli.options": "options",
    "cli.help": "show this help message and exit",
    "cli.section": "{title}",
    # argparse's own sentences (rag/cli/argparse_words.py)
    "argparse.error": "{prog}: error: {message}",
    "argparse.required": "the following arguments are required: {names}",
    "argparse.unrecognized": "unrecognized arguments: {names}",
    "argparse.choice": "argument {name}: invalid choice: {value} (choose from {choices})",
    "argparse.value": "argument {name}: invalid {type} value: {value}",
    "argparse.type_int": "int",
    "argparse.type_float": "float",
    "argparse.one": "argument {name}: expected one argument",
    "argparse.at_least_one": "argument {name}: expected at least one argument",
    "argparse.at_most_one": "argument {name}: expected at most one argument",
    "argparse.ambiguous": "ambiguous option: {option} could match {matches}",
    "src.pasted_title": "Pasted text",
}
