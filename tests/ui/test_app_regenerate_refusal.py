""""Regenerate" under a refusal of the answerability gate. The gate decides without the model, so
the same question on the same articles and settings was refused the same way again: the button
is not offered then, and the turn says what can change the answer. Once the articles or the
settings change, it is offered again, and says why."""

from __future__ import annotations

from rag.answer import followup
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.ingest.run import ingest
from tests.fixtures.apptest import one_document_collection
from tests.ui.test_app_ask import ask, start, texts
from ui import resources

OFF_TOPIC = "Quelle est la recette de la tarte tatin aux pommes caramélisées ?"
IN_BASE = "Comment purger les tickets Kerberos avec klist ?"


def _regenerate(at) -> list:
    return [b for b in at.button if (b.key or "").startswith("regenerate_")]


def _refused(at) -> bool:
    return at.session_state["history"][-1]["result"].outcome == "refused_gate"


def test_a_gate_refusal_offers_no_regenerate_but_says_how_to_get_another_answer(app_env_empty, lmstudio):
    one_document_collection()
    at = ask(start(), OFF_TOPIC)
    assert _refused(at) and lmstudio.chat_calls == 0
    assert not _regenerate(at)
    said = texts(at.caption)
    assert "Asked again as it is, this question would be refused again" in said
    assert "Rephrase it with “Edit” under your question" in said
    assert at.text_area(key="edit_0").value == OFF_TOPIC  # the way it names is there, under the question
    at.run()  # the next run of the page, nothing changed: still no button
    assert not _regenerate(at)

    # The session's threshold changed: asking again may come out otherwise, and the button says so.
    at.text_input(key="sidebar_threshold").input("0,5").run()
    [again] = _regenerate(at)
    assert again.help == "The articles or the settings have changed since this refusal: the question is checked again."
    assert "would be refused again" not in texts(at.caption)
    again.click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.session_state["history"]) == 1  # asked again in its place
    # Judged again at these settings: a floor this low lets the passages' closeness outweigh the
    # words no article holds (the gate weighs them together, rag.answer.gate).
    assert at.session_state["history"][-1]["result"].threshold == 0.5


def test_new_articles_in_the_collection_offer_regenerate_again(app_env_empty, lmstudio):
    one_document_collection()
    at = ask(start(), OFF_TOPIC)
    assert _refused(at) and not _regenerate(at)
    settings = Settings.from_env()
    store = resources.store(settings)  # the app's own store: the embedded folder admits one
    doc = Document("tatin.md", "tarte tatin", "# Tarte tatin\n\nLa recette de la tarte tatin : pommes caramélisées.")
    assert ingest([doc], store, EmbeddedEmbedder(threads=1), "blog", strategy="sections").new == 1
    at.run()
    assert len(_regenerate(at)) == 1


def test_an_answer_keeps_its_regenerate(app_env_empty, lmstudio):
    one_document_collection()
    lmstudio.answer = "Avec klist purge [1]."
    at = ask(start(), IN_BASE)
    assert at.session_state["history"][-1]["result"].outcome == "answered"
    assert [b.key for b in _regenerate(at)] == ["regenerate_0"] and not _regenerate(at)[0].help
    assert "would be refused again" not in texts(at.caption)


def test_a_follow_up_the_model_rewrote_keeps_its_regenerate_when_refused(app_env_empty, lmstudio):
    """The rewrite is the model's: asked again, the follow-up may be understood otherwise. (A
    follow-up that names what no article holds is refused as asked, never rewritten: this one names
    the article's own word.)"""
    one_document_collection()
    rewrite = "Quelle est la recette de la tarte tatin aux pommes caramélisées ?"
    lmstudio.answer = lambda messages: rewrite if followup.is_rewrite_request(messages) else "Avec klist purge [1]."
    at = ask(ask(start(), IN_BASE), "Et pour la session ?")
    last = at.session_state["history"][-1]
    assert last["understood"]["method"] == followup.MODEL and _refused(at)
    assert [b.key for b in _regenerate(at)] == ["regenerate_1"]
    assert "would be refused again" not in texts(at.caption)


def test_a_refused_turn_looks_the_same_after_a_reload(app_env_empty, lmstudio):
    """Before: its note and no "Regenerate"; reopened from the address, the same. An earlier
    refused turn keeps its passages, which were its answer, once another question is asked."""
    from streamlit.testing.v1 import AppTest

    from tests.fixtures.apptest import APP

    one_document_collection()
    at = ask(start(), OFF_TOPIC)
    assert _refused(at) and not _regenerate(at)
    before = texts(at.caption)
    assert "would be refused again" in before

    reopened = AppTest.from_file(APP, default_timeout=60)
    reopened.query_params.update({"conversation": at.session_state["conversation_id"], "collection": "blog"})
    reopened.run()
    assert not reopened.exception, [e.value for e in reopened.exception]
    assert _refused(reopened) and not _regenerate(reopened)
    assert "would be refused again" in texts(reopened.caption)

    lmstudio.answer = "Purgez avec klist purge [1]."
    ask(reopened, IN_BASE)
    first = [m for m in reopened.chat_message if m.name == "assistant"][0]
    assert first.expander and "found" in first.expander[-1].label
