"""serve.py's two routes, driven over HTTP: the cookie a password sign-in trades its ticket for,
and the device the page already recorded the reader's conversations under."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from starlette.applications import Starlette

from rag.journal.readers import device_reader, reader_labels
from rag.auth.sessions import DEVICE_COOKIE, SESSION_COOKIE
from ui import sessions


class Client:
    """The routes served in process over HTTP (httpx's ASGI transport), one browser's cookies."""

    def __init__(self) -> None:
        self.app = Starlette(routes=sessions.routes())
        self.cookies = httpx.Cookies()

    def post(self, path: str, content: str, headers: dict[str, str] | None = None) -> httpx.Response:
        async def send() -> httpx.Response:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url="http://testserver",
                                         cookies=self.cookies) as http:
                response = await http.post(path, content=content, headers=headers)
                self.cookies.update(response.cookies)
                return response

        return asyncio.run(send())


@pytest.fixture
def client(monkeypatch, data_dir):
    monkeypatch.setenv("RAG_APP_PASSWORD", "reader horse battery")
    return Client()


def test_the_cookie_names_the_device_the_signing_in_page_chose(client):
    device = sessions.book().device()
    ticket = sessions.book().ticket("reader", 3600, device=device)
    response = client.post(sessions.SESSION_PATH, content=ticket)
    assert response.status_code == 204
    assert sessions.book().role(response.cookies[SESSION_COOKIE], sessions.password_of) == "reader"
    # After a reload the page reads this reader by the same device: their conversations stay theirs.
    assert sessions.book().device_id(response.cookies[DEVICE_COOKIE]) == sessions.book().device_id(device)


def test_a_ticket_without_a_device_or_with_a_forged_one_gets_a_new_device(client):
    for device in (None, "forged.token"):
        response = client.post(sessions.SESSION_PATH, content=sessions.book().ticket("reader", 3600, device=device))
        assert response.status_code == 204
        assert sessions.book().device_id(response.cookies[DEVICE_COOKIE])
        client.cookies.clear()
    assert client.post(sessions.SESSION_PATH, content="used-or-unknown").status_code == 403


def test_the_cookies_still_sign_in_and_name_the_same_reader_after_the_app_restarts(client, data_dir):
    device = sessions.book().device()
    response = client.post(sessions.SESSION_PATH, content=sessions.book().ticket("reader", 3600, device=device))
    reader = sessions.book().device_id(device)
    sessions.BOOKS.clear()  # the app restarts: a new process, a new book
    after = sessions.book()
    assert after.role(response.cookies[SESSION_COOKIE], sessions.password_of) == "reader"
    assert reader and after.device_id(response.cookies[DEVICE_COOKIE]) == reader
    assert (data_dir / "session.key").is_file()


def test_a_cookie_signed_out_of_before_the_app_restarts_stays_closed_after_it(client):
    token = client.post(sessions.SESSION_PATH, content=sessions.book().ticket("reader", 3600)).cookies[SESSION_COOKIE]
    assert client.post(sessions.SIGNOUT_PATH, content="").status_code == 204
    sessions.BOOKS.clear()  # the app restarts
    assert sessions.book().role(token, sessions.password_of) is None


def test_a_browser_signed_in_with_a_shared_password_is_numbered_even_where_names_are_shown():
    device = device_reader("Zq3x", "reader")
    labels = reader_labels(["alice@example.com", device], show_names=True, numbered=lambda n: f"reader {n}",
                           anonymous="anonymous")
    assert labels == {"": "anonymous", "alice@example.com": "alice@example.com", device: "reader 2"}


def test_the_editor_passwords_own_questions_are_an_editors_in_the_journal():
    """An editor signed in with the editor password read their own questions as "reader 2"."""
    reader, editor, other = (device_reader("Zq3x", "reader"), device_reader("Zq3x", "editor"),
                             device_reader("Pm7c", "reader"))
    labels = reader_labels([reader, editor, other], show_names=True, numbered=lambda n: f"reader {n}",
                           anonymous="anonymous", editor_numbered=lambda n: f"editor {n}")
    assert (labels[reader], labels[editor], labels[other]) == ("reader 1", "editor 1", "reader 2")


def _set_cookies(response: httpx.Response) -> dict[str, str]:
    return {line.split("=", 1)[0]: line for line in response.headers.get_list("set-cookie")}


@pytest.mark.parametrize("trusted, secure", [("127.0.0.1", True), ("", False), ("10.0.0.0/8", False)])
def test_behind_a_trusted_https_proxy_the_cookies_are_secure(client, monkeypatch, trusted, secure):
    # The in-process client connects from 127.0.0.1, as a proxy on the same machine does.
    monkeypatch.setenv("RAG_TRUSTED_PROXIES", trusted)
    https = {"X-Forwarded-Proto": "https"}
    response = client.post(sessions.SESSION_PATH, content=sessions.book().ticket("reader", 3600), headers=https)
    cookies = _set_cookies(response)
    assert set(cookies) == {SESSION_COOKIE, DEVICE_COOKIE}
    assert all(("; secure" in c.lower()) is secure for c in cookies.values()), cookies
    assert all("httponly" in c.lower() and "samesite=strict" in c.lower() for c in cookies.values())
    signed_out = _set_cookies(client.post(sessions.SIGNOUT_PATH, content="", headers=https))
    assert ("; secure" in signed_out[SESSION_COOKIE].lower()) is secure


def test_a_proxy_that_says_plain_http_gets_no_secure_flag(client, monkeypatch):
    monkeypatch.setenv("RAG_TRUSTED_PROXIES", "127.0.0.1")
    response = client.post(sessions.SESSION_PATH, content=sessions.book().ticket("reader", 3600),
                           headers={"X-Forwarded-Proto": "https, http"})  # the nearest proxy's word counts
    assert not any("; secure" in c.lower() for c in _set_cookies(response).values())
