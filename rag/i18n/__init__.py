"""The product's language, French or English: one mechanism for the package, the CLI and the dashboard.

`rag` has its own catalogues (`rag/i18n/fr/`, `rag/i18n/en/`, one module a stage: the command line's
lines and the errors the library raises); the dashboard keeps its words in `ui/i18n` and reads them through a
`Catalogue` of this module. Both read one context variable, the current language: the command line
sets it from RAG_UI_LANG or the shell's locale, the dashboard from its sidebar switch, the setting
or the browser, at the start of every script run, so an error raised during a French page run is
French. Tests set it with `language()`.

Refusals and prompts for the chat model are not here: `rag.answer.prompts` holds them, in the
question's language rather than the reader's.
"""

from __future__ import annotations

import os
import re
import string
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Mapping

LANGUAGES = {"fr": "Français", "en": "English"}
DEFAULT = "fr"
# The shell's locale, in POSIX order of precedence for messages.
LOCALE_ENV = ("LC_ALL", "LC_MESSAGES", "LANG")

_current: ContextVar[str] = ContextVar("rag_language", default=DEFAULT)
_TAG = re.compile(r"^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)*\s*$")


def normalize(value: str | None) -> str | None:
    """`fr`, `en` from a tag such as `fr-FR`, `en_GB`, `EN`; None for anything else."""
    match = _TAG.match(value or "")
    lang = match.group(1).lower() if match else None
    return lang if lang in LANGUAGES else None


def from_locale(value: str | None) -> str | None:
    """`fr` from a POSIX locale such as `fr_FR.UTF-8` or `fr_BE@euro`; None for C, POSIX or others."""
    return normalize(re.split(r"[.@]", value or "", maxsplit=1)[0])


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
    """The dashboard's: RAG_UI_LANG when it names a supported language, else the browser's, else French."""
    return (normalize(setting) or normalize(browser_locale) or from_accept_language(accept_language)
            or DEFAULT)


def cli_language(setting: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The command line's: the RAG_UI_LANG `setting` (rag.config reads it), else the first of
    LC_ALL, LC_MESSAGES, LANG that names a supported language (C and POSIX name none), else French."""
    env = os.environ if environ is None else environ
    for lang in (normalize(setting), *(from_locale(env.get(name)) for name in LOCALE_ENV)):
        if lang:
            return lang
    return DEFAULT


def set_language(lang: str) -> None:
    _current.set(lang if lang in LANGUAGES else DEFAULT)


def current() -> str:
    return _current.get()


@contextmanager
def language(lang: str) -> Iterator[None]:
    """`lang` for the messages written inside the block."""
    token = _current.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class Catalogue:
    """One text a key in each language, read in the current language."""

    def __init__(self, texts: dict[str, dict[str, str]]) -> None:
        self.texts = texts

    def t(self, key: str, **values: Any) -> str:
        """The text of `key` in the current language, with its placeholders filled."""
        lang = _current.get()
        text = self.texts[lang].get(key)
        if text is None:  # a missing translation shows the other language rather than a key
            text = self.texts[DEFAULT if lang != DEFAULT else "en"][key]
        return text.format(**values) if values else text

    def tn(self, key: str, n: int, **values: Any) -> str:
        """`key_one` or `key_other` by `n` (French counts 0 and 1 as singular, English only 1), with
        `n` written as the reader groups thousands (12 345 documents, 12,345 documents)."""
        from rag.i18n.numbers import integer  # numbers reads this module's language

        one = n in (0, 1) if _current.get() == "fr" else n == 1
        return self.t(f"{key}_{'one' if one else 'other'}", n=integer(n), **values)

    def problems(self) -> list[str]:
        """Keys missing from a language, or whose placeholders differ between languages."""
        fr, en = self.texts["fr"], self.texts["en"]
        found = [f"{key}: only in {'fr' if key in fr else 'en'}" for key in sorted(set(fr) ^ set(en))]
        found += [f"{key}: placeholders {sorted(placeholders(fr[key]))} != {sorted(placeholders(en[key]))}"
                  for key in sorted(set(fr) & set(en)) if placeholders(fr[key]) != placeholders(en[key])]
        return found


def merge(*parts: Mapping[str, str]) -> dict[str, str]:
    """One catalogue from its modules; a key defined in two of them is an error, not a silent override."""
    merged: dict[str, str] = {}
    for part in parts:
        twice = sorted(set(merged) & set(part))
        if twice:
            raise ValueError(f"catalogue keys defined twice: {', '.join(twice)}")
        merged.update(part)
    return merged


def _rag_catalogue() -> Catalogue:
    from rag.i18n import en, fr

    return Catalogue({"fr": fr.TEXT, "en": en.TEXT})


RAG = _rag_catalogue()
t = RAG.t
tn = RAG.tn
