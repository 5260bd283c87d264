"""One browser shared by several people, through serve.py (what `make run` and the image start):
the editor's conversations and their restricted passages never reach the reader who signs in after
them; the reader password never buys guesses at the editor's; and a returning user is not locked out
of their own tab by another browser's wrong guesses."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Iterator

import pytest

from tests.fixtures.demo_index import COLLECTION, STRATEGY
from tests.fixtures.streamlit_server import streamlit_server
from tests.ui.test_browser import MINUTE, settle
from tests.ui.test_browser_sign_in import (EDITOR_PASSWORD, READER_PASSWORD, _enter, _open, _serve,
                                           _session_cookie, chromium)

SECRET = "grenadine-4821"
QUESTION = "Quel est le code du coffre de la salle serveur ?"
STAFF_DOC = ("# Coffre de la salle serveur\n\n## Ouverture du coffre\n\n"
             f"Le coffre de la salle serveur s'ouvre avec le code {SECRET}. Le code du coffre change chaque "
             "trimestre ; seul le responsable de la sécurité le communique aux administrateurs.\n")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path)


@pytest.fixture
def served_with_staff(tmp_path: Path, demo_index, lmstudio) -> Iterator[str]:
    """The demo index plus one document of the `staff` group, which the editor password reads."""
    from rag.documents import Document
    from rag.embeddings.embedded import EmbeddedEmbedder
    from rag.ingest.run import ingest
    from rag.store.store import Store

    data = tmp_path / "data"
    shutil.copytree(demo_index.data_dir, data, ignore=shutil.ignore_patterns("journal", "*.lock"))
    store = Store(type(demo_index)(data, COLLECTION, None).settings())
    try:
        report = ingest([Document(url="coffre.md", title="Coffre de la salle serveur", markdown=STAFF_DOC,
                                  access=["staff"])], store, EmbeddedEmbedder(threads=1), COLLECTION,
                        strategy=STRATEGY)
    finally:
        store.close()
    assert report.ok and report.new == 1, report.summary()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "STREAMLIT_", "FORWARDED_"))}
    env.update(RAG_DATA_DIR=str(data), RAG_EMBED_MODEL="embedded", RAG_EMBED_THREADS="1",
               RAG_LLM_URL=lmstudio.url, RAG_COLLECTION=COLLECTION, RAG_APP_PASSWORD=READER_PASSWORD,
               RAG_EDITOR_PASSWORD=EDITOR_PASSWORD, RAG_USERS_GROUPS=json.dumps({"password:editor": ["staff"]}))
    with streamlit_server("serve.py", env, tmp_path / "streamlit.log") as url:
        yield url


def _sign_out(page) -> None:
    page.get_by_test_id("stSidebar").get_by_role("button", name="Sign out").click()
    settle(page)


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(900)
def test_the_reader_after_the_editor_on_one_browser_never_reaches_the_editors_conversation(served_with_staff):
    from playwright.sync_api import expect

    with chromium() as browser:
        context, page = _open(browser, served_with_staff)
        _enter(page, EDITOR_PASSWORD)
        sidebar = page.get_by_test_id("stSidebar")
        expect(sidebar).to_contain_text("Signed in with the editor password")
        chat = page.get_by_test_id("stChatInputTextArea")
        chat.fill(QUESTION)
        chat.press("Enter")
        expect(page.get_by_test_id("stChatMessage").nth(1)).to_be_visible(timeout=MINUTE)
        settle(page)
        # The editor reads the staff passage, cited.
        expect(page.get_by_test_id("stChatMessage").nth(1)).to_contain_text(SECRET)
        expect(sidebar.get_by_role("button", name=QUESTION[:20])).to_have_count(1)
        assert "conversation=" in page.url
        address = page.url

        _sign_out(page)
        _enter(page, READER_PASSWORD)  # the same tab, the same browser
        expect(sidebar).to_contain_text("Signed in with the reader password")
        expect(sidebar.get_by_role("button", name=QUESTION[:20])).to_have_count(0)
        expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
        assert SECRET not in page.content()

        page.goto(address)  # the editor's conversation by its address
        settle(page)
        expect(sidebar).to_contain_text("Signed in with the reader password")
        expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
        assert SECRET not in page.content() and QUESTION not in page.content()


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_the_reader_password_buys_no_guesses_at_the_editors(served):
    from playwright.sync_api import expect

    with chromium() as browser:
        _, page = _open(browser, served)
        for _ in range(4):
            _enter(page, "guess")
        _enter(page, READER_PASSWORD)  # clears the reader's count only
        expect(page.get_by_test_id("stSidebar")).to_contain_text("Signed in with the reader password")
        _sign_out(page)
        _enter(page, "guess")  # the fifth wrong guess at the editor's password
        expect(page.get_by_text("Too many tries")).to_be_visible()
        _enter(page, EDITOR_PASSWORD)
        expect(page.get_by_text("Too many wrong passwords")).to_be_visible()
        expect(page.get_by_text("Signed in with")).to_have_count(0)
        _enter(page, READER_PASSWORD)  # the reader's own count was not locked
        expect(page.get_by_test_id("stSidebar")).to_contain_text("Signed in with the reader password")


@pytest.mark.slow  # a streamlit server and chromium
@pytest.mark.timeout(900)
def test_another_browsers_wrong_guesses_do_not_lock_a_returning_user_out_of_their_tab(served):
    from playwright.sync_api import expect

    with chromium() as browser:
        mine, page = _open(browser, served)
        _enter(page, READER_PASSWORD)
        _session_cookie(mine, page, present=True)  # the device cookie is set now, after the tab opened
        _sign_out(page)
        _, stranger = _open(browser, served)
        locked = stranger.get_by_text("Too many wrong passwords")
        # Five wrong guesses start the lockout and the sixth meets it; on a loaded machine a click
        # sent while the page still reruns can be dropped, so the stranger goes on guessing (a few
        # more at most) until the page says the lockout holds.
        for _ in range(9):
            _enter(stranger, "guess")
            if locked.count():
                break
        expect(locked).to_be_visible()
        _enter(page, READER_PASSWORD)  # the same tab as before
        expect(page.get_by_test_id("stSidebar")).to_contain_text("Signed in with the reader password")


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(900)
def test_the_next_reader_with_the_same_password_never_reaches_the_last_ones_conversation(served_with_staff):
    """Two people share the reader password on one browser: the second one to sign in landed in the
    first one's conversation and listed it (the browser and the role were the same owner)."""
    from playwright.sync_api import expect

    with chromium() as browser:
        context, page = _open(browser, served_with_staff)
        _enter(page, READER_PASSWORD)
        sidebar = page.get_by_test_id("stSidebar")
        chat = page.get_by_test_id("stChatInputTextArea")
        mine = "Comment purger les tickets Kerberos de mon poste ?"
        chat.fill(mine)
        chat.press("Enter")
        expect(page.get_by_test_id("stChatMessage").nth(1)).to_be_visible(timeout=MINUTE)
        settle(page)
        expect(sidebar.get_by_role("button", name=mine[:20])).to_have_count(1)
        address = page.url
        assert "conversation=" in address

        _sign_out(page)
        _enter(page, READER_PASSWORD)  # somebody else, the same password, the same tab
        expect(sidebar).to_contain_text("Signed in with the reader password")
        expect(sidebar.get_by_role("button", name=mine[:20])).to_have_count(0)
        expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
        for where in (address, served_with_staff):  # the last one's address, then a reload of the app
            page.goto(where)
            settle(page)
            expect(sidebar).to_contain_text("Signed in with the reader password")
            expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
            expect(sidebar.get_by_role("button", name=mine[:20])).to_have_count(0)
