"""Readers and editors in the dashboard, and the breaks of the security review a browser user could
reach: driven headless with AppTest over the demo index and the LM Studio emulator."""

from __future__ import annotations

import os
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.ingest.run import ingest
from rag.store.store import Store
from tests.ui.test_app_access import AUTH
from ui.i18n import WORDS

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "streamlit_app.py")
ASK, INGEST, EVALUATE, JOURNAL = ("app_pages/1_Ask.py", "app_pages/2_Ingest.py", "app_pages/3_Evaluate.py",
                                  "app_pages/4_Journal.py")
TIMEOUT = 120
READER_PASSWORD, EDITOR_PASSWORD = "reader horse battery", "editor staple"
KEY = "llm-KEY-77aa10"
URL_PASSWORD = "URLPASS-5e1f"


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


def sidebar_text(at: AppTest) -> str:
    return texts(list(at.sidebar.markdown) + list(at.sidebar.caption) + list(at.sidebar.warning))


@pytest.fixture
def passwords(app_env, monkeypatch):
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)
    return app_env


def login_screen(page: str = ASK) -> AppTest:
    # Under AppTest a form filled on the very first run is lost: name the page first, as a link does.
    return AppTest.from_file(APP, default_timeout=TIMEOUT).run().switch_page(page).run()


def sign_in(password: str, page: str = ASK) -> AppTest:
    at = login_screen(page)
    at.text_input[0].input(password)
    at.button[0].click().run()
    return ok(at)


def editor_controls(at: AppTest) -> list[str]:
    return [e.label for e in at.sidebar.expander if e.label == "Session settings"]


def test_a_reader_asks_and_reaches_no_editor_page_or_control(passwords):
    at = sign_in(READER_PASSWORD)
    assert at.session_state["role"] == "reader" and len(at.chat_input) == 1
    assert "Signed in with the reader password · groups: public" in texts(at.sidebar.caption)
    assert editor_controls(at) == [] and not at.sidebar.text_input and not at.sidebar.number_input
    assert [p.title for p in at.sidebar.get("page_link")] in ([], ["Ask"])  # no editor page listed
    for page in (INGEST, EVALUATE, JOURNAL):  # followed by a link: said in words, nothing of it drawn
        ok(at.switch_page(page).run())
        [refusal] = at.error
        assert refusal.value.startswith("This page is for editors: readers cannot open it. To open it as an editor, "
                                        "click “Sign out” at the bottom of the sidebar, then sign in with the editor "
                                        "password"), refusal.value
        assert "Page not found" not in texts(at.main.markdown) and not at.title and not at.main.button
        assert not at.file_uploader and not at.main.radio and not at.dataframe and editor_controls(at) == []


@pytest.mark.parametrize("page, control", [(INGEST, "radio"), (EVALUATE, "button")])
def test_an_editor_page_refuses_a_reader_even_when_run_directly(passwords, page, control):
    at = AppTest.from_file(str(ROOT / page), default_timeout=TIMEOUT)
    at.session_state["role"] = "reader"  # as the gate records it for a reader
    ok(at.run())
    # Run alone, the page has not been through the frame's language choice: French, the default.
    assert [e.value for e in at.error] == [WORDS.texts["fr"]["access.editors_only"].format(
        sign_out="Se déconnecter", ask="Questions")]
    assert not getattr(at, control) and not at.file_uploader and not at.title[1:]


def test_an_editor_signs_in_on_the_page_they_asked_for_and_has_every_control(passwords):
    at = sign_in(EDITOR_PASSWORD, page=INGEST)
    assert at.title[0].value == "Ingest" and at.session_state["role"] == "editor"
    assert editor_controls(at) == ["Session settings"]
    ok(at.switch_page(EVALUATE).run())
    assert at.title[0].value == "Evaluate"


def test_wrong_passwords_lock_the_client_out_even_from_the_right_one(passwords, caplog):
    at = login_screen()
    for _ in range(5):
        at.text_input[0].input("guess")
        at.button[0].click().run()
    at.text_input[0].input(EDITOR_PASSWORD)
    at.button[0].click().run()
    assert not at.chat_input and at.error[0].value.startswith("Too many wrong passwords: try again in")
    # Each guess counts against both accounts, each said in the log with the account tried.
    failures = [r.getMessage() for r in caplog.records if "wrong password from" in r.getMessage()]
    assert len(failures) == 10 and sum(m.startswith("wrong password from editor|") for m in failures) == 5


