"""A restart of the app in a real browser, through serve.py: a password sign-in made before it is
still open after it (the cookies' key is kept in the data folder), one signed out of stays closed,
and a damaged key file is said in the server's log while the app still signs people in."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.ui.test_browser import settle
from tests.ui.test_browser_sign_in import READER_PASSWORD, _enter, _open, _serve, _session_cookie, chromium


@pytest.mark.slow  # two streamlit servers, one after the other, and chromium
@pytest.mark.timeout(900)
def test_a_sign_in_outlives_a_restart_and_a_sign_out_stays_closed(tmp_path: Path):
    from playwright.sync_api import expect

    with chromium() as browser:
        for url in _serve(tmp_path):  # the app as first started
            context, page = _open(browser, url)
            _enter(page, READER_PASSWORD)
            session = _session_cookie(context, page, present=True)
            device = {c["name"]: c["value"] for c in context.cookies()}["rag_device"]
        for url in _serve(tmp_path):  # restarted on the same data folder (another port: cookies ignore it)
            page.goto(url)
            settle(page)
            sidebar = page.get_by_test_id("stSidebar")
            expect(sidebar).to_contain_text("Signed in with the reader password")
            assert {c["name"]: c["value"] for c in context.cookies()}["rag_device"] == device
            sidebar.get_by_role("button", name="Sign out").click()
            settle(page)
            expect(page.get_by_label("Password", exact=True)).to_be_visible()
        for url in _serve(tmp_path):  # and once more: the copy of the cookie kept from before opens nothing
            context.add_cookies([session])
            page.goto(url)
            settle(page)
            expect(page.get_by_label("Password", exact=True)).to_be_visible()
            expect(page.get_by_text("Signed in with")).to_have_count(0)


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_a_damaged_key_file_is_said_at_start_and_readers_still_sign_in(tmp_path: Path):
    from playwright.sync_api import expect

    key = tmp_path / "data" / "session.key"
    key.parent.mkdir(parents=True)
    key.write_bytes(b"cut")
    os.utime(key, (time.time() - 60, time.time() - 60))
    with chromium() as browser:
        for url in _serve(tmp_path):
            log = (tmp_path / "streamlit.log").read_text()
            assert f"{key} is damaged" in log or f"{key} est abîmée" in log  # at start, before anyone came
            context, page = _open(browser, url)
            _enter(page, READER_PASSWORD)
            expect(page.get_by_test_id("stSidebar")).to_contain_text("Signed in with the reader password")
    assert key.read_bytes() == b"cut"
