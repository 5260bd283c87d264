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
    ("nftables", True),  # one letter from "notables", but not in its first two: a name
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


def _short_of_the_floor(specific: float, cosine: float):
    from rag.answer.gate_words import Signals

    return Signals(cosine=cosine, coverage=0.4, passage_coverage=0.4, core_coverage=0.4,
                   core_passage_coverage=0.4, specific_coverage=specific, specific_passage_coverage=specific)


def test_everyday_words_a_small_collection_lacks_leave_the_question_to_the_model():
    from rag.answer.gate import REFUSE, UNSURE, GateParams, decide_verdict

    params = GateParams(0.83, 0.6, True, "model default")
    # "Je reçois de nombreux courriers …, comment faire que cela cesse ?": only everyday words missing.
    assert decide_verdict(_short_of_the_floor(1.0, 0.845), params)[0] == UNSURE
    # The same at the floor itself, where everyday off-topic questions score: refused.
    assert decide_verdict(_short_of_the_floor(1.0, 0.832), params)[0] == REFUSE
    # A specific word missing ("la corbeille Active Directory"): refused however close.
    assert decide_verdict(_short_of_the_floor(0.4, 0.87), params)[0] == REFUSE


@pytest.mark.parametrize("question, typed, written", [
    ("Comment traquer les doublns de SPN dans toute la foret avec setspn ?", "doublns", "doublons"),
    ("Quelle option de setspn ajoute un SPN aprés avoir vérifé qu'il n'existe nulle part ailleurs ?",
     "vérifé", "verifie"),
])
def test_a_word_mistyped_from_the_passages_is_read_as_the_passages_word(demo_index, question, typed, written):
    result = _demo_ask(demo_index, question)
    assert not result.refused, result.refusal_reason
    terms = {t["word"]: t for t in result.gate["signals"]["terms"]}
    assert terms[typed]["typo_of"] == written and terms[typed]["df"] > 0


def test_a_name_two_letters_from_a_passages_word_is_still_unknown(demo_index):
    # "nftables" is not "iptables" mistyped: two letters differ, and no article mentions it.
    result = _demo_ask(demo_index, "Comment ouvrir le port 443 avec nftables ?")
    assert result.refused and "nftables" in result.refusal_reason


def test_a_word_of_the_language_is_never_read_as_a_passages_word_mistyped(demo_index):
    # "restaurer" is one letter from a form of "réseau" by its stem, but French uses it as written:
    # the question stays about a recycle bin no article mentions.
    result = _demo_ask(demo_index, "Comment restaurer un utilisateur supprimé avec la corbeille Active Directory ?")
    terms = {t["word"]: t for t in result.gate["signals"]["terms"]}
    assert terms["restaurer"]["typo_of"] is None and result.gate["verdict"] != "answer"
