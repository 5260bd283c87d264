"""The Ingest page driven headless with AppTest: preview of a demo document, indexing uploads."""

from __future__ import annotations


import pytest
from streamlit.testing.v1 import AppTest

from rag.config import Settings
from rag.store.store import Store
from tests.fixtures.apptest import open_page, table_with

STRATEGIES = ["recursive", "sections", "sections_min_max", "markdown"]


def ingest_page() -> AppTest:
    return open_page("app_pages/2_Ingest.py")


def stats_table(at: AppTest):
    return table_with(at, "median (characters)")


@pytest.fixture
def empty_store(app_env_empty):
    """The app over an empty data folder."""
    return app_env_empty


def test_preview_shows_every_strategy_and_what_recursive_costs(app_env_empty):
    at = ingest_page()
    assert len(stats_table(at)) == 4  # the demo corpus is the default source: its first document

    at.selectbox(key="preview_doc").set_value("kerberos-klist.md").run()
    at.number_input(key="setting_chunk_size").set_value(500).run()
    assert not at.exception

    table = stats_table(at)
    assert list(table["strategy"]) == STRATEGIES
    assert (table["chunks"] > 0).all()
    assert "chunk size 500" in table.set_index("strategy").loc["recursive", "settings"]
    assert table.set_index("strategy").loc["recursive", "warnings"] >= 1
    assert table.set_index("strategy").loc["sections", "warnings"] == 0
    # One block of warnings a strategy, with its count, in words.
    warnings = [w.value for w in at.warning]
    assert len([w for w in warnings if w.startswith("**recursive: ")]) == 1
    assert any("cut through a code block" in w for w in warnings) and not any("code_block_split" in w for w in warnings)
    # One coloured rendering a strategy, escaped document text inside.
    assert len(at.main.html) == 4 and all("<span" in h.value for h in at.main.html)
    assert "Download the chunks (JSON)" in [b.label for b in at.get("download_button")]
    curl = at.code[0].value
    assert curl.startswith("curl -sS ") and '"encoding_format":"float"' in curl and "<<'RAG_EMBED_REQUEST'" in curl


def test_pasted_text_is_previewed(app_env_empty):
    at = ingest_page()
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value("# Note\n\n## Partie\n\n" + "Du texte. " * 30).run()
    table = stats_table(at)
    assert list(table["strategy"]) == STRATEGIES and table["chunks"].min() >= 1
    assert at.dataframe[0].value["address"].tolist() == ["pasted-text"]
    assert at.subheader[0].value == "1 document found"


def test_indexing_two_uploaded_files_reports_two_new_then_two_unchanged(empty_store):
    files = [
        ("laps.md", b"# LAPS\n\n## Rotation\n\nLe mot de passe change tous les 30 jours.\n", "text/markdown"),
        ("klist.html", b"<html><head><title>klist</title></head><body><main><h1>klist</h1>"
                       b"<p>klist purge efface les tickets Kerberos.</p></main></body></html>", "text/html"),
    ]
    at = ingest_page()
    at.radio(key="source_kind").set_value("upload").run()
    at.file_uploader[0].set_value(files).run()
    assert at.dataframe[0].value["address"].tolist() == ["klist.html", "laps.md"]

    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {"new": "2", "changed": "0", "unchanged": "0", "failed": "0"}
    assert "Collection **blog**" in at.success[0].value and "passages written" in at.success[0].value
    # The sidebar now shows the new collection and its passages.
    sidebar = "\n".join(c.value for c in at.sidebar.caption)
    assert "passages · strategy markdown" in sidebar and "embedded:multilingual-e5-small" in sidebar

    at.button(key="index").click().run()
    assert {m.label: m.value for m in at.metric}["unchanged"] == "2"


def test_wordpress_site_with_an_application_password(app_env_empty, make_wp_server):
    from tests.fixtures.wordpress import load_real_posts

    wp = make_wp_server(posts=load_real_posts("frontity")[:3], require_auth=True)
    at = ingest_page()
    at.radio(key="source_kind").set_value("wordpress").run()
    at.text_input[0].input(wp.url)
    at.text_input[1].input(wp.username)
    at.text_input[2].input(wp.app_password)
    assert at.text_input[2].proto.type == at.text_input[2].proto.PASSWORD  # typed, never shown
    at.form_submit_button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]

    listed = at.dataframe[0].value
    assert len(listed) == 3 and all(url.startswith(wp.url) for url in listed["address"])
    assert {r.user for r in wp.posts_requests()} == {wp.username}
    assert len(stats_table(at)) == 4
    # The password appears nowhere on the page.
    shown = [e.value for kind in ("markdown", "caption", "code", "error", "warning", "info")
             for e in getattr(at, kind)]
    assert not any(wp.app_password in str(value) for value in shown)


