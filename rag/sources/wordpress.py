"""Posts (and pages) of a WordPress site through its REST API (wp/v2/posts, wp/v2/pages), every
page of results, as Documents. The API is found at /wp-json/, at /index.php/wp-json/ (sites with
"index.php" permalinks, no URL rewriting) or through ?rest_route= (plain permalinks).

Site-level failures (not a WordPress site, authentication needed, a page that keeps failing)
raise SourceError; a single unusable post yields a Problem and the others still come through.
"""

from __future__ import annotations

import html
import json
import re
import time
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Iterable, Iterator
from urllib.parse import unquote, urlsplit

import httpx

from rag.bounded_http import bounded, deadline_transport
from rag.i18n import t
from rag.i18n.numbers import decimal
from rag.documents import SKIPPED, Document, Problem
from rag.errors import SourceError
from rag.sources.addresses import is_web_address
from rag.sources.connection_reason import connection_reason
from rag.sources.html import html_to_markdown
from rag.sources.notext import no_text_reason
from rag.sources.limits import max_document_bytes, not_text, too_big
from rag.sources.wordpress_address import (  # noqa: F401 - part of this module's interface
    DEFAULT_TYPES,
    KNOWN_TYPES,
    normalize_modified_after,
    normalize_site_url,
    parse_types,
)
from rag.sources.wp_private_title import without_private_prefix

FIELDS = "id,link,title,content,excerpt,modified,status,slug,type"
PAGE_DOCUMENTS = 5  # a page of the API may weigh this many of the largest documents indexed...
MIN_PAGE_BYTES = 20 * 1024 * 1024  # ...and at least this much
PER_PAGE = 100  # WordPress's maximum
# Where the REST API answers, tried in this order: pretty permalinks, "index.php" permalinks
# (PATH_INFO, the seed blog's setting), then no permalinks at all (?rest_route=).
PRETTY, INDEX_PHP, PLAIN = "/wp-json", "/index.php/wp-json", "?rest_route="


def kind_name(kind: str) -> str:
    """A content type as the reader names it: "articles" for WordPress's posts (in French), "pages",
    a custom type by its REST base, quoted."""
    if kind == "posts":
        return t("wp.kind_posts")
    if kind == "pages":
        return t("wp.kind_pages")
    return t("wp.kind_other", kind=kind)


