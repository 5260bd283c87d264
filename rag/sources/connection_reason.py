"""Why a connection to a site failed, in a reader's words: "nothing answers at this address" for
a refused connection, never httpx's "ConnectError: [Errno 111] Connection refused"."""

from __future__ import annotations

import errno
import socket
import ssl

import httpx

from rag.i18n import t

_REFUSED = (errno.ECONNREFUSED,)
_NO_ROUTE = (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EHOSTDOWN)


def _causes(exc: BaseException) -> list[BaseException]:
    """The exception and what it was raised from (httpx wraps the socket's own error)."""
    chain: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and seen not in chain and len(chain) < 10:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    return chain


def _key(exc: httpx.TransportError) -> str:
    chain = _causes(exc)
    words = " ".join(str(e) for e in chain).lower()
    if any(isinstance(e, ssl.SSLError) for e in chain) or "certificate" in words or "ssl" in words:
        return "wp.conn_certificate"
    if any(isinstance(e, socket.gaierror) for e in chain) or "name or service not known" in words \
            or "nodename nor servname" in words or "name resolution" in words or "getaddrinfo" in words:
        return "wp.conn_no_name"
    if any(isinstance(e, ConnectionRefusedError) or getattr(e, "errno", None) in _REFUSED for e in chain) \
            or "connection refused" in words or "errno 111" in words:
        return "wp.conn_refused"
    if any(getattr(e, "errno", None) in _NO_ROUTE for e in chain) or "unreachable" in words:
        return "wp.conn_no_route"
    if isinstance(exc, httpx.ProxyError):
        return "wp.conn_proxy"
    if isinstance(exc, httpx.UnsupportedProtocol):
        return "wp.conn_protocol"
    if isinstance(exc, (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)) \
            or any(isinstance(e, ConnectionResetError) for e in chain):
        return "wp.conn_cut"
    return "wp.conn_failed"


def connection_reason(exc: httpx.TransportError) -> str:
    """What went wrong reaching the site, said plainly, with no exception class name."""
    return t(_key(exc))
