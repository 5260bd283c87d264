"""A conversation reopened after a reload, and the editors' Journal, say what the reader saw: the
same refusal reasons (in the reader's current language), the same warnings and sources, and the
greetings and thanks in their place."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from rag.journal.records import Entry
from rag.journal.store import Journal
from tests.ui.test_app_ask import APP, IN_BASE, TIMEOUT, ask, start
from tests.ui.test_app_chat import chat_env  # noqa: F401 - the fixture: a journal of its own per test

JOURNAL = "app_pages/4_Journal.py"
FOLLOW_UP = "et pour Linux ?"
CREPES = "Comment faire une pâte à crêpes ?"
WEATHER = "Quel temps fera-t-il demain à Lyon ?"


def reasons(at: AppTest) -> list[str]:
    """The refusal's reason under each refused turn, in the order of the conversation."""
    out = []
    for message in at.chat_message:
        if message.name == "assistant" and message.info:
            out += [c.value for c in message.caption if "asked" in c.value or "interrogé" in c.value]
    return out


def reopened(at: AppTest) -> AppTest:
    again = AppTest.from_file(APP, default_timeout=TIMEOUT)
    again.query_params.update({"conversation": at.query_params["conversation"], "collection": "blog"})
    again.run()
    assert not again.exception, [e.value for e in again.exception]
    return again


def users(at: AppTest) -> list[str]:
    return [m.markdown[0].value for m in at.chat_message if m.name == "user"]


def test_a_reload_says_the_refusal_reasons_read_before_it_and_keeps_the_thanks(chat_env, lmstudio):  # noqa: F811
    """Reopened, a refusal by the question's words became "no passage close enough (best score
    0.908, threshold 0.834)", a score above its threshold; "Merci !" and its reply were gone."""
    lmstudio.answer = "Aucun type de chiffrement commun [1]."
    at = start()
    for question in (IN_BASE, FOLLOW_UP, CREPES, WEATHER, "Merci !"):
        at = ask(at, question)
    live = reasons(at)
    assert len(live) >= 2 and "No article mentions: crêpes;" in live[-2] and "best score" in live[-1]
    # "fera" is a verb, "demain" and "Lyon" the reader's situation: none is a subject to name.
    assert not any(word in " ".join(live) for word in ("fera", "demain", "Lyon"))

    calls = lmstudio.chat_calls
    again = reopened(at)
    assert reasons(again) == live
    assert users(again) == [IN_BASE, FOLLOW_UP, CREPES, WEATHER, "Merci !"]
    last = [m for m in again.chat_message if m.name == "assistant"][-1]
    assert last.markdown[0].value == "You're welcome. Another question about the articles?"
    assert lmstudio.chat_calls == calls  # nothing was asked again


def test_the_journal_says_the_reason_the_reader_read_in_the_editors_language(chat_env, lmstudio):  # noqa: F811
    """The Journal said "aucun passage n'est assez proche… (0,772 < seuil 0,834)" where the reader
    read other words, and in French on an English page."""
    at = ask(ask(start(), CREPES), WEATHER)
    live = reasons(at)
    page = at.switch_page(JOURNAL).run()
    assert not page.exception, [e.value for e in page.exception]
    said = "\n".join(m.value for e in page.main.expander for m in e.markdown)
    for reason in live:
        assert reason in said
    assert "aucun" not in said.lower()  # the question was French, the page is English
    # The thanks are no question the articles failed: the Journal does not list them.
    ask(start(), "Merci !")
    assert "Merci" not in [e.question for e in Journal.open(chat_env.data_dir, secrets=[]).entries()]


# -- the turn rebuilt from its journal entry (pure) ---------------------------------------------

def _typo_entry(**checks) -> Entry:
    passages = [{"n": 1, "title": "Erreur LDAP 80090308", "url": "ldap-bind-80090308.md", "score": 0.80, "text": "x"},
                {"n": 2, "title": "Purger les tickets", "url": "klist.md", "score": 0.86, "text": "klist purge"}]
    return Entry(question="comment purjer les tikets kerberose ?", outcome="answered", collection="blog",
                 answer="Utilisez klist purge [1].", citations=[1], passages=passages, threshold=0.834,
                 language="fr", checks=checks)


def test_a_reopened_answer_citing_a_passage_never_sent_shows_no_source_and_the_warning():
    """Reopened, "[1]" (a passage at 0.80, under the threshold, never sent) became the answer's
    source "Erreur LDAP 80090308", and the warning was gone."""
    from ui.conversations import result_from_entry
    from ui.present.answer import answer_flags

    live = {"sent_passages": [2], "accepted": [2], "invalid_citations": [1], "uncited": True, "answer_urls": [],
            "dropped_passages": [], "warnings": []}
    for entry in (_typo_entry(**live), _typo_entry()):  # recorded now, and an entry of before `checks`
        result = result_from_entry(entry)
        assert result.sources == []
        flags = answer_flags(result)
        assert len(flags) == 1 and "[1]" in flags[0] and "matches no passage" in flags[0], flags
    # The notes said with the answer come back with it.
    noted = result_from_entry(_typo_entry(**live, notes=["Passages [3] left out."]))
    assert noted.answer == "Utilisez klist purge [1].\n\nPassages [3] left out."


def test_an_answer_citing_only_a_passage_never_sent_gets_one_warning_not_two():
    """"cites [1], which matches no passage given" and "cites no passage" contradicted each other."""
    from rag.answer.pipeline import AskResult
    from ui.present.answer import answer_flags

    result = AskResult(question="q", answer="Voir [1].", refused=False, passages=[], invalid_citations=[1],
                       uncited=True)
    assert len(answer_flags(result)) == 1
    result.invalid_citations = []
    assert "cites no passage" in answer_flags(result)[0]
