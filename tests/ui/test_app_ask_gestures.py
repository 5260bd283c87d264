"""The Ask page's gestures driven with AppTest over the demo index: what the latest answer's
sources bring forward under their headings, the comment and edit boxes once sent."""

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


def test_a_source_brings_forward_what_its_citation_rests_on_titled_with_its_section(app_env, lmstudio):
    """A passage grown by the text around it (rag.answer.context) is shown as the model received
    it, but what comes first under its heading is the part its citation rests on, and the heading
    names the section that part is in, not the article's introduction."""
    from rag.answer.cited_spans import cited_span
    from ui.present.answer import cited_source

    lmstudio.answer = ANSWER
    at = ask(start(), QUESTION)
    result = at.session_state["history"][-1]["result"]
    grown = [p for p in result.sources if len(p.pieces) > 1 and not p.text.startswith(p.pieces[0]["text"][:40])]
    assert grown, "a cited passage grown by the text before it (rag.answer.context)"
    shown = _under_headings(at)
    assert len(shown) == len(result.sources) == 2
    headings = [h.value for h in [m for m in at.chat_message if m.name == "assistant"][-1].subheader]
    span = cited_span(result.raw_answer, 1, result.sources[0])
    assert span is not None and shown[0] == cited_source(result.sources[0], result.raw_answer).cited
    assert f"/ {span.section}" in headings[0] and span.section != "Introduction"
    assert "MaxTokenSize" in shown[0] and "Certains utilisateurs" not in shown[0]
    # [2]'s sentence shares no word with its passage: nothing is brought forward, the passage is shown.
    assert cited_span(result.raw_answer, 2, result.sources[1]) is None
    assert shown[1] == cited_source(result.sources[1], result.raw_answer).before


def test_a_sent_comment_closes_its_box_empty_and_is_recorded_once(app_env, lmstudio, monkeypatch):
    from ui import conversations

    lmstudio.answer = ANSWER
    at = ask(start(), QUESTION)
    at.feedback[0].set_value(0).run()  # thumbs down, then a comment
    recorded = []
    real = conversations.vote
    monkeypatch.setattr(conversations, "vote", lambda *a, **k: (recorded.append(a[3]), real(*a, **k)))
    at.session_state["feedback_comment_box_0"] = True  # the reader opens the box
    at.run()
    at.text_area(key="feedback_comment_0").input("Il manque la version de Windows concernée.")
    at.button(key="feedback_comment_send_0").click().run()
    assert not at.exception
    assert recorded == ["Il manque la version de Windows concernée."]
    assert at.session_state["feedback_comment_box_0"] is False  # closed
    assert at.text_area(key="feedback_comment_0").value == ""  # and empty when opened again
    # The same words sent again (a second click, or typed again) are not recorded twice.
    at.text_area(key="feedback_comment_0").input("Il manque la version de Windows concernée.")
    at.button(key="feedback_comment_send_0").click().run()
    assert recorded == ["Il manque la version de Windows concernée."]


def test_a_resent_question_closes_its_edit_box(app_env, lmstudio):
    lmstudio.answer = ANSWER
    at = ask(start(), QUESTION)
    at.session_state["edit_box_0"] = True
    at.run()
    at.text_area(key="edit_0").input("Où se règle MaxTokenSize ?")
    at.button(key="resend_0").click().run()
    assert not at.exception
    assert [m.markdown[0].value for m in at.chat_message if m.name == "user"] == ["Où se règle MaxTokenSize ?"]
    assert at.session_state["edit_box_0"] is False  # closed


def test_a_fresh_session_opens_a_collection_that_exists(app_env, lmstudio, monkeypatch):
    """The configured collection was never made, another holds the articles: a fresh editor's
    session opens that one, and the sidebar never offers one that does not exist."""
    from streamlit.testing.v1 import AppTest

    from tests.ui.test_app_ask import APP, TIMEOUT, texts

    monkeypatch.setenv("RAG_COLLECTION", "notes")
    at = start()
    assert at.session_state["collection"] == app_env.collection
    assert at.sidebar.selectbox[0].options == [app_env.collection]
    assert at.chat_input, "the page asks for a question: it is not the empty collection's start"
    assert "demo" not in texts(at.info).lower()
    # An address naming a collection that is gone opens one that exists too.
    gone = AppTest.from_file(APP, default_timeout=TIMEOUT)
    gone.query_params["collection"] = "deleted"
    gone.run()
    assert gone.session_state["collection"] == app_env.collection and "deleted" not in gone.sidebar.selectbox[0].options
