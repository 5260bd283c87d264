"""`rag ingest SITE` when the WordPress site misbehaves: a clear message, the right exit status,
and the points of an earlier run untouched (even with --prune)."""

from __future__ import annotations

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.store.store import Store
from tests.fixtures.wordpress import load_real_posts


@pytest.fixture
def env(fake_embeddings_env, monkeypatch):
    monkeypatch.delenv("RAG_WP_USER", raising=False)
    monkeypatch.delenv("RAG_WP_APP_PASSWORD", raising=False)
    return fake_embeddings_env


@pytest.fixture
def site(make_wp_server, env, data_dir, capsys):
    """Three real posts, two a page, already indexed once."""
    wp = make_wp_server(posts=load_real_posts("frontity")[:3], max_per_page=2, retry_after="0")
    assert main(["ingest", wp.url]) == 0
    assert "3 new" in capsys.readouterr().out
    return wp


def _points(data_dir) -> dict[str, dict]:
    store = Store(Settings(data_dir=data_dir))
    return {p.id: p.payload for p in store.scroll("blog")}


SITE_FAULTS = {
    "401 authentication required": (dict(require_auth=True), ["requires authentication", "application password"]),
    "403 forbidden": (dict(fail_pages={1: 403}), ["requires authentication", "HTTP 403"]),
    "404 not a WordPress site": (dict(not_wordpress=True), ["does not look like a WordPress site", "/wp-json/"]),
    "429 too many requests": (dict(fail_times=100, fail_status=429), ["after 4 attempts", "HTTP 429", "try again later"]),
    "500 on page 2": (dict(fail_pages={2: 500}), ["Page 2", "HTTP 500", "earlier pages were read"]),
    "HTML instead of JSON": (dict(respond_html=True), ["answered HTML instead of JSON", "login page"]),
    "invalid JSON": (dict(invalid_json=True), ["answered invalid JSON", "plugin"]),
}


@pytest.mark.parametrize("fault", list(SITE_FAULTS))
def test_a_site_fault_stops_the_run_clearly_and_loses_nothing(fault, site, data_dir, capsys):
    before = _points(data_dir)
    attributes, words = SITE_FAULTS[fault]
    for name, value in attributes.items():
        setattr(site, name, value)
    assert main(["ingest", site.url, "--prune"]) == 2
    out, err = capsys.readouterr()
    assert "Stopped early: the source failed:" in out
    for word in words:
        assert word in out, out
    assert "Traceback" not in out + err
    assert " 0 pruned" in out
    assert _points(data_dir) == before


def test_missing_total_pages_header_still_reads_every_page(site, data_dir, capsys):
    before = _points(data_dir)
    site.drop_total_pages_header = True
    assert main(["ingest", site.url, "--prune"]) == 0
    assert "3 unchanged" in capsys.readouterr().out
    assert _points(data_dir) == before


def test_an_empty_site_indexes_nothing_and_prunes_nothing(site, data_dir, capsys):
    before = _points(data_dir)
    site.posts.clear()
    assert main(["ingest", site.url, "--prune"]) == 0
    out = capsys.readouterr().out
    assert "0 new" in out and "0 pruned" in out
    assert "warning: the source listed no document: nothing was pruned" in out
    assert _points(data_dir) == before


def test_a_post_with_no_text_is_skipped_and_the_run_succeeds(site, data_dir, capsys):
    before = _points(data_dir)
    empty = site.add_post("Brouillon vide", "")
    blank = site.add_post("Espaces seuls", "<p>&nbsp;</p>\n<p> </p>\n<div></div>")
    moved = site.add_post("Déplacé", '<p><a href="https://new.example/kerberos/">https://new.example/kerberos/</a></p>')
    assert main(["ingest", site.url]) == 0
    out = capsys.readouterr().out
    assert "3 unchanged" in out and "3 skipped (no text)" in out and "0 failed" in out
    assert f"skipped post {empty['id']} ({empty['link']}): has no text" in out
    assert f"skipped post {blank['id']} ({blank['link']}): has no text" in out
    assert f"skipped post {moved['id']} ({moved['link']}): has no text, only a link to https://new.example/kerberos/" in out
    assert _points(data_dir) == before


def test_a_post_that_became_a_redirect_stub_loses_its_points_on_prune(site, data_dir, capsys):
    post = site.posts[0]
    post["content"] = {"rendered": '<p><a href="https://new.example/">https://new.example/</a></p>', "protected": False}
    post["excerpt"] = {"rendered": "<p>https://new.example/</p>\n", "protected": False}  # WordPress's, from the content
    post["modified"] = "2030-01-01T00:00:00"
    assert main(["ingest", site.url, "--prune"]) == 0
    out = capsys.readouterr().out
    assert "1 skipped (no text)" in out and "1 pruned" in out
    assert post["link"] not in {p["url"] for p in _points(data_dir).values()}


@pytest.mark.slow  # 2 MB fetched, chunked, embedded and stored
def test_a_two_megabyte_post_is_indexed_whole(site, data_dir, capsys):
    paragraph = ("<p>Le contrôleur de domaine <code>dc01</code> réplique la base <strong>NTDS</strong> "
                 "toutes les quinze minutes ; vérifiez avec <code>repadmin /showrepl</code>.</p>\n")
    sections = "".join(f"<h2>Site {i}</h2>\n" + paragraph * 40 for i in range(2_000_000 // (len(paragraph) * 40)))
    assert len(sections) > 1_900_000
    huge = site.add_post("Réplication, le journal complet", sections)
    assert main(["ingest", site.url]) == 0
    out = capsys.readouterr().out
    assert "1 new" in out and "3 unchanged" in out and "0 failed" in out
    mine = [p for p in _points(data_dir).values() if p["url"] == huge["link"]]
    assert len(mine) == mine[0]["chunks"] > 500
    assert sorted(p["order"] for p in mine) == list(range(len(mine)))
    text = "".join(p["text"] for p in mine)
    assert text.count("repadmin /showrepl") >= sections.count("repadmin /showrepl")