def test_a_reader_cannot_point_the_session_at_another_server(passwords, monkeypatch, lmstudio, fake_embeddings_server):
    elsewhere = fake_embeddings_server()
    monkeypatch.setenv("RAG_LLM_API_KEY", KEY)
    at = sign_in(READER_PASSWORD)
    at.session_state["llm_url"] = elsewhere.url  # what a tampered session would hold
    at.session_state["threshold"] = 0.0
    journal = Path(os.environ["RAG_DATA_DIR"]) / "journal" / "journal.sqlite3"

    def thresholds() -> list[float]:
        if not journal.exists():  # the demo index's data folder is shared: count only this question's entry
            return []
        with closing(sqlite3.connect(journal)) as db:
            return [row[0] for row in db.execute("SELECT threshold FROM entries ORDER BY time, id")]

    before = thresholds()
    at.chat_input[0].set_value("Que signifie l'erreur KDC_ERR_ETYPE_NOSUPP ?").run()
    ok(at)
    assert elsewhere.requests == [] and lmstudio.chat_calls == 1
    # The environment's threshold, not the session's, as the journal records it (readers see no threshold).
    assert thresholds()[len(before):] == [0.83]


def test_an_editors_session_url_never_receives_the_key(app_env, monkeypatch, lmstudio, fake_embeddings_server):
    elsewhere = fake_embeddings_server()
    monkeypatch.setenv("RAG_LLM_API_KEY", KEY)
    at = ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())
    at.text_input(key="sidebar_llm_url").input(elsewhere.url).run()
    at.chat_input[0].set_value("Que signifie l'erreur KDC_ERR_ETYPE_NOSUPP ?").run()
    ok(at)
    assert elsewhere.requests, "the session's URL is used"
    assert not any(KEY in r["headers"].get("Authorization", "") for r in elsewhere.requests)


def test_a_password_in_the_llm_url_is_shown_nowhere_in_the_dashboard(app_env, monkeypatch, lmstudio):
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url.replace("http://", f"http://bob:{URL_PASSWORD}@"))
    at = ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())
    field = at.text_input(key="sidebar_llm_url")
    assert field.value.startswith("http://***@127.0.0.1")
    assert URL_PASSWORD not in sidebar_text(at) and "http://***@127.0.0.1" in sidebar_text(at)
    at.number_input(key="sidebar_top_k").set_value(3).run()  # another setting changed: the URL is kept whole
    assert URL_PASSWORD in at.session_state["llm_url"]
    ok(at.switch_page(INGEST).run())
    assert URL_PASSWORD not in at.code[0].value and "http://127.0.0.1:" in at.code[0].value  # the user given as ***


def test_open_mode_says_everyone_is_an_editor_and_warns_beyond_this_machine(app_env):
    previous = config.get_option("server.address")
    try:
        config.set_option("server.address", "127.0.0.1")
        at = ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())
        assert "Open access (no sign-in configured): you are an editor" in texts(at.sidebar.caption)
        assert not at.sidebar.warning
        config.set_option("server.address", "0.0.0.0")
        at = ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())
        assert "anyone who can reach it is an editor" in at.sidebar.warning[0].value
    finally:
        config.set_option("server.address", previous)


def oidc_app(monkeypatch, groups: str, roles: str, **user) -> AppTest:
    monkeypatch.setenv("RAG_USERS_GROUPS", groups)
    monkeypatch.setenv("RAG_USERS_ROLES", roles)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": True, **user}
    return ok(at.run())


def test_an_unverified_oidc_address_gets_no_mapped_groups_or_role(app_env, monkeypatch):
    at = oidc_app(monkeypatch, '{"alice@example.com": ["staff"]}', '{"alice@example.com": "editor"}',
                  email="alice@example.com", email_verified=False, sub="idp|42")
    assert at.session_state["groups"] == ["public"] and at.session_state["role"] == "reader"
    assert "not verified by the provider" in texts(at.sidebar.caption)

    at.user = {"is_logged_in": True, "email": "Alice@Example.com", "email_verified": True, "sub": "idp|42"}
    ok(at.run())
    assert at.session_state["role"] == "editor" and editor_controls(at) == ["Session settings"]


