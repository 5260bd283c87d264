"""The Ask page's gestures in a real browser, at a laptop's size: a question sent after scrolling up
comes into view, the latest answer's sources stay short, one click copies the answer."""

from __future__ import annotations

import pytest

from tests.fixtures.chat_app import QUESTION, ask, ask_and_see, chat_app, reader_on_blog  # noqa: F401 - chat_app: the fixture
from tests.ui.test_browser import MINUTE, SCROLLER, scroll_at_rest, settle

ANSWER = ("MaxTokenSize se règle sous HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters [1]. "
          "Les symptômes du token bloat sont décrits aussi [2].")
SECOND = "Quel événement le KDC écrit-il quand il trouve un SPN en double ?"


def _scroll_to_top(page) -> None:
    """The wheel, as a reader scrolls back up to read (a script's scroll stays pinned to the bottom)."""
    scroll_at_rest(page)
    page.mouse.move(600, 300)
    for _ in range(80):
        if page.evaluate(f"document.querySelector('{SCROLLER}').scrollTop") < 5:
            break
        page.mouse.wheel(0, -600)
        page.wait_for_timeout(50)
    scroll_at_rest(page)


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(600)
def test_a_question_sent_after_scrolling_up_comes_into_view(chat_app, lmstudio):  # noqa: F811 - the fixture imported above
    from playwright.sync_api import expect

    url, _ = chat_app
    lmstudio.answer = ANSWER
    with reader_on_blog(url) as page:
        page.set_viewport_size({"width": 1366, "height": 768})
        messages = page.get_by_test_id("stChatMessage")
        ask_and_see(page, QUESTION, 1, "Kerberos\\Parameters [1]")
        _scroll_to_top(page)
        expect(messages.nth(0)).to_be_in_viewport()

        lmstudio.stream_parts, lmstudio.chunk_delay = 12, 0.25  # an answer that takes a few seconds
        ask(page, SECOND)
        expect(messages.nth(2)).to_contain_text(SECOND, timeout=MINUTE)
        expect(messages.nth(2)).to_be_in_viewport()  # the question just sent is on screen
        settle(page)
        scroll_at_rest(page)
        # The answer was followed to its end: its gestures, under it, are on screen.
        expect(messages.nth(3).get_by_role("button", name="Régénérer")).to_be_in_viewport()
        expect(messages.nth(0)).not_to_be_in_viewport()
