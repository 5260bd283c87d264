"""Sign-in in a real browser, through serve.py (what `make run` and the image start): a password
sign-in survives a reload, sign-out returns to the sign-in page for good, and wrong guesses sent
with forged X-Forwarded-For addresses are still locked out."""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.fixtures.streamlit_server import streamlit_server
from tests.ui.test_browser import CHROMIUM, CHROMIUM_ARGS, MINUTE, settle

READER_PASSWORD, EDITOR_PASSWORD = "reader horse battery", "editor staple"


def _serve(tmp_path: Path, base_path: str = "") -> Iterator[str]:
    if not CHROMIUM.exists():
        missing = f"{CHROMIUM} is missing: install Debian's chromium (`make browser`)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"{missing}; CI must run the browser test")
        pytest.skip(missing)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "STREAMLIT_", "FORWARDED_"))}
    # No FORWARDED_ALLOW_IPS here: uvicorn's default (trust X-Forwarded-For from loopback) is the
    # case the throttle must hold against on its own.
    env.update(RAG_DATA_DIR=str(tmp_path / "data"), RAG_EMBED_MODEL="embedded", RAG_EMBED_THREADS="1",
               RAG_LLM_URL="http://127.0.0.1:9/v1", RAG_APP_PASSWORD=READER_PASSWORD,
               RAG_EDITOR_PASSWORD=EDITOR_PASSWORD)
    with streamlit_server("serve.py", env, tmp_path / "streamlit.log", base_path=base_path) as url:
        yield url


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path)


@pytest.fixture
def served_under_a_path(tmp_path: Path) -> Iterator[str]:
    """Served at /rag/, as behind a reverse proxy that forwards only that path."""
    yield from _serve(tmp_path, base_path="rag")


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _enter(page, password: str) -> None:
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Enter").click()
    settle(page)


def _open(browser: Any, url: str, **options: Any) -> tuple[Any, Any]:
    context = browser.new_context(locale="en-GB", **options)
    page = context.new_page()
    page.set_default_timeout(MINUTE)
    page.goto(url)
    settle(page)
    return context, page


def _session_cookie(context: Any, page: Any, present: bool) -> dict | None:
    """The session cookie once it is there (or gone): the page's fetch runs after it is drawn."""
    for _ in range(50):
        cookie = {c["name"]: c for c in context.cookies()}.get("rag_session")
        if (cookie is not None) is present:
            return cookie
        page.wait_for_timeout(200)
    raise AssertionError(f"the session cookie is still {'missing' if present else 'there'}")


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_a_sign_in_survives_a_reload_and_sign_out_returns_to_the_sign_in_page(served):
    from playwright.sync_api import expect

    with chromium() as browser:
        context, page = _open(browser, served)
        _enter(page, READER_PASSWORD)
        sidebar = page.get_by_test_id("stSidebar")
        expect(sidebar).to_contain_text("Signed in with the reader password")
        # The cookie the page traded its ticket for: HttpOnly, bounded, and not in the URL.
        session = _session_cookie(context, page, present=True)
        assert session["httpOnly"] and session["sameSite"] == "Strict" and session["expires"] > 0
        assert "?" not in page.url and session["value"] not in page.url

        page.reload()
        settle(page)
        expect(sidebar).to_contain_text("Signed in with the reader password")

        sidebar.get_by_role("button", name="Sign out").click()
        settle(page)
        expect(page.get_by_text("You are signed out.")).to_be_visible()
        expect(page.get_by_label("Password", exact=True)).to_be_visible()
        assert _session_cookie(context, page, present=False) is None  # cleared
        context.add_cookies([session])  # a copy kept from before: revoked on the server too
        page.reload()
        settle(page)
        expect(page.get_by_label("Password", exact=True)).to_be_visible()
        expect(page.get_by_text("Signed in with")).to_have_count(0)


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_forged_forwarded_addresses_do_not_escape_the_lockout(served):
    from playwright.sync_api import expect

    with chromium() as browser:
        for n in range(6):  # a new browser and a new forged address for each guess
            context, page = _open(browser, served, extra_http_headers={"X-Forwarded-For": f"203.0.113.{n}"})
            _enter(page, "guess" if n < 5 else EDITOR_PASSWORD)
            if n < 5:
                context.close()
        expect(page.get_by_text("Too many wrong passwords")).to_be_visible()
        expect(page.get_by_text("Signed in with")).to_have_count(0)


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_a_sign_in_survives_a_reload_when_the_dashboard_is_served_under_a_path(served_under_a_path):
    from playwright.sync_api import expect

    with chromium() as browser:
        context = browser.new_context(locale="en-GB")
        # What a reverse proxy serving the dashboard at /rag/ forwards: that path, nothing else.
        outside = re.compile(r"^https?://[^/]+/(?!rag(/|$))")
        context.route(outside, lambda route: route.fulfill(status=404, body="not behind this proxy"))
        page = context.new_page()
        page.set_default_timeout(MINUTE)
        page.goto(served_under_a_path + "/")
        settle(page)
        _enter(page, READER_PASSWORD)
        sidebar = page.get_by_test_id("stSidebar")
        expect(sidebar).to_contain_text("Signed in with the reader password")
        _session_cookie(context, page, present=True)  # the page's POST reached the app under /rag/
        page.reload()
        settle(page)
        expect(sidebar).to_contain_text("Signed in with the reader password")
