"""The Evaluate page over the question sets an editor keeps: the edited demo set is the one replayed."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from rag.evaluate.question_sets import add_question, save_set, load_set
from tests.fixtures.apptest import APP, TIMEOUT

EVALUATE = "app_pages/3_Evaluate.py"


def _evaluate() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run().switch_page(EVALUATE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_shipped_set_until_an_editor_changes_it(app_env_empty):
    at = _evaluate()
    assert not [c for c in at.caption if "edited version" in c.value]
    assert [e.label for e in at.main.expander if e.label.startswith("Edit the set")] == ["Edit the set “demo”"]
    add_question(app_env_empty, "demo", "Comment configurer Veeam ?", in_base=False)
    at = _evaluate()
    assert [c.value for c in at.caption if "edited version" in c.value]


def test_a_saved_set_is_offered_beside_the_demo(app_env_empty):
    save_set(app_env_empty, "support", load_set(app_env_empty, "demo")[:3])
    at = _evaluate()
    assert "A saved set" in at.radio(key="question_set_kind").options
    at.radio(key="question_set_kind").set_value("saved").run()
    assert at.selectbox(key="question_set_name").value == "support"
    assert [e.label for e in at.main.expander if e.label.startswith("Edit the set")] == ["Edit the set “support”"]


def test_the_editor_names_categories_as_the_results_do_and_saves_their_codes(app_env_empty):
    """The editor's categories read "out of base, near domain", never the set file's code, and a
    save keeps the codes the file format names."""
    at = _evaluate()
    caption = next(c.value for c in at.caption if c.value.startswith("Categories"))
    assert "near_domain_out" not in caption and "out of base, near domain" in caption
    editor = next(d.value for d in at.dataframe if "expected_answer" in d.value.columns)
    shown = set(editor["category"].dropna())
    assert "out of base, near domain" in shown and not shown & {"near_domain_out", "off_topic"}
    at.button(key="qse_save_demo").click().run()
    assert {q.category for q in load_set(app_env_empty, "demo")} >= {"near_domain_out", "off_topic"}


def test_the_editor_draws_without_a_deprecation_warning_in_the_terminal(app_env_empty, caplog):
    import logging

    with caplog.at_level(logging.WARNING):
        _evaluate()
    assert not [r for r in caplog.records if "use_container_width" in r.getMessage()]
