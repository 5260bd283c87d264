"""Payload filters that mean the same on both backends (Qdrant Edge and a Qdrant server).

Callers build a `Where` from `Match` and `HasId` conditions; each backend translates it to its
own filter type. A `Match` on a list field (such as `access`) matches when any element does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

Value = str | int | bool


@dataclass(frozen=True)
class Match:
    """The payload field `key` holds one of `values`."""

    key: str
    values: tuple[Value, ...]


@dataclass(frozen=True)
class HasId:
    """The point's id is one of `ids`."""

    ids: tuple[str, ...]


@dataclass(frozen=True)
class Where:
    """All of `must`, none of `must_not`, and at least one of `should` when it is not empty."""

    must: tuple[Condition, ...] = ()
    must_not: tuple[Condition, ...] = ()
    should: tuple[Condition, ...] = ()

    def __post_init__(self) -> None:
        for condition in (*self.must, *self.must_not, *self.should):
            if not isinstance(condition, (Match, HasId, Where)):
                raise TypeError(f"a Where holds Match, HasId or Where conditions, not {type(condition).__name__}")


Condition = Match | HasId | Where


def match(key: str, *values: Value) -> Match:
    """`key` equals one of `values` (for a list field, one of its elements does)."""
    if not values:
        raise ValueError(f"match({key!r}) needs at least one value")
    return Match(key, tuple(values))


def has_id(ids: Sequence[str]) -> HasId:
    return HasId(tuple(str(i) for i in ids))


def readable_by(groups: Sequence[str] | None) -> Where | None:
    """Points a reader of `groups` may see; None = no restriction (admin tools, the CLI).

    An empty list of groups sees nothing: the filter is kept, so no point can match it."""
    if groups is None:
        return None
    return Where(must=(Match("access", tuple(groups)),))


def both(*filters: Where | None) -> Where | None:
    """The conjunction of the given filters (None ones ignored); None when there are none."""
    present = [f for f in filters if f is not None]
    if not present:
        return None
    if len(present) == 1:
        return present[0]
    return Where(must=tuple(present))


def translate(
    where: Where | None,
    value: Callable[[str, Value], Any],
    any_of: Callable[[str, list[Value]], Any],
    ids: Callable[[list[str]], Any],
    make: Callable[[list[Any] | None, list[Any] | None, list[Any] | None], Any],
) -> Any:
    """`where` built with a backend's own filter types: `value(key, v)` and `any_of(key, values)`
    for a Match of one or several values, `ids(list)` for HasId, `make(must, must_not, should)`
    for a Where (empty lists given as None). None stays None."""
    if where is None:
        return None

    def condition(c: Condition) -> Any:
        if isinstance(c, Match):
            return value(c.key, c.values[0]) if len(c.values) == 1 else any_of(c.key, list(c.values))
        if isinstance(c, HasId):
            return ids(list(c.ids))
        return translate(c, value, any_of, ids, make)

    def group(conditions: tuple[Condition, ...]) -> list[Any] | None:
        return [condition(c) for c in conditions] or None

    return make(group(where.must), group(where.must_not), group(where.should))
