"""The `rag` command line: main.py builds the parser, one module per command."""

from __future__ import annotations

import argparse
from typing import Any, Protocol


class Commands(Protocol):
    """What `ArgumentParser.add_subparsers()` returns, as each command's `register` uses it."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...