def test_a_first_source_goes_into_the_session_s_empty_collection_beside_another_one(empty_store):
    """Bug: with the demo loaded into its own collection, the sidebar's 'blog' (empty: "add a
    source") was not offered: a new collection with no name, and Index disabled without a word."""
    store = Store(Settings.from_env())
    try:
        store.ensure_collection("demo", "embedded:multilingual-e5-small", 384, "markdown", None)
    finally:
        store.close()
    at = ingest_page()
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value("# Note\n\n## Partie\n\n" + "Du texte. " * 30).run()
    assert at.text_input(key="new_collection").value == "blog"
    assert not at.button(key="index").disabled
    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["new"] == "1"


def test_chunk_settings_are_kept_across_a_source_switch_and_a_collection_built_otherwise_is_rebuilt(empty_store):
    """Bug: the settings came back empty after a source switch, indexing then used the defaults
    and stopped on a Python dict and CLI flags, with no rebuild button and the old report shown."""
    at = ingest_page()
    at.button(key="index").click().run()  # the demo corpus, default settings, into a new "blog"
    assert {m.label: m.value for m in at.metric}["new"] == "14"
    at.number_input(key="setting_chunk_size").set_value(300).run()
    at.radio(key="source_kind").set_value("paste").run()  # nothing pasted yet: the page stops early
    at.text_area[0].set_value("# Note\n\n## Partie\n\n" + "Du texte. " * 80).run()
    assert at.number_input(key="setting_chunk_size").value == 300
    assert "chunk size 300" in stats_table(at).set_index("strategy").loc["markdown", "settings"]
    assert not at.metric  # the demo's report does not describe this run

    # "blog" was cut otherwise: said in words, Index disabled, Rebuild offered.
    said = "\n".join(w.value for w in at.warning)
    assert "**blog** was cut with markdown (chunk size 1000, overlap 200); you chose markdown (chunk size 300" in said
    assert "{" not in said and "--full" not in said
    assert at.button(key="index").disabled
    at.button(key="rebuild").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["new"] == "1"
    store = Store(Settings.from_env())
    try:
        info = store.collection_info("blog")
        assert info["chunk_settings"]["chunk_size"] == 300
        assert {p.payload["url"] for p in store.scroll("blog")} == {"pasted-text"}
    finally:
        store.close()


def test_the_ingest_page_in_french(empty_store, monkeypatch):
    monkeypatch.delenv("RAG_UI_LANG")
    at = ingest_page()
    assert at.title[0].value == "Import" and at.subheader[0].value == "14 documents trouvés"
    assert [n.label for n in at.number_input if n.key.startswith("setting_")] == [
        "Taille", "Chevauchement", "Taille min.", "Taille max."]
    assert at.button(key="index").label == "Indexer 14 documents"
    assert "nouvelle collection…" in at.selectbox(key="target_collection").options


def test_wordpress_pages_are_read_when_asked(app_env_empty, make_wp_server):
    from tests.fixtures.wordpress import load_real_pages, load_real_posts

    wp = make_wp_server(posts=load_real_posts("frontity")[:2], pages=load_real_pages()[:2])
    at = ingest_page()
    at.radio(key="source_kind").set_value("wordpress").run()
    at.text_input[0].input(wp.url)
    at.checkbox(key="wp_pages").check()
    at.form_submit_button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    listed = set(at.dataframe[0].value["address"])
    assert {p["link"] for p in wp.pages} <= listed and len(listed) == 4
    # Another source and back: the box still says the pages were read, as the list shows.
    at.radio(key="source_kind").set_value("demo").run()
    at.radio(key="source_kind").set_value("wordpress").run()
    assert at.checkbox(key="wp_pages").value is True


def test_a_source_that_gave_nothing_yet_says_what_to_do_with_it(empty_store, monkeypatch):
    """It said 'Choisissez une source ci-dessus' beside the source just chosen."""
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    at = ingest_page()
    hints = {}
    for kind in ("upload", "paste", "wordpress"):
        at.radio(key="source_kind").set_value(kind).run()
        assert not at.exception, [e.value for e in at.exception]
        hints[kind] = at.info[0].value
    assert hints["upload"].startswith("Déposez des fichiers Markdown ou HTML ci-dessus")
    assert hints["paste"].startswith("Collez un texte Markdown ci-dessus")
    assert hints["wordpress"].startswith("Indiquez l'adresse du site puis « Lire les articles »")


