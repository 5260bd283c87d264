"""The WordPress source against the local WordPress test server (real posts, real HTTP)."""

from __future__ import annotations

import html

import pytest

from rag.documents import Document, Problem
from rag.errors import SourceError
from rag.sources.html import html_to_markdown
from rag.sources import load_one, open_source
from rag.sources.wordpress import WordPressSource
from tests.fixtures.wordpress import load_real_pages, load_real_posts

FAST = {"backoff": 0.01, "max_delay": 0.05}


def _split(items):
    docs = [i for i in items if isinstance(i, Document)]
    problems = [i for i in items if isinstance(i, Problem)]
    return docs, problems


@pytest.fixture
def small_site(make_wp_server):
    """22 real posts (frontity, worona, qunit), 5 a page: 5 pages."""
    return make_wp_server(posts=load_real_posts("frontity", "worona", "qunit"), max_per_page=5)


def test_the_whole_real_site_comes_through_in_two_pages(wp_server):
    source = WordPressSource(wp_server.url, **FAST)
    docs, problems = _split(list(source.iter_documents()))
    assert len(wp_server.posts_requests()) == 2
    assert source.total_posts == len(wp_server.posts) == 139
    assert len(docs) + len(problems) == 139
    assert len({d.url for d in docs}) == len(docs)
    # The Theme Unit Test's password-protected post and its posts with no text (an empty one, a
    # lone link, a lone linked image) are skipped, not failures.
    assert len(problems) == 5
    assert [p.level for p in problems if "password-protected" in p.message] == ["skipped"]
    skipped = {p.item.rsplit("/", 2)[-2]: p.message for p in problems if p.level == "skipped"}
    assert set(skipped) == {"title", "edge-case-no-content", "post-format-link", "post-format-image",
                            "template-password-protected"}
    assert "only a link to https://make.wordpress.org/themes" in skipped["post-format-link"]
    assert all(d.source == "wordpress" and d.access == ["public"] and d.markdown for d in docs)
    code = next(d for d in docs if d.title == "Code")
    assert "```" in code.markdown


def test_pagination_across_several_pages_yields_every_post_once(small_site):
    docs, problems = _split(list(WordPressSource(small_site.url, **FAST).iter_documents()))
    assert problems == []
    assert sorted(d.url for d in docs) == sorted(p["link"] for p in small_site.posts)
    pages = [int(r.query["page"]) for r in small_site.posts_requests()]
    assert pages == [1, 2, 3, 4, 5]
    first = small_site.posts_requests()[0].query
    assert first["per_page"] == "100" and "title" in first["_fields"] and "modified" in first["_fields"]


def test_documents_carry_link_modified_and_decoded_title(small_site):
    docs, _ = _split(list(WordPressSource(small_site.url, **FAST).iter_documents()))
    by_url = {d.url: d for d in docs}
    titles = {d.title for d in docs}
    assert "Switzerland’s Mountains" in titles
    assert "The Land of Fire & Ice" in titles
    assert not any("&#" in t or "&amp;" in t for t in titles)
    for post in small_site.posts:
        doc = by_url[post["link"]]
        assert doc.title == html.unescape(post["title"]["rendered"])
        assert doc.modified == post["modified"]
        assert doc.markdown == html_to_markdown(post["content"]["rendered"])
        assert "<p>" not in doc.markdown


def test_missing_total_pages_header_pages_until_wordpress_says_stop(small_site):
    small_site.drop_total_pages_header = True
    docs, problems = _split(list(WordPressSource(small_site.url, **FAST).iter_documents()))
    assert len(docs) == 22 and problems == []
    statuses = [r.status for r in small_site.posts_requests()]
    assert statuses == [200] * 5 + [400]


def test_rest_route_fallback_for_sites_without_pretty_permalinks(small_site):
    small_site.pretty_permalinks = False
    docs, _ = _split(list(WordPressSource(small_site.url, **FAST).iter_documents()))
    assert len(docs) == 22
    logged = small_site.requests
    assert logged[0].path == "/wp-json/wp/v2/posts" and logged[0].status == 404
    assert logged[1].path == "/index.php/wp-json/wp/v2/posts" and logged[1].status == 404
    assert all(r.query.get("rest_route") == "/wp/v2/posts" for r in logged[2:])
    assert [r.query["page"] for r in logged[2:]] == ["1", "2", "3", "4", "5"]


