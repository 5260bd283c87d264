"""How a reader is named to editors: their account id when RAG_JOURNAL_NAMES allows it, else a
number ("lecteur 3"), the same number on every page and in `rag journal`."""

from __future__ import annotations

from typing import Callable, Sequence

# A browser signed in with a shared password: it has no name to show, only its random device id.
DEVICE_PREFIX = "device:"


def device_reader(device_id: str, role: str) -> str:
    """The journal's reader id of a browser signed in with a shared password: the browser and the
    password's role, so that the editor's conversations on a shared browser are never the reader's."""
    return f"{DEVICE_PREFIX}{device_id}:{role}"


def reader_labels(readers: Sequence[str], show_names: bool, numbered: Callable[[int], str],
                  anonymous: str, editor_numbered: Callable[[int], str] | None = None) -> dict[str, str]:
    """reader id -> label. `readers`: in the order they first asked (Journal.readers);
    `numbered(n)`: the label of reader n; `anonymous`: the label of "" (no sign-in);
    `editor_numbered(n)`: the label of editor n, a browser signed in with the editor password (an
    editor's own questions read "reader 2" in the journal)."""
    labels: dict[str, str] = {"": anonymous}
    n = editors = 0
    for reader in readers:
        if reader and reader not in labels:
            if editor_numbered is not None and reader.startswith(DEVICE_PREFIX) and reader.endswith(":editor"):
                editors += 1
                labels[reader] = editor_numbered(editors)
                continue
            n += 1
            labels[reader] = reader if show_names and not reader.startswith(DEVICE_PREFIX) else numbered(n)
    return labels
