"""Collection names: what the embedded store can keep (a folder of its own per collection), and a
name close to one it cannot, so that a refusal can offer something to type instead."""

from __future__ import annotations

import re
import unicodedata

from rag.i18n import t

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_OTHER = re.compile(r"[^A-Za-z0-9_-]+")
_DASHES = re.compile(r"-{2,}")


def suggested_name(name: str) -> str | None:
    """"sécurité" -> "securite", "ssh bastion" -> "ssh-bastion": accents dropped, anything else
    between words made a dash; None when nothing usable is left."""
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    candidate = _DASHES.sub("-", _OTHER.sub("-", ascii_text.strip())).strip("-_")[:64]
    return candidate if NAME.match(candidate) else None


def name_problem(name: str) -> str | None:
    """Why `name` cannot name a collection, in plain words with a name that can; None if it can."""
    if NAME.match(name):
        return None
    suggestion = suggested_name(name)
    if suggestion:
        return t("name.bad_suggest", name=name, suggestion=suggestion)
    return t("name.bad", name=name)
