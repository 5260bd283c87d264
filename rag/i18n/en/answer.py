"""Answering: the chat server, retrieval, reranking, the prompt's budget; settings, access, enrichment."""

TEXT: dict[str, str] = {
    # rag/servers/chat.py: the chat server
    "llm.unreachable": (
        "The chat server at {url} is not reachable ({error}). Start LM Studio's local server (Developer "
        "tab, or `lms server start`) or set RAG_LLM_URL to the right address."
    ),
    "llm.in_container": (
        "This program runs in a container, where localhost is the container itself: use "
        "http://host.docker.internal:1234/v1 to reach LM Studio on the host."
    ),
    "llm.timeout": (
        "The chat server at {url} took longer than {time} to {what}. The model may still be loading "
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
    "llm.runaway_size": (
        "The chat server at {url} ({model}) streamed more than {limit} characters for an answer asked to stop at "
        "{max_tokens} tokens: it ignores max_tokens, so the answer was stopped. Check the server's settings."
    ),
    "llm.runaway_time": (
        "The chat server at {url} ({model}) was still streaming its answer after {limit}: the answer was "
        "stopped. Check that the server honours max_tokens, or raise RAG_TIMEOUT for a slow machine."
    ),
    "llm.runaway_line": (
        "The chat server at {url} ({model}) sent a line of more than {limit} characters in its answer stream, "
        "which no answer holds: the answer was stopped."
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
    "ask.rerank_failed": "The passages are in the search's own order: the reranker failed. {error}",
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
    "config.bad_network": "{name}: {value} is neither an IP address nor a network (e.g. 127.0.0.1, 10.0.0.0/8, ::1)",
    "access.bad_key": (
        "In {origin}, {user} is neither an e-mail address nor a prefixed id: write \"{sub}\" for an "
        "identity provider's `sub`, or \"password:reader\" / \"password:editor\" for a password"
    ),
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
    "ask.unsure_note": (
        "These passages do not seem to answer \u201c{question}\u201d ({why}): they are shown as they are, "
        "with no written answer. Read them, or rephrase the question."
    ),
}
