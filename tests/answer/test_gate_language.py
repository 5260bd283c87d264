"""Names the language does not use: a tool's name is the subject, an everyday word is not.

"keepalived" and "journalctl" are what the reader asks about, and a blog that never mentions them
refuses by name; "journalctl" is not "journaux" although both start with "journa". A typo or an
everyday word a small collection lacks is not a name. Real embedded model and store (the demo
collection), and wordfreq's word frequencies.
"""

from __future__ import annotations

import pytest

from rag.answer.engine import ask
from rag.answer.gate import has_exact_terms, has_terms
from rag.answer.language_words import ordinary, rare
from rag.answer.question_roles import roles
from rag.store.terms import chunk_terms, question_keys, question_words


def _demo_ask(demo_index, question):
    return ask(question, demo_index.settings(), collection=demo_index.collection, with_llm=False)


@pytest.mark.parametrize("question, tool", [
    ("Comment afficher les journaux d'un service avec journalctl -u ?", "journalctl"),
    ("Comment configurer keepalived pour une adresse IP virtuelle ?", "keepalived"),
    ("Comment ajouter une règle iptables pour bloquer le port 25 ?", "iptables"),
])
def test_a_near_domain_tool_no_article_mentions_is_refused_naming_it(demo_index, question, tool):
    result = _demo_ask(demo_index, question)
    assert result.refused and result.gate["verdict"] == "refuse"
    assert tool in result.refusal_reason


def test_a_name_opening_a_relative_clause_is_the_readers_story(demo_index):
    result = _demo_ask(demo_index, "Dans la commande klist -li 0x3e7 que m'a envoyée Thomas, que représente 0x3e7 ?")
    assert not result.refused, result.refusal_reason
    assert "Thomas" in result.gate["signals"]["context_words"]


def test_a_long_word_is_stored_whole_beside_its_prefix():
    keys = chunk_terms("Les journaux du service")
    assert "journa" in keys and "journaux" in keys
    words = question_words("Comment lire les journaux avec journalctl ?")
    assert [w.text for w in words] == ["lire", "journaux", "journalctl"]
    assert "journalctl" in question_keys(words)


def test_a_collection_built_before_whole_keys_is_still_read_by_prefix():
    assert has_terms({"terms_version": 1}) and not has_exact_terms({"terms_version": 1})
    assert has_exact_terms({"terms_version": 2})
    assert not has_terms({"terms_version": None})


@pytest.mark.parametrize("word, is_name", [
    ("keepalived", True), ("podman", True), ("rsync", True),
    ("transcation", False), ("aplication", False),  # typos of common words
    ("initialisant", False), ("cloturer", False),  # a rare form, a missing accent
    ("corbeille", False), ("Paul", False),
])
def test_a_name_is_a_word_neither_french_nor_english_uses(word, is_name):
    assert rare(word) is is_name


def test_everyday_words_are_told_from_specific_ones():
    assert ordinary("nombreux") and ordinary("cesse")
    assert not ordinary("corbeille") and not ordinary("keepalived")


def test_est_ce_que_does_not_make_the_product_a_detail():
    assert roles("Est-ce que Okta supporte SAML ?") == (set(), set())
    assert "Marc" in roles("Que fait la commande Set-LapsADComputerSelfPermission que Marc veut lancer ?")[0]
