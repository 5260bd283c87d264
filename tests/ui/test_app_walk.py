"""What readers and editors trip on in a day's use, driven headless with AppTest: a sentence with
its {field} left in, a code where words were due, a follow-up that makes no sense once out of its
conversation."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.fixtures.apptest import APP, TIMEOUT
from tests.ui.test_app_one_language import shown

PAGES = ["app_pages/1_Ask.py", "app_pages/2_Ingest.py", "app_pages/3_Evaluate.py", "app_pages/4_Journal.py"]
FIELD = re.compile(r"\{[a-z_]+\}")  # a catalogue's field, as t() leaves it when given no value


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_no_page_shows_a_field_left_unfilled(app_env_empty, monkeypatch, lang):
    """Each page on a fresh install (the demo corpus the Ingest page's source) in each language."""
    monkeypatch.setenv("RAG_UI_LANG", lang)
    for page in PAGES:
        at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
        at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
        left = sorted({line for line in shown(at).splitlines() if FIELD.search(line)})
        assert not left, f"{page} in {lang}: {left}"