def test_site_url_with_api_path_or_trailing_slash_is_accepted(small_site):
    for url in (small_site.url + "/", small_site.url + "/wp-json/"):
        docs, _ = _split(list(WordPressSource(url, **FAST).iter_documents()))
        assert len(docs) == 22


def test_authentication_needed_says_to_give_an_application_password(small_site):
    small_site.require_auth = True
    with pytest.raises(SourceError, match="application password"):
        list(WordPressSource(small_site.url, **FAST).iter_documents())
    docs, _ = _split(
        list(WordPressSource(small_site.url, username=small_site.username, app_password=small_site.app_password, **FAST).iter_documents())
    )
    assert len(docs) == 22


def test_wrong_password_is_refused_and_never_shown(small_site):
    secret = "wxyz 9876 QRST 5432 abcd EFGH"
    source = WordPressSource(small_site.url, username=small_site.username, app_password=secret, **FAST)
    with pytest.raises(SourceError) as caught:
        list(source.iter_documents())
    message = str(caught.value)
    assert "refused" in message and "application password" in message
    assert secret not in message and secret.replace(" ", "") not in message
    assert secret not in repr(source) and "***" in repr(source)


def test_private_posts_need_credentials_and_get_the_private_group(small_site):
    small_site.add_post("Team only &amp; secret", "<p>Internal runbook.</p>", status="private")
    public_docs, _ = _split(list(WordPressSource(small_site.url, **FAST).iter_documents()))
    assert all(d.title != "Team only & secret" for d in public_docs)
    assert "status" not in small_site.posts_requests()[0].query

    source = WordPressSource(
        small_site.url, username=small_site.username, app_password=small_site.app_password,
        private_group="staff", **FAST,
    )
    docs, _ = _split(list(source.iter_documents()))
    private = [d for d in docs if d.title == "Team only & secret"]
    assert len(private) == 1 and private[0].access == ["staff"]
    assert all(d.access == ["public"] for d in docs if d is not private[0])
    assert small_site.posts_requests()[-1].query["status"] == "publish,private"


def test_html_instead_of_json_is_a_clear_error(small_site):
    small_site.respond_html = True
    with pytest.raises(SourceError, match="HTML instead of JSON"):
        list(WordPressSource(small_site.url, **FAST).iter_documents())


def test_invalid_json_is_a_clear_error(small_site):
    small_site.invalid_json = True
    with pytest.raises(SourceError, match="invalid JSON"):
        list(WordPressSource(small_site.url, **FAST).iter_documents())


def test_a_site_that_is_not_wordpress_is_named_as_such(small_site):
    small_site.not_wordpress = True
    with pytest.raises(SourceError, match="does not look like a WordPress site"):
        list(WordPressSource(small_site.url, **FAST).iter_documents())


def test_unreachable_site_is_a_clear_error(make_wp_server):
    server = make_wp_server(posts=[])
    url = server.url
    server.stop()
    with pytest.raises(SourceError, match="Could not reach"):
        list(WordPressSource(url, retries=1, **FAST).iter_documents())


def test_timeout_is_applied_to_every_call(small_site):
    small_site.delay = 1.0
    with pytest.raises(SourceError, match="no answer within 0.2 s"):
        list(WordPressSource(small_site.url, timeout=0.2, retries=0).iter_documents())


def test_server_error_on_page_two_names_page_two_after_retries(small_site):
    small_site.fail_pages = {2: 500}
    got = []
    with pytest.raises(SourceError) as caught:
        for item in WordPressSource(small_site.url, retries=2, **FAST).iter_documents():
            got.append(item)
    assert "Page 2" in str(caught.value) and "HTTP 500" in str(caught.value)
    assert len(got) == 5, "page 1 was delivered before the failure"
    assert [r.query["page"] for r in small_site.posts_requests()] == ["1", "2", "2", "2"]


