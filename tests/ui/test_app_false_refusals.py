"""The Evaluate page shows first the in-base questions the gate refused, with the word or name
that decided each refusal (AppTest on the demo index)."""

from __future__ import annotations

from tests.fixtures.apptest import open_page, table_with
from rag.evaluate.false_refusals import false_refusals

CSV = (b"id,question,expected_source,in_base\n"
       b"q1,Chez Airbus \xc3\xa0 Toulouse comment purger les tickets Kerberos ?,kerberos-klist.md,true\n"
       b"q2,Quelle recette de tarte Tatin pour un go\xc3\xbbter Kerberos ?,kerberos-klist.md,true\n"
       b"q3,Quelle est la recette de la tarte Tatin ?,,false\n")


def test_false_refusals_come_first_with_the_name_that_decided(app_env):
    at = open_page("app_pages/3_Evaluate.py", timeout=180)
    at.radio(key="question_set_kind").set_value("uploaded").run()
    at.file_uploader(key="question_upload").set_value(("mini.csv", CSV, "text/csv")).run()
    at.button(key="run_eval").click().run()
    assert not at.exception, [e.value for e in at.exception]
    headings = [m.value for m in at.markdown if m.value.startswith("#### ")]
    assert headings[0] == "#### Corpus questions refused"
    table = table_with(at, "Word or name that decided")
    assert list(table["Question"]) == ["Quelle recette de tarte Tatin pour un goûter Kerberos ?"]
    assert "Tatin" in table["Word or name that decided"][0]
    assert table["Reason"][0] == "a name no article mentions"
    # Said in words that agree with the count: not "1 question(s) ... were refused".
    captions = "\n".join(c.value for c in at.caption)
    assert "1 question the articles answer was refused: the word or name that decided the refusal is beside it." \
        in captions and "(s)" not in captions


def test_refusals_for_a_word_are_listed_before_refusals_by_score():
    rows = [
        {"id": "a", "question": "far", "in_base": True, "refused": True, "refusal_reason": "low_cosine", "cosine": 0.8},
        {"id": "b", "question": "Paul", "in_base": True, "refused": True, "refusal_reason": "low_coverage",
         "missing_terms": ["Paul", "bidule"], "subject_words": ["bidule"], "cosine": 0.9},
        {"id": "c", "question": "off", "in_base": False, "refused": True, "refusal_reason": "unknown_names"},
        {"id": "d", "question": "fine", "in_base": True, "refused": False},
    ]
    found = false_refusals(rows)
    assert [f["id"] for f in found] == ["b", "a"]
    assert found[0]["words"] == ["bidule"] and found[1]["words"] == []
