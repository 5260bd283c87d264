"""Errors a user sees. Each message says what went wrong and what to do about it, in the reader's
language: the texts live in rag/i18n (fr.py, en.py) and are written with `rag.i18n.t` when raised."""


class RagError(Exception):
    """Base class for every error the product reports to a user."""


class ConfigError(RagError):
    """A setting is missing or malformed."""


class SourceError(RagError):
    """A source (WordPress site, folder, file) could not be read."""


class EmbeddingError(RagError):
    """The embedding model or server failed or returned unusable vectors."""


class StoreError(RagError):
    """Qdrant could not be reached, is locked, or holds an incompatible collection."""


class LLMError(RagError):
    """The chat model could not write an answer."""


class QuestionSetError(RagError):
    """A question set file is malformed."""
