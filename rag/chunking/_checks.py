"""Validation of strategy settings: a bad value is a ConfigError that says what to change."""

from __future__ import annotations

from rag.errors import ConfigError


def positive(strategy: str, name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{strategy}: {name} must be a whole number of characters above 0, got {value!r}")
    return value


def overlap_below(strategy: str, overlap: int, size_name: str, size: int) -> int:
    if isinstance(overlap, bool) or not isinstance(overlap, int) or overlap < 0:
        raise ConfigError(f"{strategy}: overlap must be a whole number of characters, 0 or more, got {overlap!r}")
    if overlap >= size:
        raise ConfigError(
            f"{strategy}: overlap ({overlap}) must be smaller than {size_name} ({size}); "
            f"10 to 20% of {size_name} is usual"
        )
    return overlap
