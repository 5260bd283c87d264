"""A typo of a form the passages do not hold: read as the word of the language it mistypes.

"initalise" is one letter from "initialise", a word French writes; the passages write
"initialize" or "initialiser", forms of it: the reader asks about what they say, and the gate
answers. The correction must be a real word one edit away keeping the first two letters, and a
passage must hold a form of that word itself, never a word that merely shares a six-letter key:
"interogeait" is "interrogeait" where a passage writes "interroge", never "interdit"; "restaurer",
a word of the language, is never read as another; a name stays a name. Pure signals on passage
texts, then the real embedded model and store (the demo collection) through the answer engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rag.answer.engine import ask
from rag.answer.gate_words import _is_form, signals_from


@dataclass
class _Passage:
    text: str
    score: float = 0.9


def _terms(question: str, *texts: str) -> dict:
    # No chunk of the collection holds any of the question's words: only the passages can.
    signals = signals_from(question, [_Passage(t) for t in texts], {}, 1000)
    return {t.word: t for t in signals.terms}


def test_a_typo_of_a_form_the_passages_write_otherwise_is_that_word():
    terms = _terms("quels modes d'attestation sont proposés quand on initalise le service Guardian hôte ?",
                   "Exécutez Initialize-HgsServer pour initialize le service Guardian hôte en mode clé.")
    assert terms["initalise"].typo_of == "initialise" and terms["initalise"].df == 1
    assert not terms["initalise"].named  # a word of the language mistyped, not a product's name


def test_another_form_of_the_passages_verb_mistyped_is_read_as_that_form():
    terms = _terms("quelle option de setspn interogeait l'annuaire ?",
                   "L'option -X interroge l'annuaire sur les SPN en double.",
                   "Il est interdit de dupliquer un SPN.")
    assert terms["interogeait"].typo_of == "interrogeait"
    assert terms["interogeait"].df == 1  # the passage holding "interroge", not the one holding "interdit"


def test_a_typo_whose_word_only_shares_a_key_with_the_passages_stays_unknown():
    # "interdit" shares "inter" with "interrogeait"; "interrompre" its six letters "interr": no form.
    terms = _terms("quelle option de setspn interogeait l'annuaire ?",
                   "Il est interdit d'interrompre la réplication de l'annuaire.")
    assert terms["interogeait"].typo_of is None and terms["interogeait"].df == 0


def test_a_name_is_never_read_as_a_word_of_the_language_mistyped():
    # Capitalised inside the sentence: the product's name, looked up as written.
    terms = _terms("comment configurer Initalise sur le serveur ?", "Pour initialiser le serveur, exécutez …")
    assert terms["Initalise"].typo_of is None and terms["Initalise"].df == 0


def test_a_word_the_language_uses_is_spelled_as_meant():
    terms = _terms("comment restaurer un utilisateur ?", "Le restaurant du réseau, les restaurations …")
    assert terms["restaurer"].typo_of is None


@pytest.mark.parametrize("form, word, expected", [
    ("initialize", "initialise", True), ("initialiser", "initialise", True),
    ("initialisation", "initialise", True), ("interroge", "interrogeait", True),
    ("initial", "initialise", False), ("initiative", "initialise", False),
    ("interrompre", "interrogeait", False), ("portefeuille", "porter", False),
])
def test_a_form_shares_all_of_a_word_but_its_ending(form, word, expected):
    assert _is_form(form, word) is expected


def _demo_ask(demo_index, question):
    return ask(question, demo_index.settings(), collection=demo_index.collection, with_llm=False)


@pytest.mark.parametrize("question, typed, meant", [
    ("Quelle option de setspn interogeait l'annuaire sur les comptes qui portent exactement un SPN ?",
     "interogeait", "interrogeait"),
    ("Quelle commande purgeais les tickets Kerberos ?", "purgeais", "purgeait"),
])
def test_a_mistyped_form_of_the_articles_word_is_answered(demo_index, question, typed, meant):
    result = _demo_ask(demo_index, question)
    assert not result.refused, result.refusal_reason
    terms = {t["word"]: t for t in result.gate["signals"]["terms"]}
    assert terms[typed]["typo_of"] == meant and terms[typed]["df"] > 0


@pytest.mark.parametrize("question, word", [
    ("Comment restaurer un utilisateur supprimé avec la corbeille Active Directory ?", "corbeille"),
    ("Comment configurer keepalived pour une adresse IP virtuelle ?", "keepalived"),
    ("Comment ouvrir le port 443 avec nftables ?", "nftables"),
])
def test_what_no_article_mentions_stays_the_refusals_subject(demo_index, question, word):
    result = _demo_ask(demo_index, question)
    assert result.refused and word in result.refusal_reason
    assert all(t["typo_of"] is None for t in result.gate["signals"]["terms"])
