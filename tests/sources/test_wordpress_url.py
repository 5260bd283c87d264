"""The WordPress source fetches http(s) addresses only (break 8 of the security review): the
server reads whatever the address gives and shows it, so no other scheme may reach it."""

from __future__ import annotations

import pytest

from rag.errors import SourceError
from rag.sources.wordpress import WordPressSource


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/pub", "gopher://127.0.0.1:6333/_x",
                                 "javascript:alert(1)", "data:text/html,<b>x</b>"])
def test_any_scheme_but_http_is_refused_before_any_request(url):
    with pytest.raises(SourceError, match="http:// or https:// only"):
        WordPressSource(url)


def test_a_bad_port_is_a_clear_error_that_hides_the_password():
    with pytest.raises(SourceError, match="is not a web address") as caught:
        WordPressSource("http://bob:s3cret-pass@blog.example.com:99999/")
    assert "s3cret-pass" not in str(caught.value)


@pytest.mark.parametrize("url, root", [("blog.example.com", "https://blog.example.com"),
                                       ("localhost:8080/blog", "https://localhost:8080/blog"),
                                       ("HTTP://Blog.example.com/wp-json/", "http://blog.example.com")])
def test_web_addresses_as_people_type_them_still_work(url, root):
    assert WordPressSource(url).site_url == root
