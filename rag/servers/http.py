"""What every client of an OpenAI-compatible server does the same way: its timeouts, the key it
sends (only to the URL it was configured for: rag.config.Settings.api_key_for, the reranker's own
key to its own URL), and what a refusing server said, read from its error body and never showing a key.
"""

from __future__ import annotations

from typing import Any, Iterable

import httpx

from rag.redact import redact

CONNECT_TIMEOUT = 5.0  # a server that does not accept the connection this fast is down
ERROR_CHARS = 500  # what is kept of an error body that is not the usual JSON


def timeout(seconds: float, connect: float = CONNECT_TIMEOUT) -> httpx.Timeout:
    """`seconds` to read an answer, at most `connect` (and never more than `seconds`) to connect."""
    return httpx.Timeout(float(seconds), connect=min(float(seconds), connect))


def bearer(api_key: str | None) -> dict[str, str]:
    """The Authorization header for `api_key`, none without one."""
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def json_body(response: httpx.Response) -> Any:
    """The response's JSON, else its text (cut) as an OpenAI-style error."""
    try:
        return response.json()
    except ValueError:
        return {"error": {"message": response.text[:ERROR_CHARS]}}


def error_message(response: httpx.Response, secrets: Iterable[str | None] = ()) -> str:
    """What the server said: the OpenAI error's message (with its code when the message lacks it),
    else the body's text, cut, every secret of `secrets` masked."""
    body = json_body(response)
    error = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(error, dict):
        text = str(error.get("message") or "")
        code = error.get("code")
        if code and str(code) not in text:
            text = f"{text} [{code}]" if text else str(code)
    else:
        text = str(error or "")
    return redact(text.strip()[:ERROR_CHARS], [s for s in secrets if s])


__all__ = ["CONNECT_TIMEOUT", "ERROR_CHARS", "bearer", "error_message", "json_body", "timeout"]
