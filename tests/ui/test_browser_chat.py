"""The Ask page as a chat in a real browser: `streamlit run` as a subprocess over a copy of the demo
index, Playwright driving Debian's chromium. Two questions (the second a follow-up the emulator
rewrites), copy, thumbs, a reload that brings back the conversation and the collection, the
popover of [n], and a streaming answer stopped halfway."""

from __future__ import annotations

import pytest

from rag.answer import followup
from rag.journal.store import Journal
from tests.fixtures.chat_app import QUESTION, ask, ask_and_see, ask_and_stop, chat_app, reader_on_blog  # noqa: F401 - chat_app: the fixture
from tests.ui.test_browser import MINUTE, settle

ANSWER = "MaxTokenSize se règle sous HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters [1]."
FOLLOW_UP = "Quelle est sa valeur par défaut ?"
REWRITTEN = "Quelle est la valeur par défaut de MaxTokenSize ?"


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(900)
def test_a_conversation_survives_a_reload_and_the_gestures_work(chat_app, lmstudio):  # noqa: F811 - the fixture imported above
    from playwright.sync_api import expect

    url, data = chat_app
    lmstudio.answer = lambda messages: REWRITTEN if followup.is_rewrite_request(messages) else ANSWER
    with reader_on_blog(url, permissions=["clipboard-read", "clipboard-write"]) as page:
        sidebar = page.get_by_test_id("stSidebar")
        messages = page.get_by_test_id("stChatMessage")

        # Two questions, the second a follow-up: the rewritten question is shown.
        ask_and_see(page, QUESTION, 1, "Kerberos\\Parameters [1]")
        ask(page, FOLLOW_UP)
        expect(messages).to_have_count(4, timeout=MINUTE)
        expect(messages.nth(3)).to_contain_text(f"question comprise : {REWRITTEN}", timeout=MINUTE)
        settle(page)

        # [1] under the answer opens what it rests on, in the passage the model read (a popover).
        messages.nth(3).get_by_role("button", name="[1]", exact=True).click()
        expect(page.locator(".st-key-cited-span-popover-1-1")).to_contain_text("MaxTokenSize")
        page.keyboard.press("Escape")

        # Copy, one click: the answer's text, as written, and its sources on the clipboard, said in French.
        copy = messages.nth(3).get_by_role("button", name="Copier")
        expect(copy).to_have_attribute("title", "Copie la réponse et ses sources, en texte")
        copy.click()
        expect(messages.nth(3).get_by_role("button", name="Copié")).to_be_visible()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied.startswith(ANSWER) and "Sources" in copied

        # Thumbs up on the second answer: said, and recorded in the journal with the turn.
        messages.nth(3).get_by_test_id("stFeedbackButton").first.click()
        expect(page.get_by_text("Merci, votre avis est enregistré.")).to_be_visible()
        entries = Journal.open(data, secrets=[]).entries()
        voted = [e for e in entries if e.feedback]
        assert [(e.question, e.standalone_question, e.feedback[0].rating) for e in voted] == [
            (FOLLOW_UP, REWRITTEN, 1)]
        assert voted[0].passages and voted[0].answer == ANSWER

        # A reload: the conversation and the collection are back, nothing asked again.
        calls = lmstudio.chat_calls
        assert "conversation=" in page.url and "collection=blog" in page.url
        page.reload()
        settle(page)
        expect(messages).to_have_count(4)
        expect(messages.nth(0)).to_contain_text(QUESTION)
        expect(messages.nth(3)).to_contain_text(f"question comprise : {REWRITTEN}")
        expect(messages.nth(1)).to_contain_text("Kerberos\\Parameters [1]")
        expect(sidebar.get_by_test_id("stSelectbox").first.locator("input")).to_have_value("blog")
        expect(page.get_by_text("Les réponses viennent uniquement de la collection")).to_contain_text("blog")
        expect(sidebar.get_by_role("button", name=QUESTION[:30])).to_be_visible()
        assert lmstudio.chat_calls == calls

        # Stop: a slow stream stopped halfway keeps what was written, and says so.
        ask_and_stop(page, lmstudio, "Quel événement du journal Système le KDC écrit-il quand il trouve un SPN en double ?", 5)
        expect(messages.nth(5)).not_to_contain_text("fin-de-la-réponse")
        expect(messages).to_have_count(6)
