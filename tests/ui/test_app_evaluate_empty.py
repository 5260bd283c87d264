"""The Evaluate page before anything can be evaluated: a greyed-out "Run the evaluation" says
why and what to do, in the page's language, with the pages that index a collection one click away."""

from __future__ import annotations

from tests.fixtures.apptest import one_document_collection, open_page

EVALUATE = "app_pages/3_Evaluate.py"


def _infos(at) -> str:
    return "\n".join(i.value for i in at.info)


def _page_links(at) -> list[tuple[str, str]]:
    """(label, address) of each link to a page; the default page (Ask) is the app's root, ""."""
    return [(link.proto.label, link.proto.page) for link in at.get("page_link")]


def test_with_nothing_indexed_the_page_says_where_to_index_or_load_the_demo(app_env_empty, monkeypatch):
    at = open_page(EVALUATE)
    assert at.button(key="run_eval").disabled
    said = _infos(at)
    assert "Nothing is indexed yet" in said
    assert "**Ingest** page" in said and "demo corpus on the **Ask** page" in said
    assert _page_links(at) == [("Ingest", "Ingest"), ("Ask", "")]

    monkeypatch.setenv("RAG_UI_LANG", "fr")
    at = open_page(EVALUATE)
    assert at.button(key="run_eval").disabled
    said = _infos(at)
    assert "Rien n'est encore indexé" in said
    assert "page **Import**" in said and "corpus de démonstration dans la page **Questions**" in said
    assert [label for label, _ in _page_links(at)] == ["Import", "Questions"]


def _empty_collection(name: str) -> None:
    from rag.config import Settings
    from rag.store.store import Store

    store = Store(Settings.from_env())
    try:
        store.ensure_collection(name, "embedded:multilingual-e5-small", 384, "markdown", None)
    finally:
        store.close()


def test_an_empty_sidebar_collection_is_named_and_choosing_another_enables_the_run(app_env_empty):
    # Nothing holds documents yet: the sidebar keeps the configured "blog", never made, beside "notes".
    _empty_collection("notes")
    at = open_page(EVALUATE)
    assert at.multiselect(key="eval_collections").value == []
    assert at.button(key="run_eval").disabled
    assert "The collection **blog** chosen in the sidebar is empty" in _infos(at)
    assert len(_page_links(at)) == 2

    at.multiselect(key="eval_collections").set_value(["notes"]).run()
    assert not at.button(key="run_eval").disabled
    assert not at.info and not _page_links(at)


def test_a_cleared_choice_or_an_upload_not_yet_made_is_the_reason_given(app_env_empty):
    one_document_collection("blog")
    at = open_page(EVALUATE)
    assert not at.button(key="run_eval").disabled and not at.info
    at.multiselect(key="eval_collections").set_value([]).run()
    assert at.button(key="run_eval").disabled
    assert _infos(at) == "Choose one or two collections above to run the evaluation."
    assert not _page_links(at)  # a collection is there to choose: no detour to the other pages
    at.multiselect(key="eval_collections").set_value(["blog"]).run()
    at.radio(key="question_set_kind").set_value("uploaded").run()
    assert at.button(key="run_eval").disabled
    assert _infos(at) == "Upload a question set above, or take the shipped demo set, to run the evaluation."
