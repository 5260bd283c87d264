"""The dashboard's words, in French and English (pure: no streamlit here).

The gettext domain `ui`: `rag/locale/<lang>/LC_MESSAGES/ui.po`, one catalogue a language, same
keys, same `{placeholders}` (tests/test_catalogues.py checks it). The language itself is
`rag.i18n`'s: one context variable for the dashboard's words and the package's messages. The
frame sets it at the start of every run, so the page, the pure helpers in `ui/present` and the
errors `rag` raises read it without threading a parameter through every call. Tests set it with `language()`.

Refusals and prompts are not here: they are in the domain `rag`, read in the question's language
by `rag.answer.prompts`, for the chat model and the command line as well.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from rag.i18n import Catalogue

WORDS = Catalogue("ui")
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
        if any(value == texts.get(key(option)) for texts in WORDS.texts.values()):
            return option
    return options[0]
