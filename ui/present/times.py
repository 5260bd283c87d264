"""Times as the reader's clock shows them, written as the reader's language writes them. The
journal keeps UTC (ISO 8601); the browser says its time zone (`st.context.timezone`): an editor in
Paris read "17:46" for a question asked at 18:46, and "2026-12-01 18:46" where a French reader
writes "1 déc. 2026, 18:46" (rag.i18n.dates)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from rag.i18n.dates import day_text, minute_text


def _on_clock(iso: str, zone: str | None) -> tuple[datetime, bool] | None:
    """The moment on `zone`'s clock, and whether it is (else UTC's); None when `iso` is no time."""
    try:
        moment = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        where = ZoneInfo(zone) if zone else None
    except (ZoneInfoNotFoundError, ValueError):
        where = None
    return (moment.astimezone(where), True) if where is not None else (moment.astimezone(UTC), False)


def local_minute(iso: str, zone: str | None) -> str:
    """"1 déc. 2026, 18:46" (fr), "1 Dec 2026, 18:46" (en) in `zone` (an IANA name such as
    Europe/Paris); without a zone known here, the UTC time marked "UTC"."""
    seen = _on_clock(iso, zone)
    if seen is None:
        return (iso or "")[:16].replace("T", " ")
    moment, local = seen
    return minute_text(moment) if local else minute_text(moment) + " UTC"


def local_day(iso: str, zone: str | None) -> str:
    """The day alone, on the same clock: "1 déc. 2026" (fr), "1 Dec 2026" (en)."""
    seen = _on_clock(iso, zone)
    return (iso or "")[:10] if seen is None else day_text(seen[0])


def browser_zone() -> str | None:
    """The browser's time zone, None when the session has none (a script run without a browser)."""
    import streamlit as st

    try:
        return st.context.timezone
    except Exception:  # noqa: BLE001 - no browser context: UTC, said as such
        return None
