"""Whatever Markdown form a model gives an address, it is shown as code (never a link) and flagged.

Markdown's autolinker links an address after an underscore (`_https://…_`, emphasis), after an
escape (`\\_https://…`), written with a character reference (`https&#58;//…`), `www.` without a
scheme, and e-mail addresses (a mailto: link). The browser test of the same inputs is
tests/ui/test_browser_answer_addresses.py.
"""

from __future__ import annotations

import re

import pytest

from rag.answer.citations import address_spans, answer_urls
from ui.present.answer import answer_text_markdown
from ui.present.safe_markdown import code_spans

HOSTILE = {
    "_https://evil.example/login_": "https://evil.example/login",
    "\\_https://evil.example/login": "https://evil.example/login",
    "_www.evil.example/login_": "www.evil.example/login",
    "https&#58;//evil.example/login": "https://evil.example/login",
    "https&colon;//evil.example/login": "https://evil.example/login",
    "https\\://evil.example/login": "https://evil.example/login",
    "Écrivez à support@evil.example.": "support@evil.example",
    "*support@evil.example*": "support@evil.example",
    "support&#64;evil.example": "support@evil.example",
    "HTTPS://EVIL.EXAMPLE/LOGIN": "HTTPS://EVIL.EXAMPLE/LOGIN",
    "x https://evil.example/a(b)": "https://evil.example/a",
    # a backtick left alone in the prose must not pair with the code span the address becomes
    "Un ` seul https://evil.example/login": "https://evil.example/login",
    # an escaped backtick opens no code span: the address after it is prose
    "\\`https://evil.example/login`": "https://evil.example/login",
}


@pytest.mark.parametrize("text", list(HOSTILE))
def test_every_form_of_an_address_is_flagged(text):
    assert answer_urls(f"Voir {text} pour la suite [1].") == [HOSTILE[text]]


def _prose_as_read(markdown: str) -> str:
    """What the autolinker reads outside code spans: escapes and references decoded."""
    spans = code_spans(markdown)
    prose, last = [], 0
    for start, end in spans:
        prose.append(markdown[last:start])
        last = end
    prose.append(markdown[last:])
    import html

    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", " ".join(prose))
    return html.unescape(text)


@pytest.mark.parametrize("text", list(HOSTILE))
def test_no_form_of_an_address_is_left_for_the_autolinker(text):
    shown = answer_text_markdown(f"Voir {text} pour la suite [1].")
    read = _prose_as_read(shown)
    assert not re.search(r"https?:/|www\.|@", read, re.IGNORECASE), (shown, read)
    assert f"`{HOSTILE[text]}`" in shown  # still readable, as code


def test_an_address_in_code_stays_as_written_and_is_flagged():
    text = "Lancez `curl https://evil.example/x` puis :\n\n```\nmail admin@corp.example\n```\n"
    shown = answer_text_markdown(text)
    assert "`curl https://evil.example/x`" in shown and "mail admin@corp.example\n" in shown
    assert answer_urls(text) == ["https://evil.example/x", "admin@corp.example"]


def test_an_address_spans_the_characters_as_written():
    text = "a https&#58;//e.example b"
    (start, end, address), = address_spans(text)
    assert text[start:end] == "https&#58;//e.example" and address == "https://e.example"


def test_plain_text_has_no_address():
    assert answer_urls("Lancez klist purge puis klist get krbtgt [1]. Le @ seul, a@b et x.y ne sont rien.") == []
