"""The Ask page as a chat, driven with AppTest over the demo index and the LM Studio emulator:
follow-up questions, the gestures under each turn, and conversations kept in the journal and
restored from the page's address."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from streamlit.testing.v1 import AppTest

from rag.answer import followup
from rag.journal.store import Journal
from tests.ui.test_app_ask import APP, IN_BASE, TIMEOUT, ask, start, texts

SECOND = "Comment purger les tickets Kerberos avec klist ?"
FOLLOW_UP = "Et pour un compte de service ?"
REWRITTEN = "Comment purger les tickets Kerberos d'un compte de service avec klist ?"


@pytest.fixture
def chat_env(app_env):
    """The demo index, with a journal of its own for each test (the index is shared, read-only)."""
    shutil.rmtree(app_env.data_dir / "journal", ignore_errors=True)
    yield app_env
    shutil.rmtree(app_env.data_dir / "journal", ignore_errors=True)


def journal(env) -> Journal:
    return Journal.open(env.data_dir, secrets=[])


def routed(answer: str, rewrite: str = REWRITTEN):
    """The emulator's reply: the rewrite to a rewrite request, else the answer."""
    return lambda messages: rewrite if followup.is_rewrite_request(messages) else answer


def answers(at: AppTest) -> list:
    return [m for m in at.chat_message if m.name == "assistant"]


def test_a_follow_up_is_rewritten_shown_and_searched_standalone(chat_env, lmstudio):
    lmstudio.answer = routed("Purgez avec klist purge [1].")
    at = ask(ask(start(), SECOND), FOLLOW_UP)

    assert lmstudio.chat_calls == 3  # answer, rewrite, answer: the first question needed no rewrite
    second = answers(at)[1]
    assert f"understood as: {REWRITTEN}" in texts(second.caption)
    # The model answering gets the standalone question; the rewrite got the conversation.
    assert lmstudio.last_messages()[1]["content"].rstrip().endswith(f"Question : {REWRITTEN}")
    rewrite = [r["body"]["messages"] for r in lmstudio.requests
               if r["path"].endswith("/chat/completions") and followup.is_rewrite_request(r["body"]["messages"])]
    assert len(rewrite) == 1 and SECOND in rewrite[0][1]["content"] and "klist purge [1]" in rewrite[0][1]["content"]
    # The journal keeps both forms.
    entries = journal(chat_env).entries()
    assert [(e.question, e.standalone_question) for e in entries][0] == (FOLLOW_UP, REWRITTEN)


def test_without_the_model_a_follow_up_is_searched_with_the_previous_terms_and_passages_stay(chat_env, lmstudio):
    lmstudio.down()
    at = ask(ask(start(), SECOND), FOLLOW_UP)

    first, second = answers(at)
    # The previous question's subject: its terms the articles use far more than the language does.
    assert "searched with the previous question's terms: purger, Kerberos, klist" in texts(second.caption)
    # The first turn, now an earlier one, still shows the passages that were its answer.
    assert first.expander and first.expander[-1].label.startswith("6 passages found")
    assert "klist" in texts(first.expander[-1].markdown)
    # Reopened, the turn says again how it was searched, as it first did.
    restored = AppTest.from_file(APP, default_timeout=TIMEOUT)
    restored.query_params.update({"conversation": at.session_state["conversation_id"], "collection": "blog"})
    restored.run()
    assert "searched with the previous question's terms: purger, Kerberos, klist" in texts(answers(restored)[1].caption)


def copy_buttons(message) -> list[dict]:
    """The data of each one-click copy button in a chat message: the text it copies, its words."""
    return [json.loads(e.proto.json) for e in message if type(e).__name__ == "UnknownElement"
            and e.type == "bidi_component" and e.proto.component_name == "rag_copy_button"]