# 282 bytes in UTF-8, as a French title of a long procedure can be (the accents take two bytes each).
LONG_NAME = "Procédure de récupération après défaillance d'un contrôleur " + "étape vérifiée, " * 11 + "fine.md"


def test_uploads_with_unusable_names_are_named_with_their_reason_and_the_others_indexed(empty_store):
    assert len(LONG_NAME.encode()) == 282  # past the 255 a file system allows
    files = [("ok.md", b"# LAPS\n\nLe mot de passe change tous les 30 jours.\n", "text/markdown"),
             (LONG_NAME, b"# Long\n\nUn texte au nom trop long.\n", "text/markdown"),
             (".md", b"# Point\n\nUn texte sans nom.\n", "text/markdown")]
    at = ingest_page()
    at.radio(key="source_kind").set_value("upload").run()
    at.file_uploader[0].set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    table = at.dataframe[0].value
    assert set(table["address"]) == {"ok.md", LONG_NAME, ".md"}
    shown = "\n".join(str(v) for v in table.to_numpy().ravel())
    assert "longer than the 240 a file name may have" in shown and "no name before its extension" in shown
    assert "Traceback" not in shown and "/tmp" not in shown

    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["new"], metrics["failed"]) == ("1", "2")


def test_a_collection_built_before_the_word_check_is_offered_a_rebuild_that_turns_it_on(empty_store):
    """Its answers say it was built before the question-word check: the page where its sources are
    indexed says so too, and rebuilds it there (not only with a command line)."""
    at = ingest_page()
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value("# Note\n\n## Partie\n\n" + "Du texte. " * 30).run()
    at.button(key="index").click().run()
    assert not [w for w in at.warning if "question-word check" in w.value]
    store = Store(Settings.from_env())
    try:
        store.update_metadata("blog", terms_version=None)  # as a collection of before the check
    finally:
        store.close()

    at = ingest_page()
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value("# Note\n\n## Partie\n\n" + "Du texte. " * 30).run()
    said = "\n".join(w.value for w in at.warning)
    assert "**blog** was built before the question-word check" in said and "--full" not in said
    assert not at.button(key="index").disabled  # indexing more into it stays possible
    at.button(key="rebuild").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["new"] == "1"
    at = ingest_page()  # the rebuilt collection: nothing more to say
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value("# Note\n\n## Partie\n\n" + "Du texte. " * 30).run()
    assert not [w for w in at.warning if "question-word check" in w.value]
    assert "rebuild" not in [b.key for b in at.button]


def test_the_demo_corpus_goes_into_a_collection_of_other_articles_only_once_ticked(empty_store):
    """The page opens on the demo corpus, after a reload too, with the session's collection as
    target: one click added the demo's articles to a writer's own, where they answered readers."""
    at = ingest_page()
    at.radio(key="source_kind").set_value("paste").run()
    at.text_area[0].set_value("# Note\n\n## Partie\n\n" + "Du texte. " * 30).run()
    at.button(key="index").click().run()  # "blog": the writer's one article

    at = ingest_page()  # as after a reload
    at.radio(key="source_kind").set_value("demo").run()
    said = [w.value for w in at.warning if "the demo corpus would be added" in w.value]
    assert len(said) == 1 and said[0].startswith("**blog** already holds other articles")
    assert at.button(key="index").disabled
    at.checkbox(key="demo_into_blog").check().run()
    assert not at.button(key="index").disabled
    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["new"] == "14"

    # Into a new collection, then again into it (its own articles only): nothing to tick.
    for _ in range(2):
        at = ingest_page()
        at.radio(key="source_kind").set_value("demo").run()
        if "demo" not in at.selectbox(key="target_collection").options:
            at.selectbox(key="target_collection").set_value("__new__").run()
            at.text_input(key="new_collection").set_value("demo").run()
        else:
            at.selectbox(key="target_collection").set_value("demo").run()
        assert not [w for w in at.warning if "the demo corpus would be added" in w.value]
        assert not at.button(key="index").disabled
        at.button(key="index").click().run()
        assert not at.exception, [e.value for e in at.exception]
