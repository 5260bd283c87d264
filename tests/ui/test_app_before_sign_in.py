"""Earlier work across a change of sign-in: when the dashboard goes from open mode to passwords, the
conversations asked in open mode are offered to the editor to carry over, and the evaluation runs
made unfiltered are said, with where they are and how to see them; a conversation reopened after its
reader's groups changed shows only what they may read now."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.ui.test_app_ask import APP, IN_BASE, TIMEOUT, ask, texts
from tests.ui.test_app_chat import chat_env, journal  # noqa: F401 - chat_env: the fixture
from tests.ui.test_app_access import AUTH
from tests.ui.test_app_roles import EDITOR_PASSWORD, EVALUATE, READER_PASSWORD, ok, sign_in
from tests.ui.test_app_roles import two_collections  # noqa: F401 - the fixture


def _listed(at: AppTest) -> bool:
    return any(IN_BASE[:20] in b.label for b in at.sidebar.button)


def test_conversations_asked_in_open_mode_are_offered_to_the_editor_and_carried_over(chat_env, lmstudio,  # noqa: F811
                                                                                      monkeypatch):
    lmstudio.answer = "Aucun type de chiffrement commun [1]."
    before = ask(ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run()), IN_BASE)  # open mode
    assert _listed(before)
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)

    reader = sign_in(READER_PASSWORD)  # a reader is offered nothing and sees nothing of it
    assert not _listed(reader) and "before sign-in" not in texts(reader.sidebar.caption)

    editor = sign_in(EDITOR_PASSWORD)
    assert not _listed(editor)
    said = texts(editor.sidebar.caption)
    assert "1 conversation was asked before sign-in was required" in said
    assert str(chat_env.data_dir / "journal") in said
    editor.button(key="carry_over").click().run()
    assert _listed(ok(editor)) and "before sign-in" not in texts(editor.sidebar.caption)
    assert "Conversations carried over: 1." in texts(editor.toast)
    owner = journal(chat_env).conversations(journal(chat_env).entries()[0].reader)
    assert len(owner) == 1 and owner[0].reader.endswith(":editor")
    assert not _listed(sign_in(READER_PASSWORD))  # still not the reader's


def _unfiltered_run(data_dir) -> None:
    run = data_dir / "evals" / "blog" / "2026-01-05T10-00-00"
    run.mkdir(parents=True)
    (run / "results.json").write_text(json.dumps({"summary": {"date": "2026-01-05T10:00:00", "collection": "blog",
                                                              "groups": None}}))


def test_runs_made_in_open_mode_are_said_to_an_editor_who_cannot_list_them(app_env_empty, monkeypatch):
    _unfiltered_run(app_env_empty)
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run().switch_page(EVALUATE).run()
    at.text_input[0].input(EDITOR_PASSWORD)
    at.button[0].click().run()
    said = texts(ok(at).info)
    assert "1 évaluation précédente a été faite avec tous les documents lisibles" in said
    assert str(app_env_empty / "evals") in said and "RAG_ADMINS" in said and "password:editor" in said

    monkeypatch.setenv("RAG_ADMINS", "password:editor")  # the way the note gives: an administrator lists them
    admin = AppTest.from_file(APP, default_timeout=TIMEOUT).run().switch_page(EVALUATE).run()
    admin.text_input[0].input(EDITOR_PASSWORD)
    admin.button[0].click().run()
    assert "évaluation précédente" not in texts(ok(admin).info)


def test_a_conversation_reopened_after_its_reader_lost_a_group_shows_nothing_of_that_group(two_collections,  # noqa: F811
                                                                                             monkeypatch, lmstudio):
    from tests.ui.test_app_roles import oidc_app

    lmstudio.answer = "Le KDC délivre les tickets [1][2][3]."
    alice = dict(email="alice@example.com", email_verified=True, sub="idp|1")
    at = oidc_app(monkeypatch, '{"alice@example.com": ["staff"]}', "{}", **alice)
    ask(at, "Qui délivre les tickets du KDC ?")
    conversation = at.session_state["conversation_id"]
    asked = journal_entries(conversation)
    assert any("staff" in p["access"] for e in asked for p in e.passages)  # a staff passage was read

    again = AppTest.from_file(APP, default_timeout=TIMEOUT)  # the same person, since taken out of `staff`
    again.secrets["auth"] = AUTH
    again.user = {"is_logged_in": True, **alice}
    monkeypatch.setenv("RAG_USERS_GROUPS", "{}")
    again.query_params.update({"conversation": conversation, "collection": "blog"})
    ok(again.run())
    shown = "\n".join(texts(m.markdown) + texts(m.caption) for m in again.chat_message)
    assert "Qui délivre les tickets" in shown  # their question is still theirs
    assert "staff-a.md" not in shown and "staff-b.md" not in shown
    assert "Le KDC délivre les tickets [1]" not in shown  # the answer was written from staff passages
    assert "access groups do not include" in shown


def journal_entries(conversation: str):
    import os
    from pathlib import Path

    from rag.journal.store import Journal

    return Journal.open(Path(os.environ["RAG_DATA_DIR"]), secrets=[]).turns(conversation)
