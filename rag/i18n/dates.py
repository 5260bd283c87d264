"""Dates and times as a reader of the current language writes them (pure: no I/O, no clock).

French: 1 déc. 2026, 20:04 · English: 1 Dec 2026, 20:04. The month names, their abbreviation and
the order are CLDR's, through Babel (`format_skeleton`), so another language writes them its
own way. English is British English's order (day first, 24-hour clock), the one the rest of the
interface uses; CLDR's plain "en" is American ("Dec 1, 2026").

Human text only: exports (CSV, JSON), logs and files keep ISO 8601.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.dates import format_skeleton, get_datetime_format

from rag.i18n import current

_REGION = {"en": "en_GB"}  # see above: day first, as in French


@lru_cache(maxsize=16)
def _locale(lang: str) -> Locale:
    try:
        return Locale.parse(_REGION.get(lang, lang))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en_GB")


def day_text(day: date, *, lang: str | None = None) -> str:
    """A day: 1 déc. 2026 (fr), 1 Dec 2026 (en)."""
    return format_skeleton("yMMMd", day, locale=_locale(lang or current()))


def minute_text(moment: datetime, *, lang: str | None = None) -> str:
    """A day and its time to the minute: 1 déc. 2026, 20:04 (fr), 1 Dec 2026, 20:04 (en). The
    time is the one `moment` holds: the caller puts it on the reader's clock first."""
    locale = _locale(lang or current())
    clock = format_skeleton("Hm", moment, locale=locale)
    return get_datetime_format("medium", locale=locale).replace("{1}", day_text(moment, lang=lang)).replace("{0}", clock)
