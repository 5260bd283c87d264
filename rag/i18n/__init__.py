"""The product's language, French or English: one mechanism for the package, the CLI and the dashboard.

Every sentence for people is in a gettext catalogue, `rag/locale/<lang>/LC_MESSAGES/<domain>.po`
(compiled to the `.mo` beside it): the domain `rag` for the command line's lines and the errors the
library raises, `ui` for the dashboard (`ui.i18n` reads it through a `Catalogue` of this module).
Message ids are stable keys (`cli.error`); the French catalogue shows each key's English text to
translators. Both domains read one context variable, the current language: the command line sets
it from RAG_UI_LANG or the shell's locale, the dashboard from its sidebar switch, the setting or
the browser, at the start of every script run, so an error raised during a French page run is
French. Tests set it with `language()`. Nothing is installed process-wide (`gettext.install`):
Streamlit's sessions share one process.

A language is one entry of LANGUAGES and one catalogue a domain. Prompts and refusals for the chat
model are read in the question's language (`language(lang)` around the call), not the reader's.
"""

from __future__ import annotations

import gettext
import os
import re
import string
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
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


# The compiled catalogues: <LOCALE_DIR>/<lang>/LC_MESSAGES/<domain>.mo, their .po beside them.
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


@cache
def _load(directory: str, domain: str, lang: str) -> gettext.NullTranslations:
    try:
        with open(Path(directory, lang, "LC_MESSAGES", f"{domain}.mo"), "rb") as mo:
            return gettext.GNUTranslations(mo)
    except FileNotFoundError:
        return gettext.NullTranslations()


def translations(domain: str, lang: str | None = None) -> gettext.NullTranslations:
    """The catalogue of `domain` in `lang` (the current language when None), as gettext reads it;
    one that translates nothing when that language has no such catalogue. Read per call, never
    installed: Streamlit's sessions share one process, each run in its own language."""
    return _load(str(LOCALE_DIR), domain, lang or current())


def _plural_count(n: float, lang: str) -> int:
    """gettext chooses a plural form from a whole number: for a decimal (2,5 morceaux/s, 1.5 chunks/s)
    a whole number of the same CLDR category, so `n` agrees with the number as written."""
    if float(n).is_integer():
        return int(n)
    from babel import Locale, UnknownLocaleError  # only decimals need it

    try:
        rule = Locale.parse(lang).plural_form
    except (UnknownLocaleError, ValueError):
        return round(n)
    category = rule(n)
    return next((m for m in range(1000) if rule(m) == category), round(n))


class Catalogue:
    """The messages of one gettext domain, keyed by their message ids, read in the current language;
    a message a language lacks is read in French, then in English, rather than shown as its key."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def _order(self) -> list[str]:
        return list(dict.fromkeys((_current.get(), DEFAULT, "en")))

    def t(self, key: str, **values: Any) -> str:
        """The text of `key` in the current language, with its placeholders filled."""
        for lang in self._order():
            text = translations(self.domain, lang).gettext(key)
            if text != key:
                return text.format(**values) if values else text
        raise KeyError(f"{key} is in no catalogue of the domain {self.domain!r}")

    def tn(self, key: str, n: float, **values: Any) -> str:
        """The form of `key` that agrees with `n` by the language's CLDR plural rule (French counts 0
        and 1 as singular, English only 1), with `n` written as the reader writes numbers
        (12 345 documents, 12,345 documents) unless `values` gives it already."""
        from rag.i18n.numbers import integer  # numbers reads this module's language

        values.setdefault("n", integer(n))
        for lang in self._order():
            text = translations(self.domain, lang).ngettext(key, key, _plural_count(n, lang))
            if text != key:
                return text.format(**values)
        raise KeyError(f"{key} is in no catalogue of the domain {self.domain!r}")

    @property
    def texts(self) -> dict[str, dict[str, str]]:
        """Every language's messages as `{key: text}`, a plural as `key_one` and `key_other` (its
        first and last forms): what tests and label look-ups compare."""
        return {lang: _texts(str(LOCALE_DIR), self.domain, lang) for lang in LANGUAGES}

    def problems(self) -> list[str]:
        """Keys missing from a language, or whose placeholders differ between languages."""
        texts = self.texts
        fr = texts[DEFAULT]
        found = []
        for lang, other in texts.items():
            found += [f"{key}: only in {'fr' if key in fr else lang}" for key in sorted(set(fr) ^ set(other))]
            found += [f"{key}: placeholders {sorted(placeholders(fr[key]))} != {sorted(placeholders(other[key]))} ({lang})"
                      for key in sorted(set(fr) & set(other)) if placeholders(fr[key]) != placeholders(other[key])]
        return found


@cache
def _texts(directory: str, domain: str, lang: str) -> dict[str, str]:
    catalog = getattr(_load(directory, domain, lang), "_catalog", {})  # GNUTranslations' parsed .mo
    out: dict[str, str] = {}
    plural_forms: dict[str, dict[int, str]] = {}
    for msgid, text in catalog.items():
        if isinstance(msgid, tuple):
            plural_forms.setdefault(msgid[0], {})[msgid[1]] = text
        elif msgid:
            out[msgid] = text
    for key, forms in plural_forms.items():
        out[f"{key}_one"], out[f"{key}_other"] = forms[min(forms)], forms[max(forms)]
    return out


RAG = Catalogue("rag")
t = RAG.t
tn = RAG.tn
