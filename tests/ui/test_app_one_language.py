"""Each page speaks one language: a French page shows no sentence of the English catalogues, an
English page none of the French ones (the articles' own French text aside)."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from rag import i18n
from ui.i18n import WORDS
from tests.fixtures.apptest import APP, TIMEOUT

PAGES = ["app_pages/1_Ask.py", "app_pages/2_Ingest.py", "app_pages/3_Evaluate.py", "app_pages/4_Journal.py"]


def shown(at: AppTest) -> str:
    """Every text of the page and its sidebar: values, labels, options, help."""
    found: list[str] = []

    def walk(node) -> None:
        for name in ("value", "label", "body", "help", "placeholder", "options"):
            try:
                value = getattr(node, name)
            except Exception:  # an element without it, or whose value is not text
                continue
            if isinstance(value, str):
                found.append(value)
            elif isinstance(value, (list, tuple)):
                found.extend(v for v in value if isinstance(v, str))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    walk(at.sidebar)
    found.extend(box.proto.placeholder for box in at.chat_input)  # at the page's bottom
    return "\n".join(found)


def sentences(lang: str, other: str) -> set[str]:
    """The stretches of `other`'s messages that `lang` writes differently: each message's text
    between its {fields}, kept when it is long enough to be a sentence of its own."""
    pieces: set[str] = set()
    for catalogue in (WORDS, i18n.RAG):
        texts = catalogue.texts
        for key, text in texts[other].items():
            if text == texts[lang].get(key):
                continue
            mine = texts[lang].get(key, "")
            pieces |= {p.strip() for p in re.split(r"\{[^}]*\}", text)
                       if len(p.strip()) >= 20 and p.strip() not in mine}
    return pieces


@pytest.mark.slow  # eight page runs over the demo index
@pytest.mark.parametrize("lang, other", [("fr", "en"), ("en", "fr")])
def test_each_page_shows_no_sentence_of_the_other_language(app_env, lmstudio, monkeypatch, lang, other):
    monkeypatch.setenv("RAG_UI_LANG", lang)
    foreign, own = sentences(lang, other), sentences(other, lang)
    for page in PAGES:
        at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
        at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
        text = shown(at)
        assert sum(p in text for p in own) >= 3, page  # the page was drawn, in its language
        leaked = sorted(p for p in foreign if p in text)
        assert not leaked, f"{page} in {lang}: {leaked}"


@pytest.mark.slow  # a page run over the demo index
def test_a_third_language_reaches_the_dashboard_with_one_catalogue(app_env, lmstudio, monkeypatch, tmp_path):
    """German for the test: one ui catalogue and one entry in LANGUAGES; the switch offers it,
    the page speaks it where it has words, French elsewhere."""
    import shutil

    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    german = Catalog(locale="de", domain="ui", fuzzy=False)
    german.add("lang.label", "Sprache")
    german.add("ask.input", "Ihre Frage zu den Artikeln")
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    with (locale / "de" / "LC_MESSAGES" / "ui.mo").open("wb") as mo:
        write_mo(mo, german)
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    monkeypatch.setitem(i18n.LANGUAGES, "de", "Deutsch")
    monkeypatch.setenv("RAG_UI_LANG", "de")

    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    text = shown(at)
    assert "Sprache" in text
    assert "Deutsch" in text
    assert "Ihre Frage zu den Artikeln" in text
    assert WORDS.texts["fr"]["nav.ask"] in text  # no German for it: French
