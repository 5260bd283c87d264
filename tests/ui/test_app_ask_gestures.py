"""The Ask page's gestures driven with AppTest over the demo index: what the latest answer's
sources show under their headings."""

from __future__ import annotations

from tests.fixtures.chat_app import QUESTION
from tests.ui.test_app_ask import ask, start

ANSWER = ("MaxTokenSize se règle sous HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters [1]. "
          "Les symptômes du token bloat sont décrits aussi [2].")


def _under_headings(at) -> list[str]:
    """The text shown under each source heading of the latest answer, in order."""
    message = [m for m in at.chat_message if m.name == "assistant"][-1]
    shown, after_heading = [], False
    for element in message:
        kind = type(element).__name__
        if kind == "Subheader":
            after_heading = True
        elif kind == "Markdown" and after_heading:
            shown.append(str(element.value))
            after_heading = False
    return shown


def test_a_source_shows_the_chunk_its_heading_names_not_the_text_grown_around_it(app_env, lmstudio):
    lmstudio.answer = ANSWER
    at = ask(start(), QUESTION)
    result = at.session_state["history"][-1]["result"]
    grown = [p for p in result.sources if len(p.pieces) > 1 and not p.text.startswith(p.pieces[0]["text"][:40])]
    assert grown, "a cited passage grown by the text before it (rag.answer.context)"
    shown = _under_headings(at)
    assert len(shown) == len(result.sources) == 2
    for p, text in zip(result.sources, shown):
        # Under "… / Modifier MaxTokenSize", that section's text, not the article's introduction.
        assert text.startswith(f"**{p.section}**"), (p.section, text[:80])
    assert "Certains utilisateurs" not in shown[0]
