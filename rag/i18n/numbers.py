"""Numbers as a reader of the current language writes them (pure: no I/O, no locale module).

French: 0,833 · 12 345 (a narrow no-break space between thousands) · 94 % (a no-break space
before %) · 5 s, 2 min 30 s, 1 h 05 min. English: 0.833 · 12,345 · 94% · the same durations.
The language is `rag.i18n`'s current one, as for `t`; `lang` overrides it (a refusal is written
in the question's language, not the reader's).

Human text only: results.json, results.csv, `--json` output, logs and anything read back by a
program keep Python's own `0.833`. Python's `locale` is not used: it is process-wide, depends on
which locales the machine has, and would change how other code parses numbers.
"""

from __future__ import annotations

from rag.i18n import current

THOUSANDS_FR = "\u202f"  # narrow no-break space: 12 345 stays on one line
BEFORE_PERCENT_FR = "\u00a0"  # no-break space: 94 % never wraps before its sign
# Plotly's `separators` layout setting: the decimal mark, then the thousands separator.
PLOTLY_SEPARATORS = {"fr": "," + THOUSANDS_FR, "en": ".,"}


def _lang(lang: str | None) -> str:
    return lang or current()


def _localize(text: str, lang: str) -> str:
    """Python's `12,345.6` written the way `lang` writes it."""
    if lang != "fr":
        return text
    return text.replace(",", THOUSANDS_FR).replace(".", ",")


def _fixed(value: float, places: int, signed: bool) -> str:
    text = f"{value:,.{places}f}"
    if float(text.replace(",", "")) == 0:  # -0.0004 at 3 places is 0.000: no sign on nothing
        return f"{0.0:,.{places}f}"
    return "+" + text if signed and value > 0 else text


def decimal(value: float, places: int = 2, *, signed: bool = False, trim: bool = False,
            lang: str | None = None) -> str:
    """`value` rounded to `places` decimals: 0,83 (fr), 0.83 (en); 12 345,68 / 12,345.68 for large
    ones; `signed` adds + before a positive change; `trim` drops trailing zeros (a setting saved as
    0.4 reads 0,4, not 0,400)."""
    text = _fixed(float(value), places, signed)
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    return _localize(text, _lang(lang))



def threshold_text(value: float, *, signed: bool = False, lang: str | None = None) -> str:
    """A score threshold as it is saved, to the third decimal: 0,833 (a saved 0.833 must not read as
    the default 0,83), and 0,85 without a trailing zero."""
    return decimal(value, 3, signed=signed, trim=True, lang=lang)


def integer(value: float, *, signed: bool = False, lang: str | None = None) -> str:
    """A whole number with its thousands grouped: 12 345 (fr), 12,345 (en)."""
    return _localize(_fixed(float(round(value)), 0, signed), _lang(lang))


def percent_sign(lang: str | None = None) -> str:
    """What follows a percentage's number: " %" (a no-break space) in French, "%" in English."""
    return f"{BEFORE_PERCENT_FR}%" if _lang(lang) == "fr" else "%"


def percent(share: float, places: int = 0, *, signed: bool = False, lang: str | None = None) -> str:
    """A share of 1 as a percentage: 0.94 -> 94 % (fr), 94% (en)."""
    return decimal(share * 100, places, signed=signed, lang=lang) + percent_sign(lang)


def duration(seconds: float, places: int = 0, *, trim: bool = False, lang: str | None = None) -> str:
    """A length of time: 5 s (or 3,2 s with `places`; `trim`: 0,5 s and 30 s), 2 min 30 s,
    1 h 05 min (seconds dropped past an hour); a negative length reads as 0 s."""
    lang = _lang(lang)
    seconds = max(0.0, float(seconds))
    if round(seconds, places) < 60:
        return f"{decimal(seconds, places, trim=trim, lang=lang)} s"
    whole = int(round(seconds))
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s" if secs else f"{minutes} min"
    hours, minutes = divmod(int(round(whole / 60)), 60)
    return f"{integer(hours, lang=lang)} h {minutes:02d} min" if minutes else f"{integer(hours, lang=lang)} h"
