"""The Ingest page driven headless with AppTest: preview of a demo document, indexing uploads."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
TIMEOUT = 120
STRATEGIES = ["recursive", "sections", "sections_min_max", "markdown"]


def ingest_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.switch_page("app_pages/2_Ingest.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def stats_table(at: AppTest):
    tables = [d.value for d in at.dataframe if "median chars" in d.value.columns]
    assert len(tables) == 1
    return tables[0]


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
    assert "chunk_size=500" in table.set_index("strategy").loc["recursive", "settings"]
    assert "code_block_split" in table.set_index("strategy").loc["recursive", "warnings"]
    assert table.set_index("strategy").loc["sections", "warnings"] == "none"
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("**recursive**") and "(code_block_split)" in w for w in warnings)
    # One coloured rendering a strategy, escaped document text inside.
    assert len(at.html) == 4 and all("<span" in h.value for h in at.html)
    assert "Download the chunks (JSON)" in [b.label for b in at.get("download_button")]
    curl = at.code[0].value
    assert curl.startswith("curl -sS ") and '"encoding_format":"float"' in curl and "<<'RAG_EMBED_REQUEST'" in curl


def test_pasted_text_is_previewed(app_env_empty):
    at = ingest_page()
    at.radio[0].set_value("Pasted text").run()
    at.text_area[0].set_value("# Note\n\n## Partie\n\n" + "Du texte. " * 30).run()
    table = stats_table(at)
    assert list(table["strategy"]) == STRATEGIES and table["chunks"].min() >= 1
    assert at.dataframe[0].value["url"].tolist() == ["pasted-text"]


def test_indexing_two_uploaded_files_reports_two_new_then_two_unchanged(empty_store):
    files = [
        ("laps.md", b"# LAPS\n\n## Rotation\n\nLe mot de passe change tous les 30 jours.\n", "text/markdown"),
        ("klist.html", b"<html><head><title>klist</title></head><body><main><h1>klist</h1>"
                       b"<p>klist purge efface les tickets Kerberos.</p></main></body></html>", "text/html"),
    ]
    at = ingest_page()
    at.radio[0].set_value("Upload files").run()
    at.file_uploader[0].set_value(files).run()
    assert at.dataframe[0].value["url"].tolist() == ["klist.html", "laps.md"]

    at.button(key="index").click().run()
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {"new": "2", "changed": "0", "unchanged": "0", "failed": "0"}
    assert "Collection **blog**" in at.success[0].value and "chunks written" in at.success[0].value
    # The sidebar now shows the new collection and its points.
    assert any("points" in c.value and "embedded:multilingual-e5-small" in c.value for c in at.sidebar.caption)

    at.button(key="index").click().run()
    assert {m.label: m.value for m in at.metric}["unchanged"] == "2"


def test_wordpress_site_with_an_application_password(app_env_empty, make_wp_server):
    from tests.fixtures.wordpress import load_real_posts

    wp = make_wp_server(posts=load_real_posts("frontity")[:3], require_auth=True)
    at = ingest_page()
    at.radio[0].set_value("WordPress site").run()
    at.text_input[0].input(wp.url)
    at.text_input[1].input(wp.username)
    at.text_input[2].input(wp.app_password)
    assert at.text_input[2].proto.type == at.text_input[2].proto.PASSWORD  # typed, never shown
    at.form_submit_button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]

    listed = at.dataframe[0].value
    assert len(listed) == 3 and all(url.startswith(wp.url) for url in listed["url"])
    assert {r.user for r in wp.posts_requests()} == {wp.username}
    assert len(stats_table(at)) == 4
    # The password appears nowhere on the page.
    shown = [e.value for kind in ("markdown", "caption", "code", "error", "warning", "info")
             for e in getattr(at, kind)]
    assert not any(wp.app_password in str(value) for value in shown)