@pytest.fixture
def two_collections(app_env, tmp_path, monkeypatch):
    """A data folder with "blog" (one public, two staff documents) and "hr" (staff only)."""
    data = tmp_path / "data"
    monkeypatch.setenv("RAG_DATA_DIR", str(data))
    store = Store(Settings(data_dir=data))
    embedder = EmbeddedEmbedder(threads=1)

    def doc(url, access):
        return Document(url=url, title=url, markdown=f"# {url}\n\nLe KDC délivre les tickets de {url}.\n", access=access)

    try:
        assert ingest([doc("public.md", ["public"]), doc("staff-a.md", ["staff"]), doc("staff-b.md", ["staff"])],
                      store, embedder, "blog", strategy="sections").ok
        assert ingest([doc("salaires.md", ["staff"])], store, embedder, "hr", strategy="sections").ok
        counts = {"blog": store.count("blog"), "blog_public": store.count("blog", groups=["public"])}
    finally:
        store.close()
    return counts


def test_a_reader_sees_only_their_points_and_collections(two_collections, monkeypatch):
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)
    at = sign_in(READER_PASSWORD)
    assert at.sidebar.selectbox[0].options == ["blog"]
    def counts() -> set[int]:  # the passage counts the sidebar shows ("1 passage", "3 passages · …")
        return {int(n) for n in re.findall(r"(?m)^(\d+) passages?\b", texts(at.sidebar.caption))}

    assert counts() == {two_collections["blog_public"]}

    at = sign_in(EDITOR_PASSWORD)  # an editor without groups: public, like a reader
    assert at.sidebar.selectbox[0].options == ["blog"]
    assert counts() == {two_collections["blog_public"]}

    monkeypatch.setenv("RAG_USERS_GROUPS", '{"password:editor": ["staff"]}')
    at = sign_in(EDITOR_PASSWORD)
    assert at.sidebar.selectbox[0].options == ["blog", "hr"]
    assert counts() == {two_collections["blog"]}
    assert "groups: public, staff" in texts(at.sidebar.caption)

    monkeypatch.setenv("RAG_USERS_GROUPS", "")
    monkeypatch.setenv("RAG_ADMINS", "password:editor")  # the one setting that reads everything
    at = sign_in(EDITOR_PASSWORD)
    assert at.sidebar.selectbox[0].options == ["blog", "hr"] and at.session_state["groups"] is None
    assert "every document (administrator)" in texts(at.sidebar.caption)


def test_an_oidc_editor_reads_only_their_groups_and_a_sub_cannot_pose_as_an_address(two_collections, monkeypatch):
    # An editor of the public blog only: no staff document.
    at = oidc_app(monkeypatch, '{"alice@example.com": ["staff"]}',
                  '{"alice@example.com": "editor", "sub:idp|7": "editor"}',
                  email="blogger@example.com", email_verified=True, sub="idp|7")
    assert at.session_state["role"] == "editor" and at.session_state["groups"] == ["public"]
    assert at.sidebar.selectbox[0].options == ["blog"]

    at.user = {"is_logged_in": True, "email": "x@evil.example", "email_verified": False, "sub": "alice@example.com"}
    ok(at.run())
    assert at.session_state["role"] == "reader" and at.session_state["groups"] == ["public"]


def test_an_upload_never_silently_replaces_another_sources_document(two_collections, tmp_path):
    at = ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())
    ok(at.switch_page(INGEST).run())
    at.radio[0].set_value("Upload files").run()
    at.file_uploader[0].set_value([("staff-a.md", b"# staff-a.md\n\nTexte remplace par un lecteur.\n",
                                    "text/markdown")]).run()
    assert "would replace an indexed document" in texts(at.warning)
    assert "staff-a.md: the indexed document (from an unknown source, readable by staff)" in texts(at.warning)

    ok(at.button(key="index").click().run())
    failed = [d.value for d in at.dataframe if "reason" in d.value.columns]
    assert failed and failed[0]["document"].tolist() == ["staff-a.md"]
    store = Store(Settings(data_dir=tmp_path / "data"))  # the app's own client: not closed here
    kept = store.points_for_url("blog", "staff-a.md", payload=["access", "text"])
    assert {tuple(p.payload["access"]) for p in kept} == {("staff",)}
    assert "remplace" not in " ".join(p.payload["text"] for p in kept)

    at.checkbox(key="replace_blog").check().run()
    ok(at.button(key="index").click().run())
    replaced = store.points_for_url("blog", "staff-a.md", payload=["access", "source"])
    assert {(tuple(p.payload["access"]), p.payload["source"]) for p in replaced} == {(("public",), "upload")}