@pytest.mark.parametrize("status", [429, 503])
def test_retries_on_busy_server_then_success(small_site, status):
    small_site.fail_times = 2
    small_site.fail_status = status
    small_site.retry_after = "0"
    docs, _ = _split(list(WordPressSource(small_site.url, **FAST).iter_documents()))
    assert len(docs) == 22
    statuses = [r.status for r in small_site.posts_requests()]
    assert statuses[:3] == [status, status, 200]


def test_retries_are_bounded(small_site):
    small_site.fail_times = 100
    with pytest.raises(SourceError, match="after 3 attempts"):
        list(WordPressSource(small_site.url, retries=2, **FAST).iter_documents())
    assert len(small_site.posts_requests()) == 3


def test_retry_after_is_honoured_but_capped(small_site):
    small_site.fail_times = 1
    small_site.fail_status = 429
    small_site.retry_after = "3600"
    docs, _ = _split(list(WordPressSource(small_site.url, backoff=0.01, max_delay=0.05).iter_documents()))
    assert len(docs) == 22


def test_a_broken_post_is_a_problem_naming_it_and_others_come_through(small_site):
    small_site.posts.append({"id": 7001, "title": {"rendered": "No link"}, "content": {"rendered": "<p>x</p>"},
                             "date": "2030-01-01T00:00:00"})
    small_site.add_post("Content is a number", "", id=7002)["content"] = {"rendered": 42}
    small_site.add_post("Too deep", "<div>" * 3000 + "deep" + "</div>" * 3000, id=7003)
    small_site.add_post("Title is a list", "<p>fine</p>", id=7004)["title"] = {"rendered": ["a"]}
    docs, problems = _split(list(WordPressSource(small_site.url, **FAST).iter_documents()))
    assert len(docs) == 22
    named = {p.item.split()[1]: p for p in problems}
    assert set(named) == {"7001", "7002", "7003", "7004"}
    assert "link" in named["7001"].message
    assert "content" in named["7002"].message
    assert "nested too deeply" in named["7003"].message and "/too-deep/" in named["7003"].item
    assert all(p.level == "error" for p in problems)


def test_modified_after_is_passed_through(small_site):
    source = WordPressSource(small_site.url, modified_after="2019-06-01", **FAST)
    docs, _ = _split(list(source.iter_documents()))
    assert small_site.posts_requests()[0].query["modified_after"] == "2019-06-01T00:00:00"
    expected = {p["link"] for p in small_site.posts if p["modified"] > "2019-06-01T00:00:00"}
    assert {d.url for d in docs} == expected and 0 < len(expected) < 22


def test_modified_after_must_be_a_date():
    with pytest.raises(SourceError, match="not an ISO date"):
        WordPressSource("https://blog.example.com", modified_after="last tuesday")


def test_updated_and_deleted_posts_show_on_the_next_run(small_site):
    first = small_site.posts[0]
    small_site.update_post(first["id"], content="<p>Rewritten.</p>")
    victim = small_site.posts[1]["link"]
    small_site.delete_post(small_site.posts[1]["id"])
    docs, _ = _split(list(WordPressSource(small_site.url, **FAST).iter_documents()))
    by_url = {d.url: d for d in docs}
    assert by_url[first["link"]].markdown == "Rewritten."
    assert victim not in by_url and len(docs) == 21


def test_open_source_picks_wordpress_for_urls(small_site):
    items = list(open_source(small_site.url, default_access=["ignored"], backoff=0.01))
    assert len(items) == 22 and all(isinstance(i, Document) for i in items)


def test_load_one_reads_a_post_page(small_site):
    post = next(p for p in small_site.posts if p["id"] == 60)
    doc = load_one(post["link"])
    assert doc.url == post["link"]
    assert doc.title.startswith("The Beauties of Gullfoss")
    assert "# The Beauties of Gullfoss" in doc.markdown
    assert "Gullfoss is a waterfall" in doc.markdown
    assert "Footer" not in doc.markdown and "var x" not in doc.markdown


def test_an_empty_site_gives_no_documents_and_no_error(make_wp_server):
    server = make_wp_server(posts=[])
    assert list(WordPressSource(server.url, **FAST).iter_documents()) == []


