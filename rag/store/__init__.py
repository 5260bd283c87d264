"""The store: one Store over Qdrant Edge (embedded) and a Qdrant server, the BM25 sparse vectors and
the terms each point holds, migration between stores. Below ingestion and answering, which both use it."""
