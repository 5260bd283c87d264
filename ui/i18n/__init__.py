"""The dashboard's words, in French and English (pure: no streamlit here).

One catalogue a language (`ui/i18n/fr.py`, `ui/i18n/en.py`), same keys, same `{placeholders}`
(a test checks it). The language itself is `rag.i18n`'s: one context variable for the dashboard's
words and the package's messages. The frame sets it at the start of every run, so the page, the
pure helpers in `ui/present` and the errors `rag` raises read it without threading a parameter
through every call. Tests set it with `language()`.

Refusals and prompts are not here: `rag.answer.prompts` holds them in both languages, for the
chat model and the command line as well.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from rag.i18n import Catalogue
from ui.i18n import en, fr

WORDS = Catalogue({"fr": fr.TEXT, "en": en.TEXT})
CATALOGUES: dict[str, dict[str, str]] = WORDS.texts
t = WORDS.t
tn = WORDS.tn


def formatter(options: Iterable[Any], key: Callable[[Any], str]) -> Callable[[Any], str]:
    """A widget's format_func with the words fixed now, in this run's language.

    Streamlit may call format_func outside the script run (AppTest reads options from the test's
    thread), where the context variable is back at its default.
    """
    words = {option: t(key(option)) for option in options}
    return lambda option: words.get(option, str(option))


def option_of(value: Any, options: Sequence[Any], key: Callable[[Any], str]) -> Any:
    """The option a choice widget stands for. Streamlit keys a radio's value by its label, so
    after a change of language it may hand back the label of the language before ("toutes",
    "All"): that label, in any language, names its option; anything else is the first option."""
    if value in options:
        return value
    for option in options:
        if any(value == WORDS.texts[lang].get(key(option)) for lang in WORDS.texts):
            return option
    return options[0]
