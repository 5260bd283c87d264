"""The chat model's calls during retrieval (the question rewritten, the candidates ranked) are
improvements: a server that did not answer (down, no model loaded, too slow) is not asked again
for BACKOFF_SECONDS, so that each question after it is searched at once, without waiting for a
timeout every time. The state is the process's, by server URL: a server down is down for every
session, and it is tried again once the pause is over (or as soon as it answered another call).
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from rag.errors import LLMError

BACKOFF_SECONDS = 60.0

_lock = threading.Lock()
_failed: dict[str, float] = {}  # server URL -> when it last did not answer (time.monotonic)


def _unavailable(exc: LLMError) -> bool:
    """A server that cannot take the call (rather than one that answered something unusable)."""
    from rag.servers.chat import LLMTimeout, NoModelLoaded, ServerUnreachable

    return isinstance(exc, (ServerUnreachable, NoModelLoaded, LLMTimeout))


def paused(url: str, clock: Callable[[], float] = time.monotonic) -> float | None:
    """Seconds left before the server at `url` is asked again, None when it may be asked now."""
    with _lock:
        since = _failed.get(url)
    if since is None:
        return None
    left = BACKOFF_SECONDS - (clock() - since)
    return left if left > 0 else None


def record(url: str, exc: LLMError | None, clock: Callable[[], float] = time.monotonic) -> None:
    """After a call to `url`: its error (None: it answered)."""
    with _lock:
        if exc is None:
            _failed.pop(url, None)
        elif _unavailable(exc):
            _failed[url] = clock()


def forget() -> None:
    """Every server may be asked again now."""
    with _lock:
        _failed.clear()


def chat(llm: object, messages: list[dict[str, str]], *, max_tokens: int, timeout: float, switch: str) -> str:
    """`llm.chat(...)` (one short, non-streamed answer), unless its server is paused: then an
    LLMError saying so, without a request. Its outcome pauses the server or ends the pause.

    `timeout` is the step's own (a constant of its module), never RAG_TIMEOUT: a step the search
    waits for must not wait as long as an answer. Its timeout says so, and names `switch`, the
    setting that turns the step off (`RAG_QUERY_REWRITE=off`)."""
    from rag.i18n import t
    from rag.i18n.numbers import duration
    from rag.servers.chat import LLMTimeout

    url = str(getattr(llm, "base_url", "") or "")
    left = paused(url)
    if left is not None:
        raise LLMError(t("lever.paused", url=getattr(llm, "shown_url", url), time=duration(left, 0, trim=True)))
    try:
        text = llm.chat(messages, max_tokens=max_tokens, temperature=0.0, timeout=timeout)  # type: ignore[attr-defined]
    except LLMTimeout as exc:
        record(url, exc)
        waited = exc.seconds if exc.seconds is not None else timeout
        raise LLMTimeout(t("lever.timeout", url=getattr(llm, "shown_url", url), time=duration(waited, 1, trim=True),
                           what=t(f"llm.to_{exc.what}"), switch=switch), exc.what, waited) from exc
    except LLMError as exc:
        record(url, exc)
        raise
    record(url, None)
    return text
