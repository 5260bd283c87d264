"""Chunking and embeddings: strategies, servers, models and the checks of vectors."""

TEXT: dict[str, str] = {
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
    "chunk.unit": "{strategy}: the unit of sizes is one of {units}, got {value}",
    "chunk.window_cut": (
        "{url}: {chunks} chunk(s) over the embedding model's {n}-token window (estimated) cut into {pieces} "
        "pieces before indexing"
    ),
    "chunk.window_over": (
        "{url}: {chunks} chunk(s) still over the embedding model's {n}-token window (estimated), their context "
        "header alone taking most of it: the server may cut their end"
    ),
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
}
