"""`rag fetch` against the local WordPress test server, and the folder round trip of its output."""

from __future__ import annotations

import html
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.documents import Document
from rag.sources.html import html_to_markdown
from rag.sources.files import iter_folder, load_file
from rag.sources.frontmatter import split_front_matter
from rag.sources.wordpress import WordPressSource
from tests.fixtures.wordpress import load_real_posts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def site(make_wp_server):
    """22 real posts, 4 a page: 6 pages."""
    return make_wp_server(posts=load_real_posts("frontity", "worona", "qunit"), max_per_page=4)


@pytest.fixture(autouse=True)
def _no_credentials_from_the_environment(monkeypatch):
    monkeypatch.delenv("RAG_WP_USER", raising=False)
    monkeypatch.delenv("RAG_WP_APP_PASSWORD", raising=False)


def test_fetch_writes_every_post_once_with_front_matter(site, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out)]) == 0
    files = sorted(out.glob("*.md"))
    assert len(files) == 22
    assert len(site.posts_requests()) == 6
    names = {f.stem for f in files}
    assert "the-beauties-of-gullfoss" in names and "the-beauties-of-gullfoss-2" in names
    posts = {p["link"]: p for p in site.posts}
    for file in files:
        meta, body, error = split_front_matter(file.read_text(encoding="utf-8"))
        assert error is None
        post = posts[meta["url"]]
        assert meta["title"] == html.unescape(post["title"]["rendered"])
        assert meta["modified"] == post["modified"]
        assert meta["access"] == ["public"]
        assert "<p>" not in body and body.strip() == html_to_markdown(post["content"]["rendered"])
    titles = {split_front_matter(f.read_text(encoding="utf-8"))[0]["title"] for f in files}
    assert {"Switzerland’s Mountains", "The Land of Fire & Ice"} <= titles
    report = capsys.readouterr()
    assert "22 posts written" in report.out and "page 6/6" in report.err


def test_rerun_overwrites_the_same_files(site, tmp_path):
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out)]) == 0
    gullfoss = next(p for p in site.posts if p["slug"] == "the-beauties-of-gullfoss")
    site.update_post(gullfoss["id"], content="<p>New text about the falls.</p>")
    assert main(["fetch", site.url, "--out", str(out)]) == 0
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 22, "no duplicates and no temporary files left"
    assert "New text about the falls." in (out / "the-beauties-of-gullfoss.md").read_text(encoding="utf-8")


def test_folder_ingest_of_the_output_reproduces_the_site(site, tmp_path):
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out)]) == 0
    from_site = {d.url: d for d in WordPressSource(site.url).iter_documents() if isinstance(d, Document)}
    from_folder = {d.url: d for d in iter_folder(out) if isinstance(d, Document)}
    assert set(from_folder) == set(from_site)
    for url, doc in from_site.items():
        again = from_folder[url]
        assert (again.title, again.markdown, again.modified, again.access) == (doc.title, doc.markdown, doc.modified, doc.access)
        assert again.content_hash == doc.content_hash
    one = load_file(out / "iceland.md", out)
    assert isinstance(one, Document) and one.title == "The Land of Fire & Ice"


def test_a_broken_post_fails_the_run_but_the_others_are_written(site, tmp_path, capsys):
    site.add_post("Broken", "", id=8123)["content"] = {"rendered": None}
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out)]) == 1
    assert len(list(out.glob("*.md"))) == 22
    err = capsys.readouterr().err
    assert "post 8123" in err and "/broken/" in err


def test_private_posts_with_credentials_from_the_environment(site, tmp_path, monkeypatch):
    site.require_auth = True
    site.add_post("Internal notes", "<p>Only for the team.</p>", status="private", slug="internal-notes")
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out)]) == 2
    monkeypatch.setenv("RAG_WP_USER", site.username)
    monkeypatch.setenv("RAG_WP_APP_PASSWORD", site.app_password)
    assert main(["fetch", site.url, "--out", str(out), "--private-group", "team"]) == 0
    meta, body, _ = split_front_matter((out / "internal-notes.md").read_text(encoding="utf-8"))
    assert meta["access"] == ["team"] and body.strip() == "Only for the team."
    assert load_file(out / "internal-notes.md", out).access == ["team"]
    # A private post saved on disk is not readable by the machine's other accounts either.
    assert stat.S_IMODE((out / "internal-notes.md").stat().st_mode) == 0o600