class _Unreachable(Exception):
    """A request still failed after every retry (message says why, never with credentials)."""

    def __init__(self, reason: str, attempts: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.attempts = attempts


def _json_or_none(response: httpx.Response) -> tuple[Any, str]:
    """(parsed JSON, "") or (None, "html" | "invalid" | "empty")."""
    body = response.text
    stripped = body.lstrip("\ufeff \t\r\n")
    if not stripped:
        return None, "empty"
    content_type = response.headers.get("content-type", "")
    if stripped.startswith("<") or "html" in content_type:
        return None, "html"
    try:
        return json.loads(stripped), ""
    except ValueError:
        return None, "invalid"


def _wp_error(data: Any) -> str:
    if isinstance(data, dict) and isinstance(data.get("message"), str):
        code = data.get("code")
        return f"{code}: {html.unescape(data['message'])}" if code else html.unescape(data["message"])
    return ""


def _retry_after_seconds(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value)
        return max(0.0, moment.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class WordPressSource:
    """Every post of a WordPress site (pages of 100, as many as X-WP-TotalPages says), and its
    pages too when `types` asks for them (("posts", "pages"), read in that order).

    With `username` and `app_password` (an application password, sent as HTTP basic auth) private
    posts are read too and get the access group `private_group`; public posts get ["public"].
    `modified_after` (ISO date) asks only for posts changed after it. Requests that fail with 429
    or 5xx are retried `retries` times, waiting `backoff` * 2**n seconds or the server's
    Retry-After, never more than `max_delay`.
    """

    def __init__(
        self,
        site_url: str,
        username: str | None = None,
        app_password: str | None = None,
        timeout: float = 30.0,
        modified_after: str | None = None,
        private_group: str = "private",
        retries: int = 3,
        backoff: float = 0.5,
        max_delay: float = 30.0,
        per_page: int = PER_PAGE,
        max_pages: int = 1000,
        progress: Callable[[int, int | None, int | None], None] | None = None,
        max_bytes: int | None = None,
        types: str | Iterable[str] | None = None,
    ) -> None:
        self.site_url, url_user, url_password = normalize_site_url(site_url)
        # No scheme given: https was tried; a failed connection then says to try http://.
        self.scheme_guessed = not re.match(r"^\s*https?://", site_url or "", re.I)
        self.username = username or url_user
        self._app_password = app_password or url_password
        if self._app_password and not self.username:
            raise SourceError(t("wp.password_without_user", hint=t("wp.credentials_hint")))
        self.timeout = timeout
        self.modified_after = normalize_modified_after(modified_after)
        self.private_group = private_group
        self.retries = max(0, int(retries))
        self.backoff = backoff
        self.max_delay = max_delay
        self.per_page = per_page
        self.max_pages = max_pages
        self.progress = progress
        self.max_bytes = max_document_bytes() if max_bytes is None else max_bytes
        # One page of posts is read whole to be parsed: at most a few documents' worth of bytes.
        self.page_bytes = max(PAGE_DOCUMENTS * self.max_bytes, MIN_PAGE_BYTES)
        self.types = parse_types(types)
        self.current_type = self.types[0]
        self.total_posts: int | None = None  # items of every type whose first page was read
        self.total_pages: int | None = None  # pages of results of the type being read
        self.api: str | None = None  # PRETTY, INDEX_PHP or PLAIN once found

    def __repr__(self) -> str:
        secret = "'***'" if self._app_password else "None"
        return f"WordPressSource({self.site_url!r}, username={self.username!r}, app_password={secret})"

    @property
    def authenticated(self) -> bool:
        return bool(self.username and self._app_password)

    def owns(self, payload: dict) -> bool:
        """Is a stored point one of this site's posts (its identity, or for points written before
        identities, its url)?"""
        doc_id, url = payload.get("doc_id"), payload.get("url")
        if isinstance(doc_id, str) and doc_id:
            return doc_id.startswith(f"{self.site_url}#")
        return isinstance(url, str) and (url == self.site_url or url.startswith(self.site_url + "/")
                                         or url.startswith(self.site_url + "?"))

    def may_prune(self, payload: dict) -> bool:
        """May a run that did not list this stored post remove it? Only a post of this site that
        this reading could have listed: without the application password, private posts are
        never listed, so their absence says nothing."""
        if not self.owns(payload):
            return False
        return self.authenticated or payload.get("access") == ["public"]

    # -- public iteration -------------------------------------------------------------------

    def iter_documents(self) -> Iterator[Document | Problem]:
        for _post, item in self.iter_items():
            yield item

    def iter_items(self) -> Iterator[tuple[dict | None, Document | Problem]]:
        """(raw post, Document or Problem) pairs; the raw post is None for site-level warnings."""
        for post in self.iter_posts():
            if isinstance(post, Problem):
                yield None, post
            else:
                yield post, self.post_to_document(post)

    def iter_posts(self) -> Iterator[dict | Problem]:
        """The raw objects of every page of results of every type, each once."""
        auth = httpx.BasicAuth(self.username, self._app_password) if self.authenticated else None
        with httpx.Client(
            timeout=httpx.Timeout(self.timeout),
            transport=deadline_transport(),  # a site that trickles its pages cannot hold the run
            auth=auth,
            follow_redirects=True,
            headers={"Accept": "application/json", "User-Agent": "rag-workbench"},
        ) as client:
            seen: set[Any] = set()  # ids: unique across posts and pages (one table in WordPress)
            for kind in self.types:
                self.current_type = kind
                yield from self._iter_type(client, kind, seen)

    def _iter_type(self, client: httpx.Client, kind: str, seen: set[Any]) -> Iterator[dict | Problem]:
        page = 1
        while True:
            posts, total_pages, total, stop = self._fetch_page(client, kind, page)
            if stop:
                break
            if page == 1:
                self.total_pages = total_pages
                if total is not None:
                    self.total_posts = (self.total_posts or 0) + total
            if self.progress is not None:
                self.progress(page, self.total_pages, self.total_posts)
            new = 0
            for post in posts:
                key = post.get("id") if isinstance(post, dict) else None
                if key is not None and key in seen:
                    continue
                if key is not None:
                    seen.add(key)
                new += 1
                yield post
            if self.total_pages is not None:
                if page >= self.total_pages:
                    break
            elif not posts:
                break
            elif new == 0:
                # A server that ignores ?page= would otherwise be paged forever.
                yield Problem(self.site_url, t("wp.repeated_page", page=page, kind=kind_name(kind)), "warning")
                break
            if page >= self.max_pages:
                yield Problem(self.site_url, t("wp.page_limit", page=page, kind=kind_name(kind)), "warning")
                break
            page += 1

    # -- one post -----------------------------------------------------------------------------

    def post_to_document(self, post: Any) -> Document | Problem:
        if not isinstance(post, dict):
            return Problem(t("wp.not_a_post_item", url=self.site_url), t("wp.not_a_post", kind=type(post).__name__))
        post_id = post.get("id")
        link = post.get("link")
        kind = post.get("type") if isinstance(post.get("type"), str) and post.get("type") else "post"
        item = f"{kind} {post_id}" + (f" ({link})" if isinstance(link, str) and link else "")
        if not isinstance(link, str) or not link.strip():
            return Problem(item, t("wp.no_link"))
        if not is_web_address(link.strip()):
            # A link is shown to readers as the source's address: javascript:, a relative
            # "staff.md" (another document's name) or a file: URL never are.
            return Problem(item, t("wp.bad_link", link=repr(link.strip()[:200])))
        content = post.get("content")
        rendered = content.get("rendered") if isinstance(content, dict) else None
        if not isinstance(rendered, str):
            return Problem(item, t("wp.no_content"))
        if isinstance(content, dict) and content.get("protected") and not rendered.strip():
            # Its text is not served without the post's own password: nothing to index, as intended.
            return Problem(item, t("wp.protected"), SKIPPED)
        title_obj = post.get("title")
        raw_title = title_obj.get("rendered") if isinstance(title_obj, dict) else title_obj
        if raw_title is not None and not isinstance(raw_title, str):
            return Problem(item, t("wp.bad_title", kind=type(raw_title).__name__))
        oversized = too_big(len(rendered.encode("utf-8")), self.max_bytes)
        if oversized:
            return Problem(item, oversized)
        try:
            markdown = html_to_markdown(rendered)
            if not markdown.strip() or no_text_reason(markdown):
                # A post written as its excerpt only (a summary, the text elsewhere): the excerpt
                # is what it says.
                markdown = self._excerpt_markdown(post) or markdown
        except Exception as exc:  # noqa: BLE001 - any converter failure concerns this post only
            return Problem(item, t("src.html_failed", error=f"{type(exc).__name__}: {exc}"))
        if not markdown.strip():
            return Problem(item, t("wp.no_text"), SKIPPED)
        no_text = no_text_reason(markdown)
        if no_text:
            return Problem(item, no_text, SKIPPED)
        encoded = not_text(markdown)
        if encoded:
            return Problem(item, encoded)
        # [^<>]: a title full of unclosed "<" must not make the pattern rescan it from every one.
        title = " ".join(html.unescape(re.sub(r"<[^<>]*>", "", raw_title or "")).split())
        modified = post.get("modified")
        status = post.get("status")
        if status == "private":
            title = without_private_prefix(title)
        access = [self.private_group] if status == "private" else ["public"]
        return Document(
            url=link.strip(),
            title=title or link.strip(),
            markdown=markdown,
            modified=modified if isinstance(modified, str) else None,
            access=access,
            source="wordpress",
            doc_id=self.post_identity(post_id, link.strip()),
        )

    def post_identity(self, post_id: Any, link: str) -> str:
        """A post's identity in this site: the site's address and its REST id (ids are unique
        across posts and pages); its link when it has no id."""
        if isinstance(post_id, int) and not isinstance(post_id, bool):
            return f"{self.site_url}#{post_id}"
        return link

    def _excerpt_markdown(self, post: dict) -> str:
        excerpt = post.get("excerpt")
        rendered = excerpt.get("rendered") if isinstance(excerpt, dict) else None
        if not isinstance(rendered, str) or excerpt.get("protected") or not rendered.strip():
            return ""
        if too_big(len(rendered.encode("utf-8")), self.max_bytes):
            return ""
        markdown = html_to_markdown(rendered)
        # WordPress writes an excerpt from the content when the editor gave none: a link-only
        # post's is its link, still nothing to index.
        return "" if not markdown.strip() or no_text_reason(markdown) else markdown

    # -- HTTP -----------------------------------------------------------------------------------

    def _params(self, page: int) -> dict[str, str]:
        params = {"per_page": str(self.per_page), "page": str(page), "_fields": FIELDS}
        if self.authenticated:
            params["status"] = "publish,private"
        if self.modified_after:
            params["modified_after"] = self.modified_after
        return params

    def _request(self, api: str, kind: str, page: int) -> tuple[str, dict[str, str]]:
        """The URL and query of one page of results of `kind` through the API entry `api`."""
        route = f"/wp/v2/{kind}"
        if api == PLAIN:
            return f"{self.site_url}/", {"rest_route": route, **self._params(page)}
        return f"{self.site_url}{api}{route}", self._params(page)

    def _get(self, client: httpx.Client, url: str, params: dict[str, str]) -> httpx.Response:
        attempt = 0
        while True:
            retry_after: float | None = None
            try:
                response = bounded(client, "GET", url, self.page_bytes, SourceError, params=params)
            except httpx.TimeoutException:
                reason = t("wp.no_answer", seconds=decimal(self.timeout, 1, trim=True))
            except httpx.TransportError as exc:
                reason = connection_reason(exc)
            else:
                if response.status_code != 429 and response.status_code < 500:
                    return response
                reason = f"HTTP {response.status_code}"
                retry_after = _retry_after_seconds(response.headers.get("retry-after"))
            if attempt >= self.retries:
                raise _Unreachable(reason, attempt + 1)
            delay = retry_after if retry_after is not None else self.backoff * (2**attempt)
            time.sleep(min(max(delay, 0.0), self.max_delay))
            attempt += 1

    def _fetch_page(self, client: httpx.Client, kind: str, page: int) -> tuple[list, int | None, int | None, bool]:
        """(items, total pages, total items, stop) for one page of `kind`; stop when WordPress
        says there is no such page."""
        if self.api is None:
            response, data = self._discover(client, kind)
        else:
            url, params = self._request(self.api, kind, page)
            try:
                response = self._get(client, url, params)
            except _Unreachable as exc:
                raise SourceError(t("wp.page_failed", page=page, kind=kind_name(kind), url=self.site_url, n=exc.attempts,
                                    why=exc.reason)) from None
            data, problem = _json_or_none(response)
            if response.status_code == 400 and isinstance(data, dict) and data.get("code") == "rest_post_invalid_page_number":
                return [], None, None, True
            if response.status_code in (401, 403) or self._status_refused(response, data):
                raise self._auth_error(response, data)
            if problem or response.status_code >= 400:
                raise SourceError(self._bad_answer(response, data, problem, t("wp.what_page", page=page, kind=kind_name(kind)),
                                                  kind))
        if not isinstance(data, list):
            raise SourceError(t("wp.not_a_list", url=self.site_url, page=page, kind=kind_name(kind)))
        total = _int_header(response, "x-wp-total") if page == 1 else None
        return data, _int_header(response, "x-wp-totalpages"), total, False

    def _discover(self, client: httpx.Client, kind: str) -> tuple[httpx.Response, Any]:
        """Page 1, trying /wp-json/, then /index.php/wp-json/, then ?rest_route=."""
        attempts: list[tuple[str, httpx.Response, Any, str]] = []
        for api in (PRETTY, INDEX_PHP, PLAIN):
            url, params = self._request(api, kind, 1)
            try:
                response = self._get(client, url, params)
            except _Unreachable as exc:
                if not exc.reason.startswith("HTTP"):
                    hint = ""
                    if self.scheme_guessed and self.site_url.startswith("https://"):
                        hint = " " + t("wp.try_http", url="http://" + self.site_url.removeprefix("https://"))
                    raise SourceError(t("wp.unreachable", url=self.site_url, why=exc.reason, n=exc.attempts)
                                      + hint) from None
                raise SourceError(t("wp.first_page_failed", kind=kind_name(kind), url=self.site_url, n=exc.attempts,
                                    why=exc.reason)) from None
            data, problem = _json_or_none(response)
            if response.status_code in (401, 403) or self._status_refused(response, data):
                raise self._auth_error(response, data)
            if not problem and response.status_code < 400:
                self.api = api
                return response, data
            if not problem and response.status_code == 400:
                # WordPress itself answered and refused a parameter: falling back would not help.
                raise SourceError(self._bad_answer(response, data, problem, t("wp.what_kind", kind=kind_name(kind)), kind))
            attempts.append((url, response, data, problem))
        raise SourceError(self._not_wordpress(attempts, kind))

    def _status_refused(self, response: httpx.Response, data: Any) -> bool:
        """WordPress answers 400 rest_invalid_param on status=publish,private when it did not accept
        the credentials (a wrong application password, the login password, an unknown user): it
        then reads the request as anonymous, and anonymous readers may not ask for private posts."""
        if not self.authenticated or response.status_code != 400 or not isinstance(data, dict):
            return False
        details = data.get("data") if isinstance(data.get("data"), dict) else {}
        params = details.get("params") if isinstance(details.get("params"), dict) else {}
        return data.get("code") == "rest_invalid_param" and "status" in params

    def _auth_error(self, response: httpx.Response, data: Any) -> SourceError:
        detail = _wp_error(data) or f"HTTP {response.status_code}"
        if self._status_refused(response, data):
            detail = t("wp.status_refused_detail")
        if self.authenticated:
            return SourceError(t("wp.refused", url=self.site_url, user=repr(self.username), detail=detail))
        return SourceError(t("wp.auth_needed", url=self.site_url, detail=detail, hint=t("wp.credentials_hint")))

    def _bad_answer(self, response: httpx.Response, data: Any, problem: str, what: str, kind: str) -> str:
        where = f"{self.site_url} ({what})"
        if problem == "html":
            return t("wp.html", where=where, status=response.status_code)
        if problem == "invalid":
            return t("wp.invalid_json", where=where, status=response.status_code, start=repr(response.text[:60]))
        if problem == "empty":
            return t("wp.empty_body", where=where, status=response.status_code)
        detail = _wp_error(data) or f"HTTP {response.status_code}"
        if response.status_code == 404:
            hint = "" if kind == "posts" else " " + t("wp.check_types")
            return t("wp.not_found", where=where, detail=detail, hint=hint)
        return t("wp.request_refused", what=what, url=self.site_url, detail=detail)

    def _not_wordpress(self, attempts: list[tuple[str, httpx.Response, Any, str]], kind: str) -> str:
        what = t("wp.what_kind", kind=kind_name(kind))
        _, pretty_resp, _, pretty_problem = attempts[0]
        _, plain_resp, plain_data, plain_problem = attempts[-1]
        if not pretty_problem and not plain_problem:
            # WordPress answered JSON errors on every route (e.g. rest_no_route).
            return self._bad_answer(plain_resp, plain_data, "", what, kind)
        if pretty_resp.status_code == 404 and plain_problem:
            return t("wp.not_wordpress", url=self.site_url)
        if any(problem == "invalid" for _, _, _, problem in attempts):
            resp = next(r for _, r, _, problem in attempts if problem == "invalid")
            return self._bad_answer(resp, None, "invalid", what, kind)
        if pretty_problem:
            return self._bad_answer(pretty_resp, None, pretty_problem, what, kind)
        return self._bad_answer(plain_resp, plain_data, plain_problem, what, kind)


def _int_header(response: httpx.Response, name: str) -> int | None:
    value = response.headers.get(name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def post_slug(post: dict) -> str:
    """A file-name friendly slug: the post's slug, else the last part of its link, else post-ID."""
    slug = post.get("slug") if isinstance(post.get("slug"), str) else ""
    if not slug:
        link = post.get("link") if isinstance(post.get("link"), str) else ""
        path = urlsplit(link).path.rstrip("/")
        slug = path.rsplit("/", 1)[-1] if path else ""
    slug = unquote(slug)
    slug = re.sub(r"[^\w.-]+", "-", slug, flags=re.UNICODE).strip("-.")
    return slug[:120] or f"post-{post.get('id')}"
