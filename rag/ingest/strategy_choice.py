"""Which chunking strategy and settings a run uses, and whether a collection was cut another way.

One collection holds chunks of one strategy and one set of settings, as its metadata says:
mixing them would make that record, and evaluations, lie.
"""

from __future__ import annotations

from typing import Any

from rag.i18n import t
from rag.chunking import DEFAULT_STRATEGY, make_chunker
from rag.errors import ConfigError


def settings_text(settings: dict[str, Any] | None) -> str:
    """`--chunk-size 300 --overlap 60`: chunk settings as the command line takes them (not Python's
    `chunk_size=300`), so a message says what to type."""
    flags = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in (settings or {}).items())
    return flags or t("store.default_settings")


def settings_mismatch(info: dict[str, Any] | None, strategy: str, chunk_settings: dict[str, Any] | None) -> bool:
    """True when a collection holds chunks cut another way than `strategy` with these settings."""
    built = (info or {}).get("strategy") if (info or {}).get("points") else None
    if not built:
        return False
    recorded = (info or {}).get("chunk_settings") or {}
    wanted = make_chunker(strategy, **(chunk_settings or {})).settings()
    return built != strategy or bool(recorded and dict(recorded) != wanted)


def resolve_strategy(
    info: dict[str, Any] | None,
    strategy: str | None,
    chunk_settings: dict[str, Any] | None,
    full: bool,
) -> tuple[str, dict[str, Any] | None]:
    """The strategy a run uses: `strategy` None means the collection's own, else the default.
    Another strategy or other settings than the collection's need `full` (else ConfigError)."""
    built = (info or {}).get("strategy") if (info or {}).get("points") else None
    if strategy is None:
        if built and not full:
            recorded = (info or {}).get("chunk_settings")
            return built, (dict(recorded) if isinstance(recorded, dict) and chunk_settings is None else chunk_settings)
        return DEFAULT_STRATEGY, chunk_settings
    if not full and settings_mismatch(info, strategy, chunk_settings):
        wanted = make_chunker(strategy, **(chunk_settings or {})).settings()
        recorded = (info or {}).get("chunk_settings") or {}
        name = (info or {}).get("name") or t("vec.the_collection")
        raise ConfigError(t("store.other_strategy", name=repr(name), built=built, recorded=settings_text(recorded),
                              strategy=strategy, wanted=settings_text(wanted)))
    return strategy, chunk_settings
