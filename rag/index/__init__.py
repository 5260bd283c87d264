"""Stage 4, index: the Qdrant store, sparse vectors, ingestion with resumable progress, migration."""
