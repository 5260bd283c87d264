"""argparse's own error sentences in the reader's language.

argparse writes them in English (its gettext catalogue has no French here); they are matched once
formatted, so the English text stays exactly argparse's and a sentence not listed stays as it is.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import NoReturn

from rag.i18n import t

# argparse's sentences (Python 3.11 to 3.13) and the catalogue key of each.
_SENTENCES = [
    (re.compile(r"^the following arguments are required: (?P<names>.+)$"), "argparse.required"),
    (re.compile(r"^unrecognized arguments: (?P<names>.+)$"), "argparse.unrecognized"),
    (re.compile(r"^argument (?P<name>.+?): invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)$"),
     "argparse.choice"),
    (re.compile(r"^argument (?P<name>.+?): invalid (?P<type>\w+) value: (?P<value>.+)$"), "argparse.value"),
    (re.compile(r"^argument (?P<name>.+?): expected one argument$"), "argparse.one"),
    (re.compile(r"^argument (?P<name>.+?): expected at least one argument$"), "argparse.at_least_one"),
    (re.compile(r"^argument (?P<name>.+?): expected at most one argument$"), "argparse.at_most_one"),
    (re.compile(r"^ambiguous option: (?P<option>.+) could match (?P<matches>.+)$"), "argparse.ambiguous"),
]


# The option types argparse names by their Python name ("invalid int value"): in French, in a reader's
# words; the English stays argparse's, word for word.
_TYPES = {"int": "argparse.type_int", "float": "argparse.type_float"}


def translate(message: str) -> str:
    """argparse's `message` in the current language, or as it is when it is not one listed."""
    for pattern, key in _SENTENCES:
        match = pattern.match(message)
        if match:
            words = match.groupdict()
            if words.get("type") in _TYPES:
                words["type"] = t(_TYPES[words["type"]])
            return t(key, **words)
    return message


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are in the current language (its subparsers too)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, t("argparse.error", prog=self.prog, message=translate(message)) + "\n")