def test_copy_gives_the_answer_and_its_sources_as_text(chat_env, lmstudio):
    lmstudio.answer = "Aucun type de chiffrement commun [1]. <img src=x onerror=alert(1)>"
    at = ask(start(), IN_BASE)

    (button,) = copy_buttons(answers(at)[0])
    copied = button["text"]
    assert copied.startswith("Aucun type de chiffrement commun [1]. <img src=x onerror=alert(1)>")
    assert "Sources" in copied and "[1]" in copied.split("Sources", 1)[1] and "kerberos-erreurs.md" in copied
    # One click, said in the reader's words; no popover to open, no code box to hover.
    assert (button["label"], button["done"]) == ("Copy", "Copied")
    assert not answers(at)[0].code and not [p for p in answers(at)[0] if type(p).__name__ == "Popover"
                                            and "Copy" in getattr(p, "label", "")]


def test_thumbs_are_recorded_with_the_question_passages_and_answer(chat_env, lmstudio):
    lmstudio.answer = "Aucun type de chiffrement commun [1]."
    at = ask(start(), IN_BASE)

    at.feedback[0].set_value(0).run()  # thumbs down
    assert not at.exception
    (entry,) = journal(chat_env).entries()
    assert entry.question == IN_BASE and entry.answer == "Aucun type de chiffrement commun [1]."
    assert len(entry.passages) == 6 and entry.passages[0]["text"] and entry.citations == [1]
    assert [(f.rating, f.reader) for f in entry.feedback] == [(-1, "")]
    assert "recorded" in texts(at.toast)
    at.feedback[0].set_value(1).run()  # a new vote replaces the first
    assert [f.rating for f in journal(chat_env).entry(entry.id).feedback] == [1]


def test_regenerate_asks_the_last_question_again_in_its_place(chat_env, lmstudio):
    lmstudio.answer = "Première réponse [1]."
    at = ask(start(), IN_BASE)
    lmstudio.answer = "Seconde réponse [1]."
    at.button(key="regenerate_0").click().run()
    assert not at.exception

    assert lmstudio.chat_calls == 2
    assert len(answers(at)) == 1 and "Seconde réponse" in answers(at)[0].markdown[0].value
    assert "Première réponse" not in texts(at.markdown)


def test_edit_and_resend_replaces_the_question_and_what_followed(chat_env, lmstudio):
    lmstudio.answer = "Réponse [1]."
    at = ask(ask(start(), IN_BASE), SECOND)
    # Titled for what it holds before anything is edited (it read "Edited question").
    assert at.text_area(key="edit_0").label == "Your question, to edit and send again"
    at.text_area(key="edit_0").input("Que signifie KRB_AP_ERR_MODIFIED ?")
    at.button(key="resend_0").click().run()
    assert not at.exception

    users = [m for m in at.chat_message if m.name == "user"]
    assert [u.markdown[0].value for u in users] == ["Que signifie KRB_AP_ERR_MODIFIED ?"]
    # A reload shows what the screen shows: the replaced turns are not replayed.
    conversation = at.session_state["conversation_id"]
    restored = AppTest.from_file(APP, default_timeout=TIMEOUT)
    restored.query_params["conversation"] = conversation
    restored.run()
    assert [m.markdown[0].value for m in restored.chat_message if m.name == "user"] == [
        "Que signifie KRB_AP_ERR_MODIFIED ?"]


def test_a_stopped_stream_keeps_its_text_as_the_turn(chat_env, lmstudio):
    """A click during a stream ends the running script (Streamlit's rerun): the next run turns the
    text streamed so far into the turn. The browser test clicks Stop itself."""
    lmstudio.answer = "Réponse complète [1]."
    at = ask(start(), IN_BASE)
    state = at.session_state
    (item,) = state["history"]
    # What the page keeps while it streams, as a stop would leave it: the turn not yet kept.
    from ui.chat_actions import STREAMING
    from rag.answer.engine import AnswerEngine
    from rag.config import Settings
    from rag.servers.chat import LLMClient

    result = item["result"]
    lmstudio.answer = "Le KDC ne trouve aucun type de chiffrement commun [1]."
    llm = LLMClient(lmstudio.url)
    engine = AnswerEngine(Settings.from_env(), retriever=lambda q: result.passages, llm=llm)
    turn = engine.chat(IN_BASE)
    pieces = iter(turn)
    next(pieces), next(pieces)
    state["history"] = []
    state[STREAMING] = {"question": IN_BASE, "turn_number": 5, "index": 0, "turn": turn,
                        "text": turn.text, "understood": None, "collection": "blog",
                        "conversation": state["conversation_id"]}
    at.run()
    assert not at.exception
    (shown,) = answers(at)
    assert "Le KDC ne trouve aucun" in shown.markdown[0].value
    assert "chiffrement commun" not in shown.markdown[0].value
    assert "Answer stopped before the end." in texts(shown.caption)
    assert STREAMING not in at.session_state
    assert at.session_state["history"][0]["result"].outcome == "stopped"


