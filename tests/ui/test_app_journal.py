"""The Journal page, driven headless with AppTest: what an editor reads there, and what a reader never reaches."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from rag.evaluate.question_sets import load_set
from rag.journal.records import Entry
from rag.journal.store import Journal
from ui.i18n import WORDS

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "streamlit_app.py")
JOURNAL = "app_pages/4_Journal.py"
TIMEOUT = 120
READER_PASSWORD, EDITOR_PASSWORD = "reader horse battery", "editor staple"


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


def rows(at: AppTest) -> list:
    """The journal's entries on the page (one expander each)."""
    return [e for e in at.main.expander if " · " in e.label]


def fill(data_dir: Path) -> Journal:
    journal = Journal.open(data_dir, secrets=[])
    now = datetime.now(UTC)
    journal.record(Entry(question="Que signifie KDC_ERR_ETYPE_NOSUPP ?", outcome="answered", collection="blog",
                         reader="alice@example.org", answer="Aucun type de chiffrement commun [1].", citations=[1],
                         passages=[{"n": 1, "title": "Kerberos : les erreurs", "url": "kerberos-erreurs.md",
                                    "text": "KDC_ERR_ETYPE_NOSUPP : aucun type de chiffrement commun."}],
                         time=now - timedelta(days=2)))
    for i, reader in enumerate(("bob@example.org", "carol@example.org", "bob@example.org")):
        journal.record(Entry(question=f"Comment restaurer une sauvegarde Veeam {'ABC'[i]} ?", outcome="refused_gate",
                             collection="blog", reader=reader, unknown_terms=["Veeam"],
                             refusal_reason="aucun article ne parle de : Veeam", time=now - timedelta(hours=i + 1)))
    return journal


def open_journal() -> AppTest:
    at = ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())
    return ok(at.switch_page(JOURNAL).run())


def test_the_journal_newest_first_with_outcome_articles_answer_and_numbered_readers(app_env_empty):
    journal = fill(app_env_empty)
    journal.feedback(journal.entries(outcome="answered")[0].id, "alice@example.org", -1, "pas la bonne version")
    at = open_journal()
    assert at.title[0].value == "Question journal"
    labels = [e.label for e in rows(at)]
    assert len(labels) == 4 and "reader 2 · refused by the gate · Comment restaurer une sauvegarde Veeam A ?" in labels[0]
    assert "reader 1 · answered · Que signifie KDC_ERR_ETYPE_NOSUPP ?" in labels[3]
    answered = rows(at)[3]
    body = texts(answered.markdown)
    assert "Kerberos : les erreurs" in body and "Aucun type de chiffrement commun" in body and "👎 1" in body
    assert "pas la bonne version" in texts(answered.caption)
    assert "aucun article ne parle de : Veeam" in texts(rows(at)[0].markdown)
    assert "@example.org" not in "\n".join(labels)  # RAG_JOURNAL_NAMES off: readers numbered


def test_names_shown_when_the_setting_allows(app_env_empty, monkeypatch):
    fill(app_env_empty)
    monkeypatch.setenv("RAG_JOURNAL_NAMES", "1")
    assert "bob@example.org" in open_journal().expander[0].label


def test_filters_search_and_delete(app_env_empty):
    journal = fill(app_env_empty)
    at = open_journal()
    at.multiselect(key="jr_outcome").select("answered").run()
    assert [e.label.split(" · ")[-1] for e in rows(ok(at))] == ["Que signifie KDC_ERR_ETYPE_NOSUPP ?"]
    at.multiselect(key="jr_outcome").unselect("answered").run()
    at.text_input(key="jr_search").input("veeam b").run()
    assert [e.label.split(" · ")[-1] for e in rows(ok(at))] == ["Comment restaurer une sauvegarde Veeam B ?"]
    doomed = journal.entries(text="veeam b")[0]
    at.button(key=f"jr_delete_{doomed.id}").click().run()
    assert not rows(ok(at)) and journal.entry(doomed.id) is None and len(journal.entries()) == 3


def test_subjects_ranked_by_readers_and_what_a_new_article_answers(app_env_empty):
    journal = fill(app_env_empty)
    refused = journal.entries(outcome="refused_gate")
    journal.record_recheck(refused[0].id, True, ["Veeam : restaurer un contrôleur de domaine"])
    at = open_journal()
    subjects = at.tabs[1]
    heading = texts(subjects.markdown)
    assert "1. Veeam** · 2 readers · 3 questions asked" in heading
    assert "Comment restaurer une sauvegarde Veeam A ?" in heading
    assert "now answers 1 of its 3 questions: Veeam : restaurer un contrôleur de domaine" in texts(subjects.success)
    weeks = at.tabs[2]
    assert len(weeks.get("plotly_chart")) == 1 and "1. Veeam (2 readers)" in texts(weeks.markdown)


def test_the_csv_cannot_run_formulas_in_a_spreadsheet(app_env_empty):
    journal = Journal.open(app_env_empty, secrets=[])
    journal.record(Entry(question="=HYPERLINK(\"http://evil\",\"x\")", outcome="refused_gate", answer="+1 -2 @SUM"))
    at = open_journal()
    assert [b.label for b in at.get("download_button")] == ["Download the journal (CSV)"]
    from rag.journal import report

    text = report.csv_text(journal.entries(), {"": "no account"})
    assert "'=HYPERLINK" in text and "'+1 -2 @SUM" in text


def test_retention_applies_when_the_dashboard_starts(app_env_empty, monkeypatch):
    journal = fill(app_env_empty)
    journal.record(Entry(question="une vieille question", outcome="answered",
                         time=datetime.now(UTC) - timedelta(days=40)))
    monkeypatch.setenv("RAG_JOURNAL_DAYS", "30")
    ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())  # the Ask page: the app's start
    assert [e.question for e in journal.entries() if "vieille" in e.question] == []
    assert len(journal.entries()) == 4


