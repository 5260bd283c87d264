"""rag's messages in English: the command line's lines and the errors the library raises.

Same keys and `{placeholders}` as fr.py (a test checks it). Commands, flags, paths, variable and
attribute names stay as they are inside a message.
"""

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
    "ask.answer_urls": "Web addresses written by the model, not taken from the sources (check them): {urls}",
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
    # rag/evaluate/report.py: an evaluation in sentences (CLI, dashboard)
    "report.l.answer_in_context": "answer in context",
    "report.l.in_base_accepted": "in-base accepted",
    "report.l.out_of_base_refused": "off-topic refused",
    "report.l.threshold": "threshold",
    "report.l.suggested_threshold": "suggested threshold",
    "report.l.answer_contains_expected": "answer contains expected",
    "report.l.refusal_rate_out_of_base": "off-topic refusals",
    "report.l.refusal_rate_in_base": "in-base refusals",
    "report.l.invalid_citation_rate": "invalid citations",
    "report.l.uncited_rate": "uncited answers",
    "report.l.prompt_tokens_mean": "prompt tokens (mean)",
    "report.l.first_token_seconds_median": "seconds to first word (median)",
    "report.na": "n/a",
    "report.pct": "{value}%",
    "report.model": "model {model}",
    "report.strategy": "strategy {strategy}",
    "report.mode": "{mode} retrieval",
    "report.collection": "Collection {name} ({parts})",
    "report.failed_one": "{n} question failed and is not scored: {ids}",
    "report.failed_other": "{n} questions failed and are not scored: {ids}",
    "report.stopped": (
        "stopped after {done} of {total} questions ({why}); the figures cover the questions "
        "scored"
    ),
    "report.questions_one": "{n} question: {n_in} in-base, {n_out} off-topic",
    "report.questions_other": "{n} questions: {n_in} in-base, {n_out} off-topic",
    "report.unknown_sources_one": (
        "warning: {n} expected source url is not in the collection, so its questions cannot be "
        "found (a typo, or the article was not ingested): {ids}"
    ),
    "report.unknown_sources_other": (
        "warning: {n} expected source urls are not in the collection, so their questions cannot be "
        "found (a typo, or the article was not ingested): {ids}"
    ),
    "report.hit1": "hit@1 {pct} ({n} of {total} in-base questions find the right article first)",
    "report.hit3": "hit@3 {pct} ({n} of {total} find it in the first 3 passages)",
    "report.hitk": "hit@{k} {pct} ({n} of {total} find it among the {k} passages retrieved)",
    "report.mrr": "MRR {value} (1.00 = always first, 0.50 = second on average)",
    "report.no_in_base": "no in-base question: retrieval quality cannot be measured",
    "report.context_na": "answer in context n/a (no in-base question has an expected_answer)",
    "report.context": "answer in context {pct} ({n} of {total} expected answers appear word for word in the passages)",
    "report.at_threshold": (
        "at threshold {threshold}: {accepted} of {n_in} in-base questions answered ({accepted_pct}), "
        "{refused} of {n_out} off-topic refused ({refused_pct})"
    ),
    "report.versus": "; {value} at the current threshold",
    "report.suggested": (
        "suggested threshold {threshold}: {accepted} of {n_in} answered, {refused} of {n_out} refused "
        "(balanced accuracy {accuracy}{versus})"
    ),
    "report.coverage": ", coverage {value}",
    "report.gate_suggested": (
        "suggested settings: threshold {threshold}{coverage}: {accepted} of {n_in} in-base questions answered, "
        "{refused} of {n_out} off-topic refused"
    ),
    "report.no_suggested": "no suggested threshold: {reason}",
    "report.llm_down": (
        "the chat model could not be reached ({n} of {asked} questions got no answer): no answer "
        "metrics; start LM Studio and run again"
    ),
    "report.contains": "answers containing the expected text {pct} ({n} of {total})",
    "report.refused": "off-topic questions refused {pct} ({n} of {total})",
    "report.invalid": "answers citing an extract that does not exist {pct} ({n} of {total} answers)",
    "report.uncited": "answers with no citation {pct} ({n} of {total} answers)",
    "report.cost": "cost of the passages sent: ",
    "report.tokens": "{n} prompt tokens on average",
    "report.no_tokens": "prompt tokens not reported",
    "report.first_word": ", first word after {seconds} s (median)",
    "report.no_answer": "{n} questions got no answer from the chat model (see llm_error in the CSV)",
    "report.same": "same",
    "report.points": "{n} points",
    "report.side": "{label} = {name} (strategy {strategy}, model {model}, {mode} retrieval, top {k})",
    "report.same_threshold": "both measured at the threshold {threshold}",
    "report.two_thresholds": (
        "measured at two thresholds (A {a}, B {b}, two embedding models): the accepted and refused "
        "shares differ partly because of that"
    ),
    "report.sets_differ": (
        "the question sets differ: {n} questions in common (only those are compared question by "
        "question)"
    ),
    "report.found": "found by both {both}, by A only {a}, by B only {b}, by neither {neither}",
    "report.a_only": "  found by A only: {ids}",
    "report.b_only": "  found by B only: {ids}",
    "report.rank_changed": "rank changed for {n} questions ({better} better in B, {worse} worse)",
    "report.metric_line": "  {label}: {change}",
    "report.rank_line": "  {id}: {a} -> {b}",
    "report.missed": "missed",
    # rag/cli/preview.py
    "preview.document": "{title}  ({url}, {n} characters)",
    "preview.chunks_one": "{n} chunk",
    "preview.chunks_other": "{n} chunks",
    "preview.stats": "   {chunks}; characters min {min}, median {median}, max {max}; warnings: {warnings}",
    "preview.none": "none",
    # rag/answer/llm.py: the chat server
    "llm.unreachable": (
        "The chat server at {url} is not reachable ({error}). Start LM Studio's local server (Developer "
        "tab, or `lms server start`) or set RAG_LLM_URL to the right address."
    ),
    "llm.in_container": (
        "This program runs in a container, where localhost is the container itself: use "
        "http://host.docker.internal:1234/v1 to reach LM Studio on the host."
    ),
    "llm.timeout": (
        "The chat server at {url} took longer than {seconds} s to {what}. The model may still be loading "
        "or be too slow for this prompt: retry, use a smaller model or fewer passages (lower top k), or "
        "raise RAG_TIMEOUT."
    ),
    "llm.to_list": "list its models",
    "llm.to_answer": "answer",
    "llm.check_url": "Check that RAG_LLM_URL points to an OpenAI-compatible server such as LM Studio.",
    "llm.check_url_key": (
        "Check that RAG_LLM_URL points to an OpenAI-compatible server such as LM Studio and that "
        "RAG_LLM_API_KEY is right."
    ),
    "llm.embed_only": " (only embedding models are loaded: {models})",
    "llm.no_chat_model": (
        "No chat model is loaded in LM Studio at {url}{extra}. Load one (`lms load <model> "
        "--context-length 8192`, or the Developer tab) or set RAG_LLM_MODEL."
    ),
    "llm.incomplete": (
        "The chat server at {url} closed the stream before the answer was finished. Its log says why; a "
        "common cause is a prompt longer than the context length model {model} is loaded with: load it "
        "with a larger --context-length or ask with a lower top k."
    ),
    "llm.unreadable": "The chat server at {url} returned an answer this program cannot read.",
    "llm.overflow": (
        "The prompt is longer than the context length model {model} is loaded with (server said: "
        "{said}). Load the model with a larger context (`lms load {id} --context-length 16384`) or ask "
        "with a lower top k."
    ),
    "llm.not_found": (
        "LM Studio has no model {model} loaded. Loaded chat models: {loaded}. Set RAG_LLM_MODEL to one "
        "of them (or leave it empty to use the loaded one), or load that model in LM Studio."
    ),
    "llm.none": "none",
    "llm.none_loaded": (
        "LM Studio at {url} has no chat model loaded (server said: {said}). Load one (`lms load <model> "
        "--context-length 8192`, or the Developer tab) and ask again."
    ),
    "llm.status": "The chat server at {url} answered {status}: {said}.",
    "llm.no_details": "no details",
    # rag/index: ingestion's report, progress and warnings
    "index.size_note": (
        "the collection holds {points} chunks, more than the {limit} the embedded store was measured "
        "with (benchmarks/README.md): it keeps working, but a Qdrant server (RAG_QDRANT_URL, `rag "
        "migrate`) is the measured choice from there"
    ),
    "report.ingest": (
        "Collection {name} ({strategy}, {model}): {new} new, {changed} changed, {unchanged} unchanged, "
        "{skipped}{failed} failed, {pruned} pruned; {written} in {seconds}s."
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
        "model: {prompt} prompt + {answer} answer tokens in {seconds} s."
    ),
    "progress.documents_one": "{docs} document",
    "progress.documents_other": "{docs} documents",
    "progress.chunks_one": "{n} chunk",
    "progress.chunks_other": "{n} chunks",
    "progress.rate": "{rate} chunks/s",
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
    "replace.held_back": "not indexed: {sentence}; confirm to replace it",
    # rag/cli/ingest.py
    "ingest.flag_unused": (
        "{flags} does not apply to the strategy {strategy} (its settings: {used}); choose another "
        "--strategy or drop the flag."
    ),
    "ingest.enriched_by": ", enrichment {mode} by {model}",
    "ingest.indexing": "Indexing {source} into {name} ({store}, strategy {strategy}{enriched})",
    # rag/sources: folders, files, web pages
    "src.no_such_path": (
        "No such file or folder: {path}{hint}. Give a WordPress site URL (https://...) or a folder of "
        ".md, .markdown, .html or .htm files."
    ),
    "src.url_hint": " (a web address must start with https:// or http://)",
    "src.not_a_document": "{path} is not a .md, .markdown, .html or .htm file",
    "src.preview_folder": (
        "{path} is a folder: a preview reads one document. Give one of its .md, .markdown, .html or .htm files."
    ),
    "src.no_such_file": "No such file: {path}. Give a .md, .markdown, .html or .htm file, or a page URL.",
    "src.url_timeout": "{url} did not answer within {seconds} s",
    "src.url_failed": "Could not fetch {url}: {error}",
    "src.url_status": "{url} answered HTTP {status}: check the address",
    "src.nothing_to_preview": "{url} has no text to preview",
    "src.cp1252": (
        "is not valid UTF-8 (byte 0x{byte} at offset {offset}): read as Windows-1252 (cp1252); save it "
        "as UTF-8 if accented letters look wrong"
    ),
    "src.link_outside": "is a symbolic link to {target}, outside the folder: not followed, skipped",
    "src.not_a_document_skipped": "is not a .md, .markdown, .html or .htm file, skipped",
    "src.unreadable": "could not be read ({error}), skipped",
    "src.over_limit": "is over the size limit, skipped",
    "src.binary": "is a binary file (it contains NUL bytes), not text: skipped",
    "src.empty": "is empty, skipped",
    "src.front_matter": (
        "{error}: not indexed, since its access groups cannot be read. Fix the front matter (a value "
        "holding \": \" needs quotes, e.g. title: \"Incident: rotation\")"
    ),
    "src.not_indexed": "{error}: not indexed",
    "src.html_failed": "its HTML could not be converted to Markdown ({error}), skipped",
    "src.no_common_group": (
        "its front matter allows {declared} and the folder {folder}: no group in common, so only editors "
        "will see it"
    ),
    "src.folder_link_inside": "is a link to the folder {target}, already inside the source: not followed",
    "src.folder_link_outside": "is a symbolic link to the folder {target}, outside the source: not followed, skipped",
    "src.no_such_folder": "No such folder: {path}",
    "src.empty_folder": "{path} holds no .md, .markdown, .html or .htm file (hidden folders are skipped)",
    "src.mb_not_number": "{name}={value} is not a number of megabytes, e.g. 10",
    "src.mb_not_positive": "{name} must be a positive number of megabytes, got {value}",
    "src.too_big": (
        "is {size} MB, over the {limit} MB limit for one document: skipped. Split it, or raise the limit "
        "({name} or --max-doc-mb)"
    ),
    "src.looks_binary": (
        "looks like binary data read as text ({pct}% control or undecodable characters): skipped; "
        "convert it to a text format first"
    ),
    "src.encoded": (
        "is mostly encoded data ({pct}% of its text is long base64-like runs without spaces, such as an "
        "embedded file): skipped; remove the embedded data or link to it"
    ),
    "src.access_not_list": (
        "its front matter's access is {kind} {value}, not a list of groups (write e.g. access: [staff] "
        "or access: [] for editors only)"
    ),
    "src.access_bad_group": (
        "its front matter's access holds {value}, which is not a group name (write e.g. access: [staff, "
        "ops])"
    ),
    "src.redirect": "has no text, only a redirect to {target}: skipped",
    "src.links": "has no text, only {n} links: skipped",
    "src.link_to": "has no text, only a link to {target}: skipped",
    "src.link": "has no text, only a link: skipped",
    "src.no_text": "has no text (only front matter or markup), skipped",
    "src.yaml_line": " (line {n})",
    "src.yaml": "front matter is not valid YAML{line}",
    "src.html_too_deep": "the HTML is nested too deeply to convert (thousands of levels)",
    # rag/sources/wordpress.py
    "wp.credentials_hint": "(--user and --app-password, or RAG_WP_USER and RAG_WP_APP_PASSWORD)",
    "wp.empty_url": "The WordPress site URL is empty: give one like https://blog.example.com",
    "wp.scheme": (
        "{url}: a WordPress site is read over http:// or https:// only, not {scheme}:. Give an address "
        "like https://blog.example.com"
    ),
    "wp.not_address_why": "{url} is not a web address ({error}): give one like https://blog.example.com",
    "wp.not_address": "{url} is not a web address: give one like https://blog.example.com",
    "wp.bad_types": "--types {value} is not a content type: use posts, pages, or both (posts,pages)",
    "wp.empty_types": "--types is empty: use posts, pages, or both (posts,pages)",
    "wp.bad_date": "--modified-after {value} is not an ISO date: use 2024-05-31 or 2024-05-31T12:00:00",
    "wp.password_without_user": "An application password was given without a username {hint}",
    "wp.repeated_page": "page {page} of the {kind} repeated earlier items: stopped paging there",
    "wp.page_limit": "stopped after {page} pages of {kind} (the limit)",
    "wp.not_a_post_item": "{url} (an item that is not a post)",
    "wp.not_a_post": "expected a post object, got {kind}",
    "wp.no_link": "has no link: it cannot be cited, skipped",
    "wp.no_content": "has no content.rendered text, skipped",
    "wp.protected": "is password-protected: its text is not served by the API, skipped",
    "wp.bad_title": "has a title that is not text ({kind}), skipped",
    "wp.no_text": "has no text once its HTML is converted (only images or embeds?), skipped",
    "wp.no_answer": "no answer within {seconds} s",
    "wp.connection_failed": "connection failed ({error})",
    "wp.page_failed": (
        "Page {page} of the {kind} of {url} failed after {n} attempts: {why}. The {kind} of the earlier "
        "pages were read; try again later."
    ),
    "wp.what_page": "page {page} of the {kind}",
    "wp.what_kind": "the {kind}",
    "wp.not_a_list": (
        "{url} answered page {page} of the {kind} with {type} JSON, not a list: is the URL the site's "
        "root address?"
    ),
    "wp.unreachable": "Could not reach {url}: {why} after {n} attempts. Check the address and that the site is up.",
    "wp.first_page_failed": (
        "Page 1 of the {kind} of {url} failed after {n} attempts: {why}. The site may be overloaded: try "
        "again later."
    ),
    "wp.refused": (
        "{url} refused the credentials of user {user} ({detail}). Check the username and use an "
        "application password (Users > Profile > Application Passwords), not the login password; private "
        "posts also need a user allowed to read them."
    ),
    "wp.auth_needed": (
        "{url} requires authentication to read its posts ({detail}): give a username and an application "
        "password {hint}."
    ),
    "wp.html": (
        "{where} answered HTML instead of JSON (HTTP {status}): the REST API may be blocked by a "
        "security or cache plugin, or the address leads to a login page."
    ),
    "wp.invalid_json": (
        "{where} answered invalid JSON (HTTP {status}, starts with {start}): a plugin or PHP warning may "
        "be corrupting the API's output."
    ),
    "wp.empty_body": "{where} answered an empty body (HTTP {status}): try again later.",
    "wp.check_types": "Check --types: posts, pages, or a custom content type's REST base.",
    "wp.not_found": "{where} answered 404 ({detail}): that route is missing or disabled on this site.{hint}",
    "wp.request_refused": "WordPress refused the request for {what} of {url}: {detail}",
    "wp.not_wordpress": (
        "{url} does not look like a WordPress site: {url}/wp-json/ and {url}/index.php/wp-json/ answered "
        "no JSON, and neither did ?rest_route=. Give the address of the WordPress site itself (e.g. "
        "https://blog.example.com), or check that its REST API is enabled."
    ),
    # rag/chunking: strategies and their settings
    "chunk.positive": "{strategy}: {name} must be a whole number of characters above 0, got {value}",
    "chunk.overlap_number": "{strategy}: overlap must be a whole number of characters, 0 or more, got {value}",
    "chunk.overlap_size": (
        "{strategy}: overlap ({overlap}) must be smaller than {name} ({size}); 10 to 20% of {name} is "
        "usual"
    ),
    "chunk.unknown": "unknown chunking strategy {name}; choose one of: {names}",
    "chunk.no_setting": "strategy {name} has no setting {unknown}; its settings are: {accepted}",
    "chunk.min_max": "{strategy}: min_size ({min}) must not exceed max_size ({max})",
    "chunk.unknown_or_all": "unknown strategy {name}; choose one of: {names}, or {all}",
    # rag/embeddings and the checks of vectors
    "vec.empty": "an empty vector",
    "vec.nan": "NaN or infinite values",
    "vec.zero": "an all-zero vector",
    "vec.float32": "values too large or too small for 32-bit floats (they would be stored as infinite or NaN)",
    "vec.input": "input #{i}",
    "vec.query": "the query",
    "vec.the_collection": "the collection",
    "vec.batch_count": "the embedding model returned {n} vectors for {count} chunks",
    "vec.batch_dimension": "the embedding model returned {n} dimensions for {label}, the collection has {dimension}",
    "vec.batch_problem": "the embedding model returned {problem} for {label}: not stored",
    "vec.unread": "{n} of {expected} sampled points could not be read back",
    "vec.point_dimension": "point {id} ({url}) has {n} dimensions, expected {dimension}",
    "vec.point_problem": "point {id} ({url}) has an unusable vector ({problem}); the next run re-embeds that document",
    "emb.count": (
        "The embedding model {model} returned {n} vectors for {count} texts ({first} .. {last}): the "
        "server is misbehaving; restart it or try another model."
    ),
    "emb.empty": "The embedding model {model} returned an empty vector for {label}.",
    "emb.nan": (
        "The embedding model {model} returned NaN or infinite values for {label}: the model is broken or "
        "misconfigured; reload it or use another embedding model."
    ),
    "emb.zero": (
        "The embedding model {model} returned an all-zero vector for {label}: check that the loaded "
        "model is an embedding model and that the server answers floats; reload the model or use another "
        "one."
    ),
    "emb.problem": (
        "The embedding model {model} returned {problem} for {label}: the model or server is broken or "
        "misconfigured; reload it or use another embedding model."
    ),
    "emb.other_model": (
        "The collection was built with the embedding model {expected} ({expected_dim} dimensions), but "
        "the current embedding model is {model} ({size} dimensions, measured on {label}). Vectors of two "
        "models cannot be compared: use the original model (RAG_EMBED_MODEL), re-index into a new "
        "collection (--collection NAME), or rebuild this one with --full."
    ),
    "emb.dimension": (
        "The embedding model {model} returned {size} dimensions for {label}, but the collection expects "
        "{expected}: it was built with another model or setting; use that model, or re-ingest into a new "
        "collection."
    ),
    "emb.size_changed": (
        "The embedding model {model} changed its vector size from {old} to {size} (at {label}): another "
        "model was probably loaded on the server meanwhile; load the same model again and re-run."
    ),
    "emb.describe_unknown": "the embedding model of the server at {url} (not reachable yet)",
    "emb.dims": ", {n} dims",
    "emb.describe": "{model} on {server} at {url}{dims}",
    "emb.timeout": (
        "The embeddings server at {url} did not answer within {seconds}s for model {model} ({where}): it "
        "may be loading the model or overloaded; try again, or raise RAG_TIMEOUT."
    ),
    "emb.request_failed": "The request to the embeddings server at {url} failed for model {model} ({where}): {error}",
    "emb.too_long": (
        "{where} is too long for the embedding model {model} (the server said: {said}). Use a strategy "
        "with smaller chunks, or load the model with a longer context length."
    ),
    "emb.not_a_list": (
        "The embeddings server at {url} sent an answer that is not an embeddings list for model {model} "
        "({where}): {error}. Is RAG_EMBED_URL an embeddings server?"
    ),
    "emb.indices": (
        "The embedding model {model} answered indices {indices} for {count} texts ({where}): the vectors "
        "cannot be matched to their texts; restart the server."
    ),
    "emb.said": " (the server said: {message})",
    "emb.not_loaded": (
        "The embeddings server at {url} has no model loaded for {model}{said}. Load an embedding model "
        "in LM Studio (e.g. `lms load {id}`), or set RAG_EMBED_MODEL=embedded to use the bundled model."
    ),
    "emb.cannot_embed": (
        "The embeddings server at {url} cannot embed with model {model}{said}. {available} Set "
        "RAG_EMBED_MODEL to one of them, or unset it to pick the server's embedding model automatically."
    ),
    "emb.refused": "The embeddings server at {url} refused the request (HTTP {status}){said}: check the API key.",
    "emb.status": "The embeddings server at {url} answered HTTP {status} for model {model} ({where}){said}.",
    "emb.unlisted": "Its models could not be listed.",
    "emb.none_offered": "It offers no embedding model.",
    "emb.available": "Available embedding models: {names}.",
    "emb.server_down": (
        "No embeddings server answers at {url}: start LM Studio's server (Developer tab, or `lms server "
        "start`) and load an embedding model, or set RAG_EMBED_MODEL=embedded to use the bundled "
        "multilingual-e5-small model."
    ),
    "emb.busy": "It may be busy loading a model; try again.",
    "emb.set_key": "Set the right API key.",
    "emb.no_model": (
        "{server} at {url} offers no embedding model (its models: {others}). Download and load one (e.g. "
        "text-embedding-qwen3-embedding-0.6b or text-embedding-nomic-embed-text-v1.5), name it with "
        "RAG_EMBED_MODEL, or set RAG_EMBED_MODEL=embedded."
    ),
    "emb.using_setting": "RAG_EMBED_MODEL={choice}: using {what}.",
    "emb.setting_failed": "RAG_EMBED_MODEL={choice} needs the embeddings server at {url}, which failed: {error}",
    "emb.no_such_model": (
        "RAG_EMBED_MODEL={choice}: LM Studio at {url} has no such model. Its embedding models: {names}. "
        "Set RAG_EMBED_MODEL to one of them, or unset it."
    ),
    "emb.using_fallback": "No embeddings server at {url}: using {what}.",
    "emb.using_fallback_none": "{server} at {url} answered but offers no embedding model: using {what}.",
    "emb.not_loaded_yet": " (not loaded yet: the server loads it on first use)",
    "emb.using_server": "{server} at {url} answered: using {model}{state}.",
    "emb.built_named": "The collection {name} was built",
    "emb.built": "This collection was built",
    "emb.built_with": "{built} with {model}: using {what}.",
    "emb.threads_one": "{n} thread",
    "emb.threads_other": "{n} threads",
    "emb.default_threads": "default threads",
    "emb.embedded": "the embedded multilingual-e5-small ({n} dims, in this process, {threads})",
    # rag/index: the store, its collections, migration
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
    "store.no_threshold": "The collection {name} does not exist: cannot record a threshold.",
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
    "store.bad_name": (
        "The collection name {name} cannot be used by the embedded store: use 1 to 64 letters, digits, "
        "'-' or '_', starting with a letter or a digit."
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
    # rag/answer: retrieval, reranking, the prompt's budget, the model list
    "ask.unknown_mode": "Unknown retrieval mode {mode}: use one of {modes}.",
    "ask.no_sparse": (
        "The collection {name} has no BM25 sparse vectors: use dense retrieval, or rebuild it with `rag "
        "ingest SOURCE --full`."
    ),
    "ask.empty": "The question is empty: type a question.",
    "ask.too_long": (
        "The question is {n} characters long; the limit is {limit}. Ask a shorter question: keep only "
        "the relevant lines of a pasted log or error message."
    ),
    "ask.top_k": "top_k must be at least 1 (got {value}).",
    "ask.dimension": (
        "The embedding model {model} returned {n} dimensions but the collection {name} holds "
        "{dimension}: re-index into a new collection (--collection NAME)."
    ),
    "ask.no_context_length": (
        "The server does not report the model's context length, so the prompt (about {n} tokens) could "
        "not be checked against it; if the server truncates long prompts, some extracts may be ignored."
    ),
    "ask.best_too_big": (
        "Even the best passage [{n}] does not fit: the prompt with it alone is about {tokens} tokens, "
        "and model {model} is loaded with a context length of {context} tokens, {kept} of which are kept "
        "for the answer. Load the model with a larger context (`lms load {id} --context-length 8192`)."
    ),
    "ask.cut_off": "The answer was cut off, so it is not shown as an answer.",
    "rerank.unreachable": (
        "The reranker at {url} did not answer ({error}). Start it, or unset RAG_RERANK_URL to retrieve "
        "without reranking."
    ),
    "rerank.status": "The reranker at {url} answered {status}: {detail}. Check RAG_RERANK_URL and RAG_RERANK_MODEL.",
    "rerank.unreadable": (
        "The reranker at {url} answered something other than {{\"results\": [{{\"index\": ..., "
        "\"relevance_score\": ...}}]}}: is it a /v1/rerank server?"
    ),
    "models.status": "The server at {url} answered {status} to /models: {detail}.",
    "models.unreadable": "The server at {url} returned a model list this program cannot read.",
    "models.nothing": "Nothing answers at {url} ({error}).",
    "models.timeout": "The server at {url} accepted the connection but did not list its models in time.",
    "models.unreachable": "Could not reach the server at {url} ({error}).",
    "models.refused": "The server at {url} refused the API key (HTTP {status}).",
    "prompt.unreadable": (
        "The prompt file {path} cannot be read ({error}). Fix RAG_PROMPT_FILE or unset it to use the "
        "built-in prompt."
    ),
    # rag/config.py, rag/access.py, rag/enrich
    "config.empty_url": "The server URL is empty: give one like http://localhost:1234/v1",
    "config.scheme": "The server URL {url} must start with http:// or https://",
    "config.not_number": "{name}={value} is not a number (e.g. 0.82)",
    "config.not_whole": "{name}={value} is not a whole number",
    "access.groups_map": (
        "{origin} must map each user to a list of groups, e.g. {{\"alice@example.com\": [\"public\", "
        "\"staff\"]}}"
    ),
    "access.groups_list": "In {origin}, the groups of {user} must be a list of names, e.g. [\"public\", \"staff\"]",
    "access.unreadable": "Cannot read the access file {path} (RAG_ACCESS_FILE): {error}",
    "access.invalid": "The access file {path} is not valid {kind}: {error}",
    "access.the_file": "the access file {path}",
    "access.bad_json": "{name} is not valid JSON ({error}): write it like {example}",
    "access.roles_map": "{origin} must map each user to a role, e.g. {{\"alice@example.com\": \"editor\"}}",
    "access.role": "In {origin}, the role of {user} must be \"reader\" or \"editor\", not {role}",
    "access.roles_table": "the [roles] table of {path}",
    "access.same_passwords": (
        "RAG_EDITOR_PASSWORD and RAG_APP_PASSWORD are the same: readers would be editors. Give the "
        "editors their own password."
    ),
    "enrich.unknown": "unknown enrichment {mode}; choose one of: {modes}",
    "enrich.needs_model": (
        "The enrichment {mode} needs the chat model to write each chunk's context, and it cannot: "
        "{error} Load a chat model in LM Studio, or index with --enrich lead (no model needed) or none."
    ),
    "enrich.the_collection": "the collection",
    "enrich.other": (
        "{name} was built with the enrichment {built}; this run asks for {requested}. Rebuild it with "
        "--full, or index into another collection (--collection NAME)."
    ),
    "enrich.chunk_failed": "the chat model could not write the context of chunk {index}: {error}",
    # rag/evaluate: question sets, runs, calibration
    "qs.line": "line {line}: {message}",
    "qs.problems_one": "{source}: 1 problem in the question set",
    "qs.problems_other": "{source}: {n} problems in the question set",
    "qs.more": "... and {n} more",
    "qs.fix": "Fix these lines and run again.",
    "qs.text_or_null": "'{name}' must be text or null, got {kind} {value}",
    "qs.missing": "missing field '{name}'",
    "qs.text": "'{name}' must be text, got {kind} {value}",
    "qs.default_source": "question set",
    "qs.missing_in_base": "missing field 'in_base' (true or false)",
    "qs.in_base_no_source": "in_base is true but expected_source is missing: give the url of the article that answers",
    "qs.off_topic_with_source": (
        "in_base is false but expected_source is set: an off-topic question has no source (set in_base to "
        "true, or clear expected_source)"
    ),
    "qs.empty_question": "missing field 'question' (it is empty)",
    "qs.too_long": (
        "'question' is {n} characters long, over the {limit} a question may have: shorten it (a pasted "
        "article? a CSV row with an unclosed quote?)"
    ),
    "qs.in_base": "'in_base' must be true or false, got {kind} {value}",
    "qs.also_in": "'also_in' must be a list of urls, got {kind} {value}",
    "qs.duplicate": "duplicate id {id} (already used on line {first})",
    "qs.bad_json": "bad JSON ({error} at column {column})",
    "qs.not_object": "expected a JSON object {{...}}, got {kind}",
    "qs.also_in_json": "'also_in' looks like a JSON list but is not valid JSON ({error})",
    "qs.header_one": "the header row lacks the column {missing}; expected columns: {expected}",
    "qs.header_other": "the header row lacks the columns {missing}; expected columns: {expected}",
    "qs.cells": "{n} cells but the header has {columns} columns (a stray separator?)",
    "qs.in_base_csv": "'in_base' must be true/false (or 1/0, oui/non), got {value}",
    "qs.empty": "{source}: the question set is empty; add one question a line",
    "qs.not_utf8": "{source}: line {line} is not UTF-8 text; save the file as UTF-8 (in a spreadsheet: 'CSV UTF-8')",
    "qs.format": "unknown question set format {fmt}: use jsonl or csv",
    "qs.no_file": "{source}: no such file; give the path of a .jsonl or .csv question set",
    "qs.unreadable": "{source}: cannot be read ({error})",
    "runs.none": "No results at {path}: give a run folder from `rag eval` or its results.json",
    "runs.bad_json": "{path} is not valid JSON ({error}); run `rag eval` again to rewrite it",
    "runs.not_results": "{path} is not a `rag eval` results file (no summary/questions)",
    "run.in_a_row": "{n} questions in a row failed; last error: {error}",
    "run.raised": "question {id} failed: {error}",
    "run.interrupted": "interrupted at question {id}",
    "run.no_collection": (
        "The collection {name} does not exist; ingest a source into it first (rag ingest SOURCE "
        "--collection {id})."
    ),
    "cal.no_overlap": "no overlap to measure: the question set needs both in-base and off-topic questions",
    "cal.separated": (
        "the two groups are fully separated: every in-base question scores above every off-topic one "
        "(lowest in-base {worst_in}, highest off-topic {best_out})"
    ),
    "cal.in_below_one": "{n} in-base question scores below the best off-topic one ({best_out})",
    "cal.in_below_other": "{n} in-base questions score below the best off-topic one ({best_out})",
    "cal.in_tied_one": "{n} in-base question scores at or below the best off-topic one ({best_out})",
    "cal.in_tied_other": "{n} in-base questions score at or below the best off-topic one ({best_out})",
    "cal.out_above_one": (
        "and {n} off-topic question scores at or above the worst in-base one ({worst_in}): no threshold "
        "separates them all; the prompt's refusal rule has to catch the rest"
    ),
    "cal.out_above_other": (
        "and {n} off-topic questions score at or above the worst in-base one ({worst_in}): no threshold "
        "separates them all; the prompt's refusal rule has to catch the rest"
    ),
    "cal.no_scores": "no scores: the question set has no question with a retrieved passage",
    "cal.no_out": (
        "no off-topic questions (in_base false) in the set: add about ten questions the blog does not "
        "answer so a threshold can be placed between the two groups"
    ),
    "cal.no_in": "no in-base questions in the set: add questions the blog answers, with their article",
    "cal.gate_no_out": (
        "no off-topic questions (in_base false) in the set: add about ten questions the blog does not "
        "answer"
    ),
    "cal.gate_no_in": "no in-base question with a retrieved passage",
    "cal.gate_all_refused_one": "at these settings, the gate refuses all {outside} off-topic questions; {n} in-base question refused",
    "cal.gate_all_refused_other": "at these settings, the gate refuses all {outside} off-topic questions; {n} in-base questions refused",
    "cal.gate_through_one": (
        "at these settings, {n} of {outside} off-topic questions gets through the gate (closeness "
        "and words): the prompt's refusal rule must catch it"
    ),
    "cal.gate_through_other": (
        "at these settings, {n} of {outside} off-topic questions get through the gate (closeness "
        "and words): the prompt's refusal rule must catch them"
    ),
    "cal.gate_in_refused_one": "; {n} in-base question refused",
    "cal.gate_in_refused_other": "; {n} in-base questions refused",
    "cal.gate_none": "no setting answers {share} of the in-base questions",
    "cal.criterion": (
        "best balanced accuracy: (share of in-base questions accepted + share of off-topic questions "
        "refused) / 2; among equally good thresholds the lowest, so the workbench answers rather than "
        "refuses"
    ),
    "cal.gate_criterion": (
        "the most off-topic questions refused while at least {share} of in-base questions are answered; "
        "among equally good settings the lowest, so the workbench answers rather than refuses"
    ),
    "access.denied": "This needs the editor role (signed in as {role}): ask an editor.",
    "run.no_terms": (
        "the collection has no term statistics (built before them): the gate uses the cosine alone; `rag "
        "ingest SOURCE --full` rebuilds it"
    ),
    "store.no_collection_at_all": "no collection",
    "store.upgraded": (
        "The embedded store at {path} was in qdrant-client's local mode: moved to Qdrant Edge ({names}; "
        "{points} points, ids and payloads unchanged). The old files are kept in {backup}: delete that "
        "folder once you are satisfied."
    ),
    "store.upgrading": "Moving the embedded store at {path} from qdrant-client's local mode to Qdrant Edge...",
    "src.yaml_unclosed": "front matter opened by --- on line 1 is never closed by a --- line",
    "src.yaml_not_mapping": "front matter is not a list of key: value pairs",
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
    "help.ingest.chunk_size": "recursive, markdown: most characters a chunk holds",
    "help.ingest.overlap": "recursive, sections, markdown: characters repeated between chunks",
    "help.ingest.min_size": "sections_min_max: a shorter section joins the next one",
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
    "help.preview.chunk_size": "recursive, markdown: most characters a chunk holds",
    "help.preview.overlap": "recursive, sections, markdown: characters repeated between chunks",
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
