"""A question word's inflected forms: the gate looks them up so that "purgent" or "purges" meets
the "purge"/"purger" a collection holds, while names and identifiers keep their exact key."""

from __future__ import annotations

import pytest

from rag.store.terms import question_keys, question_words, term_key, word_forms


@pytest.mark.parametrize("typed", ["purgent", "purges", "purged", "purging", "purge", "purger", "purgez"])
def test_the_inflected_forms_of_a_verb_reach_its_stored_keys(typed):
    forms = word_forms(typed)
    assert forms[0] == term_key(typed)  # its own key first
    assert {"purge", "purger"} <= set(forms)


def test_french_and_english_endings_meet_the_base_word():
    assert {"lance", "lancer"} <= set(word_forms("lancez"))  # "lancez" is kept whole, 6 letters
    assert {"porte", "porter"} <= set(word_forms("portees"))  # portées, accents folded
    assert "test" in word_forms("tested") and "tests" in word_forms("testing")


@pytest.mark.parametrize("term", ["0x80090308", "s4hana", "krb5", "le", "mot", "ssl", "aes"])
def test_identifiers_and_short_words_keep_their_own_key_only(term):
    assert word_forms(term) == (term_key(term),)


def test_a_long_word_adds_no_key_its_first_letters_do_not_already_give():
    assert word_forms("supprimez") == ("suppri",)
    assert word_forms("tickets") == ("ticket",)


def test_names_and_identifiers_in_a_question_are_looked_up_as_typed():
    words = {w.text: w for w in question_words("Quelles commandes purgent les tickets Okta et S/4HANA ?")}
    assert words["purgent"].forms and "purger" in words["purgent"].forms
    assert words["Okta"].named and words["Okta"].forms == ()
    assert words["S/4HANA"].forms == ()
    keys = question_keys(list(words.values()))
    assert "purge" in keys and "okta" in keys and not any(k.startswith("okta") and k != "okta" for k in keys)


def test_no_form_is_a_key_cut_inside_its_ending():
    # "reciping" would be stored as "recipi", the key of "recipient": a tarte recipe is not a SAML recipient.
    assert "recipi" not in word_forms("recipe")
    assert all(len(k) <= len("purger") for k in word_forms("purging")[1:])


def test_a_capitalised_first_word_is_looked_up_as_typed():
    # "Docker" first in a question may be a name: it must not become known through "dock".
    docker = question_words("Docker est-il pris en charge ?")[0]
    assert docker.text == "Docker" and docker.forms == ()
    assert question_words("docker est-il pris en charge ?")[0].forms  # typed in lower case: a word
