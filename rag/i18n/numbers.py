"""Numbers as a reader of the current language writes them (pure: no I/O, no locale module).

French: 0,833 · 12 345 (a narrow no-break space between thousands) · 94 % (a no-break space
before %) · 5 s, 2 min 30 s, 1 h 05 min. English: 0.833 · 12,345 · 94% · the same durations.
The language is `rag.i18n`'s current one, as for `t`; `lang` overrides it (a refusal is written
in the question's language, not the reader's).

The marks, the grouping and where the % goes are CLDR's, through Babel (`format_decimal`,
`format_percent`), so a new language writes its numbers its own way with no code here; a
language Babel does not know writes them as English does.

Human text only: results.json, results.csv, `--json` output, logs and anything read back by a
program keep Python's own `0.833`. Python's `locale` is not used: it is process-wide, depends on
which locales the machine has, and would change how other code parses numbers.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, localcontext
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import (NumberPattern, format_decimal, format_percent, get_decimal_symbol, get_group_symbol,
                           get_plus_sign_symbol, parse_pattern)

from rag.i18n import LANGUAGES, current

# A pattern's last integer digit and its fraction ("#,##0.###", "#,##0 %"), replaced by the places asked for.
_DIGITS = re.compile(r"0(?:\.[0#]*)?(?=[^0#.]*$)")


@lru_cache(maxsize=64)
def _locale(lang: str) -> Locale:
    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


@lru_cache(maxsize=256)
def _pattern(pattern: str, places: int, trim: bool) -> NumberPattern:
    """A CLDR pattern with exactly `places` decimals, or up to `places` when `trim` (parsed once)."""
    fraction = "." + ("#" if trim else "0") * places if places else ""
    return parse_pattern(_DIGITS.sub("0" + fraction, pattern, count=1))


def _number(value: float, places: int, signed: bool, trim: bool, lang: str | None, percent: bool = False) -> str:
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    locale = _locale(lang or current())
    with localcontext() as context:
        context.prec = 400  # room for any float's digits: rounding is then only the pattern's
        return _rounded(value, places, signed, trim, locale, percent)


def _rounded(value: float, places: int, signed: bool, trim: bool, locale: Locale, percent: bool) -> str:
    # The float's exact value, which Babel rounds half to even as Python's own format does:
    # 2.675 (stored as 2.67499…) reads 2.67, 2.5 reads 2.
    exact = Decimal(value)
    if exact.quantize(Decimal(1).scaleb(-places)) == 0:
        exact = Decimal(0)  # -0.0004 at 3 places is 0.000: no sign on nothing
    if percent:
        pattern = _pattern(locale.percent_formats[None].pattern, places, trim)
        text = format_percent(exact.scaleb(-2), pattern, locale=locale)  # Babel scales back exactly
    else:
        pattern = _pattern(locale.decimal_formats[None].pattern, places, trim)
        text = format_decimal(exact, pattern, locale=locale)
    return get_plus_sign_symbol(locale) + text if signed and exact > 0 else text


def decimal(value: float, places: int = 2, *, signed: bool = False, trim: bool = False,
            lang: str | None = None) -> str:
    """`value` rounded to `places` decimals: 0,83 (fr), 0.83 (en); 12 345,68 / 12,345.68 for large
    ones; `signed` adds + before a positive change; `trim` drops trailing zeros (a setting saved as
    0.4 reads 0,4, not 0,400)."""
    return _number(value, places, signed, trim, lang)


def threshold_text(value: float, *, signed: bool = False, lang: str | None = None) -> str:
    """A score threshold to the third decimal, always three: 0,833 (a saved 0.833 must not read as
    the default 0,83), and 0,850, so that thresholds side by side (the sidebar's, the Ask page's,
    a run's and its suggestion) are written alike and compare at a glance."""
    return decimal(value, 3, signed=signed, lang=lang)


def score_text(value: float, *, lang: str | None = None) -> str:
    """A passage's score beside a threshold: three decimals like threshold_text, rounded down, so
    that a score under the threshold never reads as reaching it (0.8296 reads 0,829 under 0,830;
    rounded, 0,830; and 0.8165 read "0,82" beside "too far" under 0,817 to two places)."""
    return decimal(math.floor(value * 1000 + 1e-6) / 1000, 3, lang=lang)


def read_decimal(text: str) -> float | None:
    """A decimal as a person types it, in either language: "0,85", "0.85", " 0,85 " -> 0.85; an
    empty text is None (no value). ValueError for anything else ("085" is read as 85: the caller
    checks the range). Both marks are accepted whatever the language: a French reader copying an
    English figure, or the reverse, is not refused for it."""
    cleaned = "".join(text.split())  # spaces, including the no-break ones a copied figure carries
    if not cleaned:
        return None
    if cleaned.count(",") + cleaned.count(".") > 1 or not re.fullmatch(r"[+-]?(?:\d+[.,]?\d*|[.,]\d+)", cleaned):
        raise ValueError(text)
    return float(cleaned.replace(",", "."))


def integer(value: float, *, signed: bool = False, lang: str | None = None) -> str:
    """A whole number with its thousands grouped: 12 345 (fr), 12,345 (en)."""
    return _number(round(value), 0, signed, False, lang)


def percent_sign(lang: str | None = None) -> str:
    """What follows a percentage's number: " %" (a no-break space) in French, "%" in English."""
    return format_percent(0, locale=_locale(lang or current())).replace("0", "", 1)


def percent(share: float, places: int = 0, *, signed: bool = False, lang: str | None = None) -> str:
    """A share of 1 as a percentage: 0.94 -> 94 % (fr), 94% (en)."""
    # share * 100 first, as a float, then rounded: 0.005 reads 0 %, as it always has.
    return _number(share * 100, places, signed, False, lang, percent=True)


# Plotly's `separators` layout setting: the decimal mark, then the thousands separator.
PLOTLY_SEPARATORS = {lang: get_decimal_symbol(_locale(lang)) + get_group_symbol(_locale(lang)) for lang in LANGUAGES}


def duration(seconds: float, places: int = 0, *, trim: bool = False, lang: str | None = None) -> str:
    """A length of time: 5 s (or 3,2 s with `places`; `trim`: 0,5 s and 30 s), 2 min 30 s,
    1 h 05 min (seconds dropped past an hour); a negative length reads as 0 s."""
    # Written here, not with Babel's format_timedelta: that one gives a single rounded unit
    # ("3 minutes", "3min"), never the two units with zero-padded minutes or seconds a reader of a
    # progress line or a report gets here; the unit symbols s, min, h are the same in both languages.
    lang = lang or current()
    seconds = max(0.0, float(seconds))
    if round(seconds, places) < 60:
        return f"{decimal(seconds, places, trim=trim, lang=lang)} s"
    whole = int(round(seconds))
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s" if secs else f"{minutes} min"
    hours, minutes = divmod(int(round(whole / 60)), 60)
    return f"{integer(hours, lang=lang)} h {minutes:02d} min" if minutes else f"{integer(hours, lang=lang)} h"
