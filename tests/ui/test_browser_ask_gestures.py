"""The Ask page's gestures in a real browser, at a laptop's size: a question sent after scrolling up
comes into view, the latest answer's sources stay short, one click copies the answer."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import pytest

from tests.fixtures.chat_app import QUESTION, ask, ask_and_see, chat_app, reader_on_blog  # noqa: F401 - chat_app: the fixture
from tests.ui.test_browser import MINUTE, SCROLLER, scroll_at_rest, settle, shoot

ANSWER = ("MaxTokenSize se règle sous HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters [1]. "
          "Les symptômes du token bloat sont décrits aussi [2].")
SECOND = "Quel événement le KDC écrit-il quand il trouve un SPN en double ?"


def _scroll_to_top(page) -> None:
    """The wheel, as a reader scrolls back up to read (a script's scroll stays pinned to the bottom)."""
    scroll_at_rest(page)
    page.mouse.move(page.viewport_size["width"] // 2, 300)
    for _ in range(80):
        if page.evaluate(f"document.querySelector('{SCROLLER}').scrollTop") < 5:
            break
        page.mouse.wheel(0, -600)
        page.wait_for_timeout(50)
    scroll_at_rest(page)


LAPTOP, PHONE = (1366, 768), (390, 844)


@contextmanager
def answered(chat_app, lmstudio, size: tuple[int, int] = LAPTOP) -> Iterator[Any]:  # noqa: F811 - the fixture's value
    """A French page of that size on which QUESTION has been answered, citing two sources."""
    url, _ = chat_app
    lmstudio.answer = ANSWER
    with reader_on_blog(url) as page:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        ask_and_see(page, QUESTION, 1, "Kerberos\\Parameters [1]")
        yield page


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(600)
@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_question_sent_after_scrolling_up_comes_into_view(chat_app, lmstudio, size):  # noqa: F811 - the fixture imported above
    from playwright.sync_api import expect

    with answered(chat_app, lmstudio, size) as page:
        messages = page.get_by_test_id("stChatMessage")
        _scroll_to_top(page)
        expect(messages.nth(0)).to_be_in_viewport()

        lmstudio.stream_parts, lmstudio.chunk_delay = 12, 0.25  # an answer that takes a few seconds
        ask(page, SECOND)
        expect(messages.nth(2)).to_contain_text(SECOND, timeout=MINUTE)
        expect(messages.nth(2)).to_be_in_viewport()  # the question just sent is on screen
        print(f"{size}: the new question's top, px from the window's: "
              f"{messages.nth(2).evaluate('e => e.getBoundingClientRect().top')}")
        settle(page)
        scroll_at_rest(page)
        # The answer was followed to its end: its gestures, under it, are on screen.
        expect(messages.nth(3).get_by_role("button", name="Régénérer")).to_be_in_viewport()
        expect(messages.nth(0)).not_to_be_in_viewport()


def _height_before_gestures(page, message) -> float:
    """How far down the latest answer its gestures start, in px: what a reader scrolls through."""
    button = message.get_by_role("button", name="Régénérer")
    return button.evaluate("(b, m) => b.getBoundingClientRect().top - m.getBoundingClientRect().top",
                           message.element_handle())


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(600)
def test_the_latest_answer_sources_stay_short_and_their_links_still_land(chat_app, lmstudio):  # noqa: F811 - the fixture imported above
    from playwright.sync_api import expect

    from tests.ui.test_browser import jump_to_citation

    with answered(chat_app, lmstudio) as page:
        answer = page.get_by_test_id("stChatMessage").nth(1)
        heights = {}
        for width, height in ((1366, 768), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            scroll_at_rest(page)
            heights[width] = _height_before_gestures(page, answer)
            answer.get_by_role("button", name="Régénérer").scroll_into_view_if_needed()
            shoot(page, f"ask-latest-answer-{width}")
        print(f"answer with 2 sources, px before its gestures: {heights}")
        assert heights[1366] < 1400 and heights[390] < 2000, heights
        # Each cited passage is still reached by its [n], its heading on screen (on the phone, where
        # the second source starts below the window).
        jump_to_citation(page, answer, 2, "cite-blog-t0-2")
        jump_to_citation(page, answer, 1, "cite-blog-t0-1", out_of_sight=False)
        expect(answer.get_by_text("Modifier MaxTokenSize").first).to_be_visible()


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(600)
def test_the_comment_and_edit_boxes_close_once_sent(chat_app, lmstudio):  # noqa: F811 - the fixture imported above
    from playwright.sync_api import expect

    with answered(chat_app, lmstudio) as page:
        messages = page.get_by_test_id("stChatMessage")
        body = page.get_by_test_id("stPopoverBody")
        messages.nth(1).get_by_test_id("stFeedbackButton").nth(1).click()  # thumbs down
        settle(page)
        messages.nth(1).get_by_role("button", name="Commenter").click()
        body.get_by_role("textbox").fill("Il manque la version de Windows concernée.")
        body.get_by_role("button", name="Envoyer").click()
        expect(page.get_by_text("Merci, votre commentaire est transmis aux éditeurs.")).to_be_visible()
        settle(page)
        expect(body).to_have_count(0)  # closed
        messages.nth(1).get_by_role("button", name="Commenter").click()
        expect(body.get_by_role("textbox")).to_have_value("")  # and empty
        page.keyboard.press("Escape")
        settle(page)

        messages.nth(0).get_by_role("button", name="Modifier").click()
        body.get_by_role("textbox").fill("Où se règle MaxTokenSize ?")
        # Streamlit's English "Press Ctrl+Enter to apply" is not drawn under a French field.
        expect(body.get_by_role("textbox")).to_be_focused()
        expect(body.get_by_text("to apply")).to_be_hidden()
        body.get_by_role("button", name="Renvoyer").click()
        expect(messages.nth(0)).to_contain_text("Où se règle MaxTokenSize ?", timeout=MINUTE)
        settle(page)
        expect(body).to_have_count(0)


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(600)
def test_a_fresh_session_opens_an_existing_collection_and_a_deletion_is_confirmed(chat_app, lmstudio):  # noqa: F811 - the fixture imported above
    """The configured collection ("notes") was never made: a fresh editor's page opens "blog",
    the one holding the articles, and the sidebar does not offer "notes"."""
    from playwright.sync_api import expect

    from tests.fixtures.chromium import chromium_page

    url, _ = chat_app
    lmstudio.answer = ANSWER
    with chromium_page(url, width=LAPTOP[0], height=1100, locale="fr-FR") as page:  # the list opens below
        settle(page)
        sidebar = page.get_by_test_id("stSidebar")
        choice = sidebar.get_by_test_id("stSelectbox").first
        expect(choice.locator("input")).to_have_value("blog")
        expect(page.get_by_test_id("stChatInputTextArea")).to_be_visible()  # not the empty collection's start
        choice.click()
        expect(page.get_by_role("option")).to_have_text(["blog"])
        page.keyboard.press("Escape")

        ask_and_see(page, QUESTION, 1, "Kerberos\\Parameters [1]")
        listed = sidebar.get_by_role("button", name=QUESTION[:30])
        expect(listed).to_be_visible()
        trash = sidebar.locator("[class*='st-key-delete_'] button").first  # the trash icon
        trash.click()
        settle(page)
        expect(sidebar.get_by_text("Ses questions et réponses ne pourront pas être retrouvées.")).to_be_visible()
        shoot(page, "ask-delete-confirm")
        sidebar.get_by_role("button", name="Annuler").click()
        settle(page)
        expect(listed).to_be_visible()  # kept
        trash.click()
        settle(page)
        sidebar.get_by_role("button", name="Supprimer", exact=True).click()
        settle(page)
        expect(listed).to_have_count(0)
        expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