def test_a_citation_opens_the_text_it_rests_on_and_web_sources_link_to_the_article(chat_env, lmstudio):
    """Source [1] and the popover of [1] show the passage as the model received it, the sentence the
    answer's citation rests on brought forward, titled with the section that text is in."""
    lmstudio.answer = "Purgez le cache avec `klist purge` [1]."
    at = ask(start(), "Comment purger les tickets Kerberos ?")
    item = at.session_state["history"][0]
    passage = item["result"].sources[0]
    assert "klist purge" in passage.text  # what the model read
    sent = lmstudio.last_messages()[-1]["content"]
    assert passage.text.strip() in sent
    in_source = texts(at.container(key="cited-span-source-0-1").markdown)
    in_popover = texts(at.container(key="cited-span-popover-0-1").markdown)
    assert "klist purge" in in_source and in_source == in_popover
    answer = answers(at)[0].markdown[0].value
    assert "](#cite-blog-t0-1" in answer and "klist purge" not in re.search(r'\(#cite-blog-t0-1[^)]*\)', answer).group(0)
    heading = answers(at)[0].subheader[0].value
    assert "Introduction" not in heading
    # The source of a web article links to it; the demo's files have no web address.
    source = answers(at)[0].subheader[0].value
    assert "open_in_new" not in source
    from types import SimpleNamespace
    from ui.present.answer import source_heading

    web = source_heading(SimpleNamespace(n=1, title="Kerberos", section="", url="https://blog.example/kerberos"))
    assert "[:material/open_in_new: article](https://blog.example/kerberos" in web
    assert "open_in_new" not in source_heading(SimpleNamespace(n=1, title="x", section="", url="javascript:alert(1)"))


def test_two_questions_come_back_after_a_reload_with_their_passages_and_links(chat_env, lmstudio):
    lmstudio.answer = "Réponse appuyée sur le premier extrait [1]."
    at = ask(ask(start(), IN_BASE), SECOND)
    conversation = at.query_params["conversation"]
    assert conversation == at.session_state["conversation_id"] and at.query_params["collection"] == "blog"

    restored = AppTest.from_file(APP, default_timeout=TIMEOUT)
    restored.query_params.update({"conversation": conversation, "collection": "blog"})
    restored.run()
    assert not restored.exception
    users = [m.markdown[0].value for m in restored.chat_message if m.name == "user"]
    assert users == [IN_BASE, SECOND]
    first, last = answers(restored)
    # Each turn keeps its citations: [1] links to that turn's own source, followed by its passage.
    anchors = [h.anchor for h in first.subheader] + [h.anchor for h in last.subheader]
    assert len(anchors) == len(set(anchors)) == 2
    assert f"(#{first.subheader[0].anchor}" in first.markdown[0].value
    assert "klist" in texts(last.markdown)
    assert last.expander[0].label.startswith("6 passages found")
    # The conversation is listed in the sidebar, the current one marked.
    assert any(IN_BASE[:20] in b.label for b in restored.sidebar.button)
    assert lmstudio.chat_calls == 2  # nothing was asked again