def test_the_test_server_speaks_like_wordpress(small_site):
    import httpx

    small_site.max_per_page = 100
    api = f"{small_site.url}/wp-json/wp/v2/posts"
    first = httpx.get(api, params={"per_page": 3, "_fields": "id,title.rendered"}, timeout=5)
    assert first.headers["X-WP-Total"] == "22" and first.headers["X-WP-TotalPages"] == "8"
    assert all(set(p) == {"id", "title"} and set(p["title"]) == {"rendered"} for p in first.json())
    beyond = httpx.get(api, params={"per_page": 100, "page": 2}, timeout=5)
    assert beyond.status_code == 400 and beyond.json()["code"] == "rest_post_invalid_page_number"
    assert httpx.get(api, params={"per_page": 101}, timeout=5).json()["code"] == "rest_invalid_param"
    assert httpx.get(api, params={"status": "private"}, timeout=5).status_code == 401
    assert httpx.get(api, params={"modified_after": "2019-01-01"}, timeout=5).status_code == 400
    plain = httpx.get(f"{small_site.url}/", params={"rest_route": "/wp/v2/posts", "per_page": 100}, timeout=5)
    assert len(plain.json()) == 22
    dates = [p["date"] for p in plain.json()]
    assert dates == sorted(dates, reverse=True)
    home = httpx.get(small_site.url + "/", timeout=5)
    assert "api.w.org" in home.headers["link"]


def test_pages_are_read_as_well_as_posts_when_asked(make_wp_server):
    site = make_wp_server(posts=load_real_posts("frontity")[:3], pages=load_real_pages(), max_per_page=10)
    posts_only, _ = _split(list(WordPressSource(site.url, **FAST).iter_documents()))
    assert len(posts_only) == 3 and site.pages_requests() == []

    source = WordPressSource(site.url, types="posts,pages", **FAST)
    items = list(source.iter_documents())
    docs, problems = _split(items)
    page_links = {p["link"] for p in site.pages}
    pages = [d for d in docs if d.url in page_links]
    # The 22 real pages, three of whose are empty or hold a few characters.
    assert len(pages) + len([p for p in problems if p.item.startswith("page ")]) == 22
    assert len(pages) >= 15 and len(docs) == 3 + len(pages)
    about = next(d for d in pages if d.title == "About The Tests")
    assert about.source == "wordpress" and about.access == ["public"] and about.markdown
    assert all(p.level == "skipped" for p in problems), problems  # pages with no text are not failures
    assert [int(r.query["page"]) for r in site.pages_requests()] == [1, 2, 3]
    assert source.total_posts == 3 + 22


def test_content_types_are_checked_before_any_request(make_wp_server):
    site = make_wp_server(posts=load_real_posts("frontity")[:1])
    with pytest.raises(SourceError, match="posts, pages"):
        WordPressSource(site.url, types="posts,../users")
    with pytest.raises(SourceError, match="Check --types"):
        list(WordPressSource(site.url, types="posts,recipes", **FAST).iter_documents())
    assert WordPressSource(site.url, types="post, page,pages").types == ("posts", "pages")


def test_a_site_with_index_php_permalinks_is_read_through_index_php(make_wp_server):
    # The seed blog's permalinks: /index.php/2026/10/27/slug/ and /index.php/wp-json/.
    site = make_wp_server(posts=load_real_posts("frontity", "worona"), index_php_permalinks=True, max_per_page=5)
    added = site.add_post("Kerberos", "<p>Purger les tickets avec klist purge.</p>")
    assert added["link"].startswith(site.url + "/index.php/")
    for given in (site.url, site.url + "/index.php", site.url + "/index.php/wp-json/wp/v2/posts"):
        site.requests.clear()
        docs, problems = _split(list(WordPressSource(given, **FAST).iter_documents()))
        assert len(docs) == 22 and problems == []
        paths = [r.path for r in site.requests]
        assert paths[0] == "/wp-json/wp/v2/posts" and site.requests[0].status == 404
        assert paths[1:] == ["/index.php/wp-json/wp/v2/posts"] * 5  # found once, then every page there
        assert all("rest_route" not in r.query for r in site.requests)
    assert any(d.url == added["link"] for d in docs)
