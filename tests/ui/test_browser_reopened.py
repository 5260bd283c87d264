"""A conversation reopened by a reload (F5) in a real French browser says what the reader read
before it: the same refusal reasons, and "Merci !" with its reply in its place."""

from __future__ import annotations

import pytest

from tests.fixtures.chat_app import ask_and_see, chat_app, reader_on_blog  # noqa: F401 - chat_app: the fixture
from tests.ui.test_browser import MINUTE, settle

CREPES = "Comment faire une pâte à crêpes ?"
WEATHER = "Quel temps fera-t-il demain à Lyon ?"
THANKS_REPLY = "Avec plaisir. Une autre question sur les articles ?"


def reasons(messages) -> list[str]:
    """The refusal's reason under each answer, in order ("… le modèle n'a pas été interrogé.")."""
    found = []
    for i in range(messages.count()):
        found += [c.inner_text() for c in messages.nth(i).get_by_test_id("stCaptionContainer").all()
                  if "interrogé" in c.inner_text()]
    return found


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(600)
def test_a_reload_says_the_reasons_read_before_it_and_keeps_the_thanks(chat_app, lmstudio):  # noqa: F811 - the fixture
    from playwright.sync_api import expect

    url, _ = chat_app
    with reader_on_blog(url) as page:
        messages = page.get_by_test_id("stChatMessage")
        ask_and_see(page, CREPES, 1, "crêpes")
        ask_and_see(page, WEATHER, 3, "interrogé")
        ask_and_see(page, "Merci !", 5, THANKS_REPLY)
        live = reasons(messages)
        assert len(live) == 2 and "crêpes" in live[0] and "fera" not in live[1], live

        page.reload()
        settle(page)
        expect(messages).to_have_count(6, timeout=MINUTE)
        expect(messages.nth(4)).to_contain_text("Merci !")
        expect(messages.nth(5)).to_contain_text(THANKS_REPLY)
        assert reasons(messages) == live
        assert lmstudio.chat_calls == 0  # both refused before the model, the thanks answered by the page
