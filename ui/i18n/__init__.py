"""The dashboard's words, in French and English (pure: no streamlit here).

One catalogue a language (`ui/i18n/fr.py`, `ui/i18n/en.py`), same keys, same `{placeholders}`
(a test checks it). The language of the current script run is a context variable: the frame
sets it at the start of every run, so the page and the pure helpers in `ui/present` read it
with `t()` without threading a parameter through every call. Tests set it with `language()`.

Refusals and prompts are not here: `rag.answer.prompts` holds them in both languages, for the
chat model and the command line as well.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterable, Iterator

from ui.i18n import en, fr

LANGUAGES = {"fr": "Français", "en": "English"}
DEFAULT = "fr"
CATALOGUES: dict[str, dict[str, str]] = {"fr": fr.TEXT, "en": en.TEXT}

_current: ContextVar[str] = ContextVar("ui_language", default=DEFAULT)
_TAG = re.compile(r"^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)*\s*$")


def normalize(value: str | None) -> str | None:
    """`fr`, `en` from a tag such as `fr-FR`, `en_GB`, `EN`; None for anything else."""
    match = _TAG.match(value or "")
    lang = match.group(1).lower() if match else None
    return lang if lang in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The first supported language of an Accept-Language header, by quality then order."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        q = re.search(r"q=([0-9.]+)", params)
        if q:
            try:
                quality = float(q.group(1))
            except ValueError:
                quality = 0.0
        lang = normalize(tag)
        if lang and quality > 0:
            ranked.append((-quality, i, lang))
    return min(ranked)[2] if ranked else None


def pick_language(setting: str | None, browser_locale: str | None = None,
                  accept_language: str | None = None) -> str:
    """RAG_UI_LANG when it names a supported language, else the browser's, else French."""
    return (normalize(setting) or normalize(browser_locale) or from_accept_language(accept_language)
            or DEFAULT)


def set_language(lang: str) -> None:
    _current.set(lang if lang in LANGUAGES else DEFAULT)


def current() -> str:
    return _current.get()


@contextmanager
def language(lang: str) -> Iterator[None]:
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


def t(key: str, **values: Any) -> str:
    """The text of `key` in the current language, with its placeholders filled."""
    text = CATALOGUES[_current.get()].get(key)
    if text is None:  # a missing translation shows the other language rather than a key
        text = CATALOGUES[DEFAULT if _current.get() != DEFAULT else "en"][key]
    return text.format(**values) if values else text


def tn(key: str, n: int, **values: Any) -> str:
    """`key_one` or `key_other` by `n` (French counts 0 and 1 as singular, English only 1)."""
    one = n in (0, 1) if _current.get() == "fr" else n == 1
    return t(f"{key}_{'one' if one else 'other'}", n=n, **values)


def formatter(options: Iterable[Any], key: Callable[[Any], str]) -> Callable[[Any], str]:
    """A widget's format_func with the words fixed now, in this run's language.

    Streamlit may call format_func outside the script run (AppTest reads options from the test's
    thread), where the context variable is back at its default.
    """
    words = {option: t(key(option)) for option in options}
    return lambda option: words.get(option, str(option))
