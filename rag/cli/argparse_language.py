"""argparse's own sentences ("usage:", "the following arguments are required: …") in the run's language.

argparse writes them through the `gettext` module's own functions, in the `argparse` domain when that
is the current one; `rag/locale/<lang>/LC_MESSAGES/argparse.po` translates them (French; English is
argparse's msgids, word for word). `speaking(lang)` makes that catalogue the one argparse reads for
one command-line run and puts everything back afterwards, so runs in different languages can follow
one another in a process (the tests run the CLI in-process, French then English).

`make argparse-catalogue` extracts the msgids from this Python's argparse.py and from this module,
updates the French catalogue and compiles it.
"""

from __future__ import annotations

import argparse
import gettext
import os
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

from rag import i18n

DOMAIN = "argparse"
T = TypeVar("T")


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """argparse's messages in `lang` inside the block: parsers built and parsing there speak it.

    argparse calls `gettext.gettext`, which reads the current domain's catalogue in the language of
    LANGUAGE (else LC_ALL, LC_MESSAGES, LANG): the block binds the domain to rag's catalogues, makes
    it current and names `lang` in LANGUAGE, then restores the previous domain and LANGUAGE. Both are
    the process's, so this is for a command-line run, never for a dashboard session's thread (the
    dashboard has no argparse).
    """
    # Only this domain, in the folder of the product's other catalogues (read now: a test may move it).
    gettext.bindtextdomain(DOMAIN, str(i18n.LOCALE_DIR))
    previous_domain = gettext.textdomain()
    previous_language = os.environ.get("LANGUAGE")
    gettext.textdomain(DOMAIN)
    # Exactly `lang`: the shell's own LANGUAGE (say en_US:fr) must not outvote RAG_UI_LANG, and a
    # language without a catalogue (English) falls back to argparse's msgids.
    os.environ["LANGUAGE"] = lang
    try:
        yield
    finally:
        gettext.textdomain(previous_domain)
        if previous_language is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = previous_language


# A bad number reads as argparse's own "invalid int value: 'six'" in English, while French names
# the kind of number ("n'est pas un nombre entier valide") rather than Python's type: argparse's
# sentence only has the type's __name__, so these types say it themselves (ArgumentTypeError's
# message is argparse's documented way to word a value's error).
def whole_number(text: str) -> int:
    """`int(text)`, for an option's type=."""
    return _parsed(int, text, lambda: gettext.dgettext(DOMAIN, "invalid int value: %(value)r"))


def number(text: str) -> float:
    """`float(text)`, for an option's type=."""
    return _parsed(float, text, lambda: gettext.dgettext(DOMAIN, "invalid float value: %(value)r"))


def _parsed(convert: Callable[[str], T], text: str, message: Callable[[], str]) -> T:
    try:
        return convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(message() % {"value": text}) from None
