"""The conversation list as readers of chat tools expect it: found again by a word of a question,
renamed, and downloaded as Markdown with the sources the answer cites."""

from __future__ import annotations

from rag.i18n import language
from rag.journal.conversation_export import conversation_markdown
from rag.journal.conversation_search import matching
from rag.journal.records import Conversation, Entry
from tests.ui.test_app_ask import IN_BASE, ask, start
from tests.ui.test_app_chat import SECOND, chat_env, journal  # noqa: F401 - the fixture: a journal per test

ANSWER = "MaxTokenSize se règle dans le registre [1]."


def _sidebar_titles(at) -> list[str]:
    return [b.label for b in at.sidebar.button if b.key and b.key.startswith("conversation_")]


def test_a_conversation_is_found_again_renamed_and_downloaded_with_its_sources(chat_env, lmstudio):  # noqa: F811
    lmstudio.answer = ANSWER
    at = ask(start(), SECOND)
    at.button(key="new_conversation").click().run()
    at = ask(at, IN_BASE)
    assert len(_sidebar_titles(at)) == 2
    # Words of one question, whatever their case, find that conversation alone.
    at.text_input(key="conversation_search").set_value("KLIST purger").run()
    assert _sidebar_titles(at) == [SECOND]
    at.text_input(key="conversation_search").set_value("Veeam").run()
    assert _sidebar_titles(at) == [] and "No conversation holds these words." in [c.value for c in at.sidebar.caption]
    at.text_input(key="conversation_search").set_value("").run()

    mine = at.session_state["conversation_id"]
    at.text_input(key=f"rename_{mine}").set_value("Registre Kerberos").run()
    assert "Registre Kerberos" in _sidebar_titles(at)
    assert journal(chat_env).conversation(mine).title == "Registre Kerberos"

    download = at.get("download_button")[0]
    assert download.proto.label == "Download as Markdown, with its sources"


def test_the_markdown_copy_holds_each_question_its_answer_and_the_sources_it_cites():
    cited = {"n": 1, "title": "Token bloat [Kerberos]", "section": "Registre", "url": "https://blog.example/kerberos/"}
    other = {"n": 2, "title": "Jamais cité", "section": "", "url": "https://blog.example/autre/"}
    entries = [
        Entry(question="Bonjour", outcome="answered", small_talk="greeting"),
        Entry(question="Où se règle MaxTokenSize ?", outcome="answered", answer="Dans le registre [1].\n\n# pas un titre",
              passages=[cited, other], citations=[1]),
        Entry(question="Comment configurer Veeam ?", outcome="refused_gate"),
    ]
    with language("fr"):
        text = conversation_markdown("Registre", entries)
    assert text.startswith("# Registre\n\n## 1. Où se règle MaxTokenSize ?\n\n> Dans le registre [1].")
    assert "> # pas un titre" in text  # the model's text stays quoted: no heading of its own
    assert "- [1] Token bloat \\[Kerberos\\] — Registre <https://blog.example/kerberos/>" in text
    assert "Jamais cité" not in text and "Bonjour" not in text
    assert "## 2. Comment configurer Veeam ?\n\n*Refusée : les articles ne traitent pas cette question.*" in text


def test_a_search_needs_every_word_whatever_the_accents():
    chats = [Conversation("a", title="Délégation Kerberos"), Conversation("b", title="Veeam")]
    questions = {"b": ["Comment sauvegarder un contrôleur de domaine ?"]}
    assert [c.id for c in matching(chats, questions, "kerberos delegation")] == ["a"]
    assert [c.id for c in matching(chats, questions, "controleur veeam")] == ["b"]
    assert [c.id for c in matching(chats, questions, "kerberos veeam")] == []
    assert [c.id for c in matching(chats, questions, "  ")] == ["a", "b"]