def test_the_wordpress_form_fetches_http_addresses_only(app_env):
    at = ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())
    ok(at.switch_page(INGEST).run())
    at.radio[0].set_value("WordPress site").run()
    at.text_input[0].input("file:///etc/passwd")
    at.button[0].click().run()
    assert at.error[0].value.startswith("The site could not be read. ") and not at.dataframe
    assert "http:// or https:// only" in at.error[0].value  # the reason, in the message itself


def test_links_in_an_answer_cannot_be_clicked(app_env, lmstudio):
    lmstudio.answer = ("Aucun type de chiffrement commun [1]. [Cliquez ici](https://evil.example/login)\n\n"
                       "Sources :\n- [1] [Documentation](http://phish.example/k) www.fake.example")
    at = ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())
    at.chat_input[0].set_value("Que signifie l'erreur KDC_ERR_ETYPE_NOSUPP dans un événement Kerberos ?").run()
    ok(at)
    answer = [m.value for m in at.markdown if "Aucun type de chiffrement" in m.value]
    # The only links left are the page's own, from each [1] to the cited source on this page.
    assert answer and re.findall(r"\]\(([^ )]*)", answer[0]) == ["#cite-blog-t0-1", "#cite-blog-t0-1"]
    assert "`https://evil.example/login`" in answer[0] and "`www.fake.example`" in answer[0]
    assert any("web or e-mail addresses written by the model" in w.value for w in at.warning)


def test_an_editor_indexes_only_within_their_groups(two_collections, monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)  # mapped to no group: public only
    at = sign_in(EDITOR_PASSWORD, page=INGEST)
    assert at.selectbox(key="target_collection").options[:-1] == ["blog"]  # not "hr", then "new collection"
    at.radio[0].set_value("Upload files").run()
    at.file_uploader[0].set_value([
        ("staff-a.md", b"# staff-a.md\n\nTexte remplace par un editeur du blog.\n", "text/markdown"),
        ("memo.md", b"---\naccess: [staff]\n---\n# Memo\n\nTexte pour le personnel.\n", "text/markdown"),
        ("nouveau.md", b"# Nouveau\n\nUn article public sur Kerberos.\n", "text/markdown"),
    ]).run()
    # The staff document is not named, nor who reads it, and no confirmation can replace it.
    assert "staff" not in texts(at.warning) and not [c for c in at.checkbox if c.key == "replace_blog"]
    ok(at.button(key="index").click().run())
    failed = [d.value for d in at.dataframe if "reason" in d.value.columns][0]
    reasons = dict(zip(failed["document"], failed["reason"]))
    assert reasons["staff-a.md"] == "not indexed: a document you cannot read already has this address"
    assert reasons["memo.md"] == "not indexed: it would be readable by staff, groups you are not in"
    assert "nouveau.md" not in reasons
    store = Store(Settings(data_dir=tmp_path / "data"))
    kept = store.points_for_url("blog", "staff-a.md", payload=["access", "text"])
    assert {tuple(p.payload["access"]) for p in kept} == {("staff",)}
    assert store.points_for_url("blog", "nouveau.md", payload=["access"])


def test_a_reader_signed_in_with_a_provider_is_told_to_ask_for_the_editor_role(passwords, monkeypatch):
    """With single sign-on there is no editor password to type: the page says to ask for the role."""
    from ui import access as ui_access

    monkeypatch.setattr(ui_access, "mode", lambda: "oidc")
    at = AppTest.from_file(str(ROOT / INGEST), default_timeout=TIMEOUT)
    at.session_state["role"] = "reader"
    ok(at.run())
    [refusal] = at.error
    assert refusal.value.startswith("Cette page est réservée aux éditeurs : votre compte est un compte de lecteur. "
                                    "Demandez à la personne qui gère ce site de donner le rôle éditeur")
    assert "mot de passe" not in refusal.value and not at.radio and not at.file_uploader
