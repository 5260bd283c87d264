"""Chunking strategies. Their names are part of the contract (CLI, collection metadata, dashboard)."""

from __future__ import annotations

import inspect
from typing import Any

from rag.i18n import t
from rag.chunking.base import Chunker
from rag.chunking.markdown import MarkdownChunker
from rag.chunking.recursive import RecursiveChunker
from rag.chunking.sections import SectionsChunker
from rag.chunking.sections_min_max import SectionsMinMaxChunker
from rag.errors import ConfigError

STRATEGIES: dict[str, type[Chunker]] = {
    "recursive": RecursiveChunker,
    "sections": SectionsChunker,
    "sections_min_max": SectionsMinMaxChunker,
    "markdown": MarkdownChunker,
}
# Chosen by measurement (benchmarks/README.md): on the public CNIL set it retrieves best of the
# four, and on the demo set it ties with `sections`; its 1000-character chunks also fit the
# bundled model's 512-token window, where whole 2000-character sections get diluted.
DEFAULT_STRATEGY = "markdown"


def _strategy(name: str) -> type[Chunker]:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ConfigError(t("chunk.unknown", name=repr(name), names=", ".join(STRATEGIES))) from None


def setting_names(name: str) -> list[str]:
    """The settings a strategy accepts, e.g. ["chunk_size", "overlap"]."""
    return [p for p in inspect.signature(_strategy(name).__init__).parameters if p != "self"]


def default_settings(name: str) -> dict[str, Any]:
    return _strategy(name)().settings()


def relevant_settings(name: str, settings: dict[str, Any]) -> dict[str, Any]:
    """Keep the given settings this strategy uses (None means "not given")."""
    accepted = setting_names(name)
    return {k: v for k, v in settings.items() if k in accepted and v is not None}


def make_chunker(name: str, **settings: Any) -> Chunker:
    """A chunker for `name` with `settings` over its defaults; ConfigError for unknown names or settings."""
    accepted = setting_names(name)
    unknown = sorted(set(settings) - set(accepted))
    if unknown:
        raise ConfigError(t("chunk.no_setting", name=repr(name), unknown=", ".join(unknown), accepted=", ".join(accepted)))
    return _strategy(name)(**settings)


__all__ = [
    "STRATEGIES",
    "DEFAULT_STRATEGY",
    "make_chunker",
    "setting_names",
    "default_settings",
    "relevant_settings",
]
