"""A reader's day and an editor's, in a real browser (`streamlit run`, Debian's chromium), in French:
a hello, a question and a follow-up, a thumbs-down with a word on why, a question on something else, then
the editor's journal (the follow-up as it was understood, where it was asked, the reader's
comment, the changed subject refused) and the Ingest page's headings, every field filled."""

from __future__ import annotations

import re

import pytest

from rag.answer import followup
from rag.journal.store import Journal
from rag.i18n import language
from ui.present.times import local_minute
from tests.fixtures.chat_app import QUESTION, ask, ask_and_see, chat_app, reader_on_blog  # noqa: F401 - chat_app: the fixture
from tests.ui.test_browser import MINUTE, go, settle

ANSWER = "MaxTokenSize se règle sous HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters [1]."
FOLLOW_UP = "et sur Windows Server 2012 ?"
REWRITTEN = "Quelle est la valeur par défaut de MaxTokenSize sur Windows Server 2012 ?"
COMMENT = "Il manque la valeur exacte en octets."
OFF_TOPIC = "Comment faire une pâte à crêpes ?"


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(900)
def test_a_readers_questions_and_comment_reach_the_editors_journal(chat_app, lmstudio):  # noqa: F811 - the fixture imported above
    from playwright.sync_api import expect

    url, data = chat_app

    def reply(messages):
        if followup.is_rewrite_request(messages):
            # A faithful rewrite: the follow-up made standalone, any other question as it is.
            last = messages[-1]["content"].rsplit("Dernière question : ", 1)[-1].split("\n", 1)[0]
            return REWRITTEN if last == FOLLOW_UP else last
        return ANSWER

    lmstudio.answer = reply
    with reader_on_blog(url, timezone="Europe/Paris") as page:
        messages = page.get_by_test_id("stChatMessage")

        # Hello first: a word back, nothing refused, kept in its place in the conversation.
        ask_and_see(page, "Bonjour !", 1, "Bonjour ! Je réponds aux questions sur les articles de la collection blog")
        expect(messages.nth(1)).to_contain_text("Bonjour ! Je réponds")

        # A question, its follow-up, a thumbs-down and why.
        ask_and_see(page, QUESTION, 3, "Kerberos\\Parameters [1]")
        ask_and_see(page, FOLLOW_UP, 5, f"question comprise : {REWRITTEN}")
        expect(messages.nth(5).get_by_role("button", name="Commenter")).to_have_count(0)  # no vote yet
        messages.nth(5).get_by_test_id("stFeedbackButton").nth(1).click()
        settle(page)
        messages.nth(5).get_by_role("button", name="Commenter").click()
        popover = page.get_by_test_id("stPopoverBody")
        popover.get_by_label("Qu'est-ce qui manquait ou était faux ?").fill(COMMENT)
        popover.get_by_role("button", name="Envoyer").click()
        expect(page.get_by_text("Merci, votre commentaire est transmis aux éditeurs.")).to_be_visible()
        settle(page)
        voted = [e for e in Journal.open(data, secrets=[]).entries() if e.feedback]
        assert [(e.question, e.feedback[0].rating, e.feedback[0].comment) for e in voted] == [
            (FOLLOW_UP, -1, COMMENT)]

        # Then something else: refused, and the refusal names it.
        page.keyboard.press("Escape")
        ask(page, OFF_TOPIC)
        expect(messages).to_have_count(8, timeout=MINUTE)
        expect(messages.nth(7)).to_contain_text("Aucun article ne parle de : crêpes", timeout=MINUTE)
        settle(page)

        # The editor's journal: the follow-up as understood, where it was asked, the comment.
        go(page, url, "Journal")
        rows = page.get_by_test_id("stExpander")
        followed = rows.filter(has_text=FOLLOW_UP)
        followed.locator("summary").click()
        expect(followed).to_contain_text(f"question comprise : {REWRITTEN}")
        expect(followed).to_contain_text("posée depuis la page Questions")
        # On the editor's clock (Paris), not UTC.
        asked = next(e for e in Journal.open(data, secrets=[]).entries() if e.question == FOLLOW_UP)
        with language("fr"):  # as the French page writes it: 1 déc. 2026, 20:04
            when = local_minute(asked.time, "Europe/Paris")
            assert when != local_minute(asked.time, "UTC")
        expect(followed.locator("summary")).to_contain_text(f"{when} · ")
        expect(followed).to_contain_text(f"👎 {COMMENT}")
        expect(followed.get_by_label("Question (telle qu'elle sera rejouée)")).to_have_value(REWRITTEN)
        expect(rows.filter(has_text=OFF_TOPIC).first).to_contain_text("refusé par le filtre")

        # The Ingest page: its headings with every field filled.
        go(page, url, "Import")
        expect(page.get_by_role("heading", name="Indexer dans une collection")).to_be_visible(timeout=MINUTE)
        main = page.get_by_test_id("stMainBlockContainer").inner_text()
        assert not re.search(r"\{[a-z_]+\}", main), re.findall(r"[^\n]*\{[a-z_]+\}[^\n]*", main)
