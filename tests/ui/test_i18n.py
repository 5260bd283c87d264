"""The dashboard's two catalogues and how the language is chosen."""

from __future__ import annotations

import contextvars

import pytest

import rag.i18n
from ui import i18n


def test_french_and_english_have_the_same_keys_and_placeholders():
    fr, en = i18n.WORDS.texts["fr"], i18n.WORDS.texts["en"]
    assert not i18n.WORDS.problems()
    same_in_both = {"ask.collection", "ask.score", "eval.cmp_sides", "count.documents_other"}  # words both languages share
    untranslated = {k for k in fr if fr[k] == en[k] and len(en[k]) > 12} - same_in_both
    assert not untranslated


@pytest.mark.parametrize("setting, locale, header, expected", [
    (None, None, None, "fr"),                          # nothing known: French
    ("en", "fr-FR", "fr-FR,fr;q=0.9", "en"),           # RAG_UI_LANG wins
    ("EN_gb", None, None, "en"),
    ("de", "en-US", None, "en"),                       # an unsupported setting: the browser decides
    (None, "en-US", None, "en"),
    (None, "de-DE", "de-DE,de;q=0.9,en;q=0.8", "en"),  # the first supported language of the header
    (None, None, "en;q=0.5,fr;q=0.9", "fr"),           # by quality, not by order
    (None, "de-DE", "de-DE,es;q=0.5", "fr"),
    (None, None, "garbage;;,", "fr"),
])
def test_language_choice(setting, locale, header, expected):
    assert rag.i18n.pick_language(setting, locale, header) == expected


def test_plural_follows_each_language():
    before = rag.i18n.current()
    with rag.i18n.language("fr"):
        assert i18n.tn("ing.found", 1) == "1 document trouvé"
        assert i18n.tn("ing.found", 0) == "0 document trouvé"
        assert i18n.tn("ing.found", 14) == "14 documents trouvés"
    with rag.i18n.language("en"):
        assert i18n.tn("ing.found", 1) == "1 document found"
        assert i18n.tn("ing.found", 0) == "0 documents found"
    assert rag.i18n.current() == before  # restored after each block
    assert contextvars.Context().run(rag.i18n.current) == "fr"  # nothing set: French


def test_a_choice_handed_back_by_its_label_in_either_language_is_its_option():
    # Streamlit keys a radio's value by its label: after English then Français, the Evaluate
    # page's filter came back as "toutes" and filter_rows raised ValueError.
    from ui.i18n import option_of
    from ui.present.evaluation import ALL, FILTERS, WRONGLY_REFUSED, filter_rows

    def words(which: str) -> str:
        return f"filter.{which}"

    assert option_of("toutes", FILTERS, words) == ALL
    assert option_of("all", FILTERS, words) == ALL and option_of("missed", FILTERS, words) == "missed"
    assert option_of("refusées à tort", FILTERS, words) == WRONGLY_REFUSED
    assert option_of(WRONGLY_REFUSED, FILTERS, words) == WRONGLY_REFUSED
    assert option_of("something else", FILTERS, words) == ALL
    rows = [{"in_base": True, "rank": None, "top1_score": 0.5}]
    assert filter_rows(rows, option_of("toutes", FILTERS, words), 0.8) == rows