def test_site_errors_exit_2_with_the_reason_and_no_secret(site, tmp_path, capsys):
    site.require_auth = True
    secret = "nope nope nope nope"
    status = main(["fetch", site.url, "--out", str(tmp_path / "o"), "--user", "editor", "--app-password", secret])
    assert status == 2
    err = capsys.readouterr().err
    assert "refused" in err and secret not in err


def test_modified_after_only_fetches_recent_posts(site, tmp_path):
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out), "--modified-after", "2019-06-01"]) == 0
    expected = [p for p in site.posts if p["modified"] > "2019-06-01T00:00:00"]
    assert len(list(out.glob("*.md"))) == len(expected) > 0


@pytest.mark.slow  # the installed command in a subprocess
def test_fetch_help_runs_as_a_command():
    result = subprocess.run(
        [sys.executable, "-m", "rag", "fetch", "--help"], capture_output=True, text=True, cwd=ROOT, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0
    assert "--app-password" in result.stdout and "--modified-after" in result.stdout


def test_a_post_with_no_text_is_skipped_and_fetch_succeeds(make_wp_server, tmp_path, capsys):
    site = make_wp_server(posts=load_real_posts("frontity")[:2])
    moved = site.add_post("Ancienne adresse", '<p><a href="https://new.example/">https://new.example/</a></p>')
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out)]) == 0
    report = capsys.readouterr()
    assert f"skipped: post {moved['id']} ({moved['link']}): has no text, only a link to https://new.example/" in report.err
    assert "2 posts written" in report.out and "1 skipped (no text" in report.out
    assert len(list(out.glob("*.md"))) == 2


def test_prune_removes_only_the_files_of_posts_gone_from_the_site(make_wp_server, tmp_path, capsys):
    from tests.fixtures.wordpress import load_real_pages

    site = make_wp_server(posts=load_real_posts("frontity")[:4], pages=load_real_pages()[:2])
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out), "--types", "posts,pages"]) == 0
    before = {f.name for f in out.glob("*.md")}
    assert len(before) == 6
    about = split_front_matter((out / "about.md").read_text(encoding="utf-8"))[0]
    assert about["wordpress_type"] == "pages"
    # What --prune must never touch: a note of the user's, and a file fetched from another site.
    (out / "my-notes.md").write_text("# Mes notes\n\nÀ garder.\n", encoding="utf-8")
    (out / "other-site.md").write_text(
        "---\ntitle: Ailleurs\nurl: https://other.example/post/\nsource: wordpress\nwordpress_id: 1\n---\n\nTexte.\n",
        encoding="utf-8")
    gone, broken = site.posts[0], site.posts[1]
    site.delete_post(gone["id"])
    broken["content"] = {"rendered": None}  # fails to convert: its earlier file is kept
    capsys.readouterr()

    assert main(["fetch", site.url, "--out", str(out), "--prune"]) == 1  # posts only, one failure
    report = capsys.readouterr()
    gone_file = f"{gone['slug']}.md"
    assert f"removed {gone_file}" in report.out and "1 removed" in report.out
    left = {f.name for f in out.glob("*.md")}
    assert left == (before - {gone_file}) | {"my-notes.md", "other-site.md"}  # pages kept: not read this time

    site.pages.pop(0)
    assert main(["fetch", site.url, "--out", str(out), "--prune", "--types", "posts,pages"]) == 1
    assert "about.md" not in {f.name for f in out.glob("*.md")}


def test_prune_refuses_an_incomplete_listing_and_keeps_everything(make_wp_server, tmp_path, capsys):
    site = make_wp_server(posts=load_real_posts("frontity")[:3])
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out)]) == 0
    assert main(["fetch", site.url, "--out", str(out), "--prune", "--modified-after", "2019-01-01"]) == 2
    assert "--modified-after" in capsys.readouterr().err
    kept = list(site.posts)
    site.posts.clear()  # a site that suddenly lists nothing
    assert main(["fetch", site.url, "--out", str(out), "--prune"]) == 0
    assert "nothing was removed" in capsys.readouterr().err
    site.posts[:] = kept
    site.fail_pages = {1: 500}  # a read that fails half-way prunes nothing either
    assert main(["fetch", site.url, "--out", str(out), "--prune"]) == 2
    assert len(list(out.glob("*.md"))) == 3
