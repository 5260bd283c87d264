"""One conversation turn in a real browser, the LM Studio stand-in counting the chat calls: source
[1] and the popover of [1] show the passage text the citation rests on (`klist purge`); an off-topic
question asked after an in-base one is refused with no answer call; a refused turn looks the same
after a reload; a stopped answer is "stopped" in the Journal's list and in its CSV."""

from __future__ import annotations

import csv
import io

import pytest

from tests.fixtures.chat_app import ask, ask_and_see, ask_and_stop, chat_app, reader_on_blog  # noqa: F401 - chat_app: the fixture
from tests.ui.test_browser import MINUTE, go, settle

KERBEROS = "Comment purger les tickets Kerberos ?"
OFF_TOPIC = "Et avec keepalived ?"
CITED = "Purgez le cache avec `klist purge` [1]."
SAME_REFUSAL = "serait refusée de nouveau"


@pytest.mark.slow  # a streamlit server, chromium, the demo index
@pytest.mark.timeout(900)
def test_a_turn_is_checkable_gated_kept_and_journaled_as_shown(chat_app, lmstudio):  # noqa: F811 - the fixture
    from playwright.sync_api import expect

    url, data = chat_app
    lmstudio.answer = CITED
    with reader_on_blog(url) as page:
        messages = page.get_by_test_id("stChatMessage")

        # [1]'s source: the passage as the model read it, what [1] rests on brought forward.
        ask_and_see(page, KERBEROS, 1, "klist purge")
        settle(page)
        expect(page.locator(".st-key-cited-span-source-0-1")).to_contain_text("klist purge")
        # The popover of [1], opened from the keyboard: the same text.
        opener = messages.nth(1).get_by_role("button", name="[1]", exact=True)
        opener.focus()
        opener.press("Enter")
        expect(page.locator(".st-key-cited-span-popover-0-1")).to_contain_text("klist purge")
        page.keyboard.press("Escape")

        # Off topic after an in-base question: refused as asked, no rewrite and no answer call.
        calls = lmstudio.chat_calls
        ask(page, OFF_TOPIC)
        expect(messages).to_have_count(4, timeout=MINUTE)
        expect(messages.nth(3)).to_contain_text("keepalived", timeout=MINUTE)
        expect(messages.nth(3)).to_contain_text(SAME_REFUSAL)
        settle(page)
        assert lmstudio.chat_calls == calls
        expect(messages.nth(3).get_by_role("button", name="Régénérer")).to_have_count(0)
        expect(messages.nth(1).get_by_text("klist purge").first).to_be_visible()

        # A reload: the refused turn as it was, its note, no "Régénérer".
        page.reload()
        settle(page)
        expect(messages).to_have_count(4, timeout=MINUTE)
        expect(messages.nth(3)).to_contain_text(SAME_REFUSAL)
        expect(messages.nth(3).get_by_role("button", name="Régénérer")).to_have_count(0)

        # A stopped answer: what came is kept, and the journal says it was stopped.
        ask_and_stop(page, lmstudio, "Comment lister les tickets Kerberos avec klist ?", 5)

        go(page, url, "Journal")
        expect(page.get_by_role("heading", name="Journal des questions")).to_be_visible()
        expect(page.get_by_test_id("stExpander").filter(has_text="interrompu")).to_have_count(1)
        with page.expect_download() as download:
            page.get_by_role("button", name="Télécharger le journal (CSV)").click()
        rows = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8-sig").read())))
        outcomes = {r["question"]: r["outcome"] for r in rows}
        assert outcomes["Comment lister les tickets Kerberos avec klist ?"] == "stopped"
        assert outcomes[OFF_TOPIC] == "refused_gate"
