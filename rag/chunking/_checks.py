"""Validation of strategy settings: a bad value is a ConfigError that says what to change."""

from __future__ import annotations

from rag.i18n import t
from rag.errors import ConfigError
from rag.chunking._measure import UNITS


def positive(strategy: str, name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(t("chunk.positive", strategy=strategy, name=name, value=repr(value)))
    return value


def overlap_below(strategy: str, overlap: int, size_name: str, size: int) -> int:
    if isinstance(overlap, bool) or not isinstance(overlap, int) or overlap < 0:
        raise ConfigError(t("chunk.overlap_number", strategy=strategy, value=repr(overlap)))
    if overlap >= size:
        raise ConfigError(t("chunk.overlap_size", strategy=strategy, overlap=overlap, name=size_name, size=size))
    return overlap


def unit_name(strategy: str, unit: str) -> str:
    if unit not in UNITS:
        raise ConfigError(t("chunk.unit", strategy=strategy, value=repr(unit), units=", ".join(UNITS)))
    return unit