def test_a_conversation_is_its_readers_only_and_an_editor_can_delete_it(chat_env, lmstudio):
    book = journal(chat_env)
    theirs = book.start_conversation(reader="someone@example.com", collection="blog", title="Leur conversation")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["conversation"] = theirs.id
    at.run()
    assert not at.exception
    assert not [m for m in at.chat_message]  # not restored: a new conversation starts
    assert "not yours" in texts(at.toast)
    assert "conversation" not in at.query_params
    assert not any("Leur conversation" in b.label for b in at.sidebar.button)

    ask(at, IN_BASE)
    mine = at.session_state["conversation_id"]
    at.button(key=f"delete_{mine}").click().run()  # the open dashboard's user is an editor
    assert book.conversation(mine) is not None  # not yet: a deletion is confirmed first
    assert "cannot be brought back" in texts(at.sidebar.caption)
    at.button(key=f"delete_no_{mine}").click().run()  # Cancel: kept, the question gone
    assert book.conversation(mine) is not None and not [b for b in at.button if b.key == f"delete_yes_{mine}"]
    at.button(key=f"delete_{mine}").click().run()
    at.button(key=f"delete_yes_{mine}").click().run()
    assert book.conversation(mine) is None and book.conversation(theirs.id) is not None
    assert not at.chat_message


def test_readers_sharing_a_password_never_see_each_others_conversations(chat_env, lmstudio, monkeypatch):
    from tests.ui.test_app_roles import READER_PASSWORD, sign_in

    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    lmstudio.answer = "Aucun type de chiffrement commun [1]."
    first = ask(sign_in(READER_PASSWORD), IN_BASE)
    theirs = first.session_state["conversation_id"]
    assert any(IN_BASE[:20] in b.label for b in first.sidebar.button)  # listed for its reader

    second = sign_in(READER_PASSWORD)  # another browser, the same password
    assert not any(IN_BASE[:20] in b.label for b in second.sidebar.button)
    third = AppTest.from_file(APP, default_timeout=TIMEOUT)
    third.query_params["conversation"] = theirs  # even named in the address
    third.run().text_input[0].input(READER_PASSWORD)
    third.button[0].click().run()
    assert third.chat_input and not [m for m in third.chat_message] and "not yours" in texts(third.toast)
    # The journal still tells the two readers apart, and names neither.
    readers = {e.reader for e in journal(chat_env).entries()}
    assert len(readers) == 1 and "" not in readers


def test_a_password_readers_conversation_is_still_in_their_sidebar_after_the_app_restarts(chat_env, lmstudio,
                                                                                         monkeypatch):
    from tests.ui.test_app_roles import READER_PASSWORD, sign_in
    from ui import sessions

    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    lmstudio.answer = "Aucun type de chiffrement commun [1]."
    before = ask(sign_in(READER_PASSWORD), IN_BASE)
    device = before.session_state["device_token"]  # what the browser's device cookie holds
    sessions.BOOKS.clear()  # the editor restarts the app: a new process signs with the key it reads

    after = AppTest.from_file(APP, default_timeout=TIMEOUT)
    after.session_state["device_token"] = device  # the reload after the restart sends the cookie back
    after.run().text_input[0].input(READER_PASSWORD)
    after.button[0].click().run()
    assert not after.exception and after.chat_input
    assert any(IN_BASE[:20] in b.label for b in after.sidebar.button)


def test_a_regenerated_answer_keeps_the_earlier_one_to_browse_back_to(chat_env, lmstudio):
    """As in chat tools: "2/2" under a regenerated answer, the arrow back shows the first one."""
    from rag.journal.answer_versions import versions_of

    lmstudio.answer = "Première réponse [1]."
    at = ask(start(), IN_BASE)
    assert not [c for c in texts(at.caption).splitlines() if c.startswith("version ")]  # one answer: no arrows
    lmstudio.answer = "Seconde réponse [1]."
    at.button(key="regenerate_0").click().run()
    assert "version 2 of 2" in texts(answers(at)[0].caption)

    back = next(b for b in at.button if b.key.startswith("version_back_"))
    back.click().run()
    assert "Première réponse" in answers(at)[0].markdown[0].value and "Seconde réponse" not in texts(at.markdown)
    assert "version 1 of 2" in texts(answers(at)[0].caption)
    next(b for b in at.button if b.key.startswith("version_next_")).click().run()
    assert "Seconde réponse" in answers(at)[0].markdown[0].value
    # Both stay in the journal, as the conversation's first turn; an edited question is no version.
    conversation = at.session_state["conversation_id"]
    turns = journal(chat_env).turns(conversation)
    assert [e.answer.split()[0] for e in versions_of(turns, 1, IN_BASE)] == ["Première", "Seconde"]
    assert versions_of(turns, 1, "Une autre question ?") == []
