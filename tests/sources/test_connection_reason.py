"""Why a site could not be reached, said as a reader would: "nothing answers at this address",
never "ConnectError: [Errno 111] Connection refused"; the WordPress type named in the reader's
words ("les articles"), never its REST name ("les posts")."""

from __future__ import annotations

import re

import httpx
import pytest

from rag.errors import SourceError
from rag.i18n import language
from rag.sources.connection_reason import connection_reason
from rag.sources.wordpress import WordPressSource
from tests.fixtures.net import free_port

CLASS_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*Error\b|Errno|\bdict\b")


def _real_error(url: str) -> httpx.TransportError:
    with pytest.raises(httpx.TransportError) as caught:
        httpx.get(url, timeout=5)
    return caught.value


def test_a_refused_connection_is_said_plainly_in_each_language():
    error = _real_error(f"http://127.0.0.1:{free_port()}/")  # nothing listens there
    with language("fr"):
        assert connection_reason(error).startswith("rien ne répond à cette adresse")
    with language("en"):
        assert connection_reason(error).startswith("nothing answers at this address")


def test_an_unknown_site_name_is_said_as_such():
    error = _real_error("http://no-such-site.invalid/")  # .invalid never resolves (RFC 6761)
    with language("fr"):
        assert connection_reason(error).startswith("ce nom de site est introuvable")


def test_a_dead_wordpress_address_says_why_in_french_without_class_names():
    url = f"http://127.0.0.1:{free_port()}"
    with language("fr"), pytest.raises(SourceError) as caught:
        list(WordPressSource(url, retries=1, backoff=0).iter_documents())
    message = str(caught.value)
    assert message.startswith(f"Impossible de joindre {url} : rien ne répond à cette adresse"), message
    assert not CLASS_NAME.search(message), message


def test_a_site_answering_html_names_the_posts_in_french(make_wp_server):
    wp = make_wp_server(posts=[], respond_html=True)
    with language("fr"), pytest.raises(SourceError) as caught:
        list(WordPressSource(wp.url, retries=0).iter_documents())
    message = str(caught.value)
    assert "(les articles) a répondu du HTML au lieu de JSON" in message, message
    assert "posts" not in message
