"""A new collection named the way people name things ("ssh bastion", "sécurité"): said plainly,
with a name that can be kept, and the Index button stays in view."""

from __future__ import annotations

import pytest

from rag.store.names import name_problem, suggested_name
from tests.fixtures.apptest import open_page


@pytest.mark.parametrize("typed, suggestion", [("ssh bastion", "ssh-bastion"), ("sécurité", "securite"),
                                               ("Équipe SAP / BW", "Equipe-SAP-BW")])
def test_a_name_the_store_cannot_keep_gets_one_it_can(typed, suggestion):
    assert suggested_name(typed) == suggestion
    assert name_problem(suggestion) is None
    problem = name_problem(typed)
    assert problem and typed in problem and suggestion in problem and "unaccented" in problem


@pytest.mark.parametrize("typed", ["ssh bastion", "sécurité"])
def test_the_ingest_page_explains_a_bad_new_name_and_keeps_the_index_button(app_env_empty, typed):
    at = open_page("app_pages/2_Ingest.py")
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value("# Note\n\n## Partie\n\n" + "Du texte. " * 30).run()
    at.text_input(key="new_collection").set_value(typed).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(suggested_name(typed) in w.value and "cannot name a collection" in w.value for w in at.warning)
    assert at.button(key="index").disabled
    at.text_input(key="new_collection").set_value(suggested_name(typed)).run()
    assert not at.exception and not at.button(key="index").disabled
