"""The Ingest page when a WordPress site cannot be read, for a French editor: the reason in plain
words in the visible message (it was behind a collapsed "Détails", with httpx's class name), and
the hint to correct it only while that message is on screen (it stayed alone after a page change
or a language switch)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.fixtures.apptest import open_page
from tests.fixtures.net import free_port

INGEST, ASK = "app_pages/2_Ingest.py", "app_pages/1_Ask.py"


def _read_site(at: AppTest, url: str) -> AppTest:
    at.radio(key="source_kind").set_value("wordpress").run()
    at.text_input[0].input(url)
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_dead_address_says_why_in_plain_french_and_the_hint_never_stands_alone(app_env_empty, monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    url = f"http://127.0.0.1:{free_port()}"  # nothing answers there
    at = _read_site(open_page(INGEST), url)
    [error] = at.error
    assert error.value.startswith(f"Le site n'a pas pu être lu. Impossible de joindre {url} : "
                                  "rien ne répond à cette adresse"), error.value
    assert "Error" not in error.value and "Errno" not in error.value
    assert [e.label for e in at.expander if e.label == "Détails"] == []  # nothing hidden behind a click
    assert at.info[0].value.startswith("Corrigez l'adresse ou les identifiants ci-dessus comme l'erreur l'indique")

    at.switch_page(ASK).run()
    at.switch_page(INGEST).run()  # back on the page: the error is still said above its hint
    assert [e.value for e in at.error] == [error.value]
    assert at.info[0].value.startswith("Corrigez l'adresse")

    at.sidebar.button_group(key="sidebar_lang").set_value("en").run()  # the error was written in French
    assert not at.exception and not at.error
    assert at.info[0].value.startswith("Give the site's address"), at.info[0].value  # no orphan hint
