"""Times as the reader's clock shows them. The journal keeps UTC (ISO 8601); the browser says its
time zone (`st.context.timezone`): an editor in Paris read "17:46" for a question asked at 18:46."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def local_minute(iso: str, zone: str | None) -> str:
    """"2026-12-01 18:46" in `zone` (an IANA name such as Europe/Paris); without a zone known
    here, the UTC time marked "UTC"."""
    try:
        moment = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return (iso or "")[:16].replace("T", " ")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        where = ZoneInfo(zone) if zone else None
    except (ZoneInfoNotFoundError, ValueError):
        where = None
    if where is None:
        return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M") + " UTC"
    return moment.astimezone(where).strftime("%Y-%m-%d %H:%M")


def browser_zone() -> str | None:
    """The browser's time zone, None when the session has none (a script run without a browser)."""
    import streamlit as st

    try:
        return st.context.timezone
    except Exception:  # noqa: BLE001 - no browser context: UTC, said as such
        return None
