"""The process's sign-in book and the two routes that set and clear its cookie.

serve.py mounts the routes beside Streamlit's (st.App); the pages reach the same book through
this module. Run without them (`streamlit run streamlit_app.py`, AppTest), signing in works as
before and simply does not survive a reload.

The book signs with the data folder's key (rag.auth.session_key): a restart keeps every sign-in and
every shared-password reader's conversations theirs.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from rag.auth import access
from rag.environment import raw_from_env
from rag.auth.sessions import DEVICE_COOKIE, DEVICE_SECONDS, SESSION_COOKIE, SessionBook
from rag.auth.throttle import connection_peer, forwarded_https
from rag.config import Settings
from rag.errors import ConfigError

SESSION_PATH, SIGNOUT_PATH = "/_rag/session", "/_rag/signout"  # under server.baseUrlPath
MAX_BODY = 200  # bytes of a ticket

BOOKS: dict[Path, SessionBook] = {}  # the process's book, by data folder; a restart starts it empty
_BOOKS_LOCK = threading.Lock()


def book() -> SessionBook:
    """The process's book, signed with the key kept in the data folder (RAG_DATA_DIR), read or
    made on first use."""
    # The folder alone, as written: another variable's mistake must not stop the routes or the
    # sign-in page (the page says it once signed in).
    folder = Path(raw_from_env()["data_dir"] or "data").absolute()
    with _BOOKS_LOCK:
        if folder not in BOOKS:
            BOOKS[folder] = SessionBook.for_data_dir(folder)
        return BOOKS[folder]


def password_of(role: str) -> str | None:
    """The current password of a role: a session token is signed with it."""
    if role == access.EDITOR:
        return access.editor_password()
    if role == access.READER:
        return access.app_password()
    return None


def _trusted_proxies() -> tuple[str, ...]:
    try:
        return Settings.from_env().trusted_proxies
    except ConfigError:  # said on the page once signed in; the cookie is then set as over plain http
        return ()


def _https(request: Any) -> bool:
    """Whether the browser talks to us over https: directly, or through a trusted proxy that says so
    (X-Forwarded-Proto). The cookies are then `Secure`: a browser never sends them over plain http."""
    if request.url.scheme == "https":
        return True
    forwarded = request.headers.get("x-forwarded-for")
    reported = request.client.host if request.client else None
    peer = connection_peer(reported, forwarded, os.environ.get("FORWARDED_ALLOW_IPS") != "")
    return forwarded_https(peer, request.headers.get("x-forwarded-proto"), _trusted_proxies())


def _cookie(response: Any, request: Any, name: str, value: str, max_age: int) -> None:
    response.set_cookie(name, value, max_age=max_age, path="/", httponly=True, samesite="strict",
                        secure=_https(request))


async def _session(request: Any) -> Any:
    from starlette.responses import Response

    ticket = (await request.body())[:MAX_BODY].decode("ascii", errors="replace").strip()
    signer = book()
    device = signer.ticket_device(ticket)
    traded = signer.redeem(ticket, password_of)
    if traded is None:
        return Response(status_code=403)
    token, lifetime = traded
    response = Response(status_code=204)
    _cookie(response, request, SESSION_COOKIE, token, lifetime)
    if signer.device_id(device) is not None:
        # The device the page records this reader's conversations under, so that they are still
        # theirs after a reload: a new one after a sign-out replaces the browser's old cookie.
        _cookie(response, request, DEVICE_COOKIE, device, int(DEVICE_SECONDS))
    elif signer.device_id(request.cookies.get(DEVICE_COOKIE)) is None:
        _cookie(response, request, DEVICE_COOKIE, signer.device(), int(DEVICE_SECONDS))
    return response


async def _signout(request: Any) -> Any:
    from starlette.responses import Response

    book().revoke(request.cookies.get(SESSION_COOKIE), password_of)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict", secure=_https(request))
    return response


def served_path(path: str) -> str:
    """`path` under the app's server.baseUrlPath: behind a proxy that serves the dashboard at
    /rag/, only what is under /rag/ reaches it (Streamlit mounts its own routes there too, and
    st.App mounts ours as given)."""
    from streamlit import config

    base = str(config.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}{path}" if base else path


def routes() -> list[Any]:
    from starlette.routing import Route

    book()  # the key read or made at start, where a problem with it is logged at once
    return [Route(served_path(SESSION_PATH), _session, methods=["POST"]),
            Route(served_path(SIGNOUT_PATH), _signout, methods=["POST"])]