def test_an_entry_goes_into_the_demo_set_in_one_step(app_env_empty):
    fill(app_env_empty)
    at = open_journal()
    # The refused question, as off-topic (the form's default for a refusal): no article nor span to
    # give (they were shown, filled in, and ignored); they come with "in the base".
    assert not [w for w in rows(at)[0].text_input if w.key and w.key.startswith("jr_qs_span_")]
    assert not [w for w in rows(at)[0].selectbox if w.key and w.key.startswith("jr_qs_article_")]
    _submit(at, 0)
    assert "Question added to the set “demo”" in texts(at.success)
    # The answered one, in the base, with its passage's article and a span of that passage.
    at.text_input(key=_entry_key(at, 3, "jr_qs_span_")).input("aucun type de chiffrement commun")
    _submit(at, 3)
    demo = load_set(app_env_empty, "demo")
    off, on = demo[-2:]
    assert (off.question, off.in_base) == ("Comment restaurer une sauvegarde Veeam A ?", False)
    assert (on.in_base, on.expected_source, on.expected_answer) == (
        True, "kerberos-erreurs.md", "aucun type de chiffrement commun")
    _submit(at, 0)  # twice: refused, the set keeps one
    assert "already in the set 'demo'" in texts(at.error) and len(load_set(app_env_empty, "demo")) == len(demo)


def _entry_key(at: AppTest, i: int, prefix: str) -> str:
    keys = [w.key for w in rows(at)[i].text_input if w.key and w.key.startswith(prefix)]
    assert len(keys) == 1
    return keys[0]


def _submit(at: AppTest, i: int) -> None:
    buttons = [b for b in rows(at)[i].button if b.label == "Add to the set"]
    assert len(buttons) == 1
    ok(buttons[0].click().run())


@pytest.fixture
def passwords(app_env_empty, monkeypatch):
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)
    return app_env_empty


def _sign_in(password: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run().switch_page("app_pages/1_Ask.py").run()
    at.text_input[0].input(password)
    at.button[0].click().run()
    return ok(at)


def test_a_reader_gets_no_journal_page_by_navigation_or_url(passwords):
    fill(passwords)
    at = _sign_in(READER_PASSWORD)
    assert at.session_state["role"] == "reader"
    ok(at.switch_page(JOURNAL).run())  # a link to it: the refusal, in words, and nothing of the journal
    assert [e.value[:36] for e in at.error] == ["This page is for editors: readers ca"]
    assert not rows(at) and not at.get("download_button") and "Veeam" not in texts(at.markdown)
    # Run directly, as a URL to the page would: refused, nothing of the journal shown.
    page = AppTest.from_file(str(ROOT / JOURNAL), default_timeout=TIMEOUT)
    page.session_state["role"] = "reader"
    ok(page.run())
    assert [e.value for e in page.error] == [WORDS.texts["fr"]["access.editors_only"].format(
        sign_out="Se déconnecter", ask="Questions")]
    assert not rows(page) and not page.get("download_button") and "Veeam" not in texts(page.markdown)


def test_an_editor_signed_in_reads_it(passwords):
    fill(passwords)
    at = _sign_in(EDITOR_PASSWORD)
    ok(at.switch_page(JOURNAL).run())
    assert at.title[0].value == "Question journal" and len(rows(at)) == 4


def test_an_editor_bounded_by_groups_reads_no_answer_from_a_document_outside_them(app_env_empty):
    journal = Journal.open(app_env_empty, secrets=[])
    for question, group in (("Procédure interne du SOC ?", "staff"), ("Qu'est-ce que klist ?", "public")):
        journal.record(Entry(question=question, outcome="answered", answer=f"Réponse {group} [1].",
                             passages=[{"n": 1, "title": f"Article {group}", "url": f"{group}.md",
                                        "text": f"texte {group}", "access": [group]}]))
    page = AppTest.from_file(str(ROOT / JOURNAL), default_timeout=TIMEOUT)
    page.session_state["role"] = "editor"
    page.session_state["groups"] = ["public"]  # as the gate records an editor bounded by their groups
    ok(page.run())
    staff, public = (next(r for r in rows(page) if q in r.label) for q in ("SOC", "klist"))
    assert "Réponse staff" not in texts(staff.markdown) and "Article staff" not in texts(staff.markdown)
    assert WORDS.texts["fr"]["jr.hidden"] in texts(staff.caption)  # run alone, the page is French
    assert "Réponse public" in texts(public.markdown) and "Article public" in texts(public.markdown)


def _journal_as_editor(monkeypatch) -> AppTest:
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.text_input[0].input(EDITOR_PASSWORD)
    at.button[0].click().run()
    return ok(ok(at).switch_page(JOURNAL).run())


@pytest.mark.parametrize("administrator", [False, True], ids=["editor of public", "administrator"])
def test_subjects_name_what_answers_now_only_from_what_the_editor_may_read(app_env_empty, monkeypatch,
                                                                          administrator):
    journal = fill(app_env_empty)
    refused = journal.entries(outcome="refused_gate")
    # The re-check after an administrator's ingest saw every document, a staff one among them.
    journal.record_recheck(refused[0].id, True, ["Coffre : procédure interne"])
    if administrator:
        monkeypatch.setenv("RAG_ADMINS", "password:editor")
    at = _journal_as_editor(monkeypatch)
    subjects = at.tabs[1]
    said = texts(subjects.success) + texts(subjects.markdown)
    assert ("Coffre : procédure interne" in said) is administrator
    assert ("now answers" in said) is administrator
