"""HTML to Markdown for retrieval: code kept verbatim, tables kept as tables, nothing executable.

The output is chunked, embedded and shown to readers and to the chat model, so fidelity of text
(commands, identifiers, table cells) matters more than perfect Markdown rendering: underscores and
asterisks in prose are left as they are, and only what could turn into live HTML is escaped.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, CData, Comment, Declaration, Doctype, NavigableString, ProcessingInstruction, Tag
from markdownify import MarkdownConverter

from rag.i18n import t
from rag.markdown_structure import lines_in_code

# Elements whose content is never text a reader should get (or that could execute).
_DROPPED_TAGS = (
    "script", "style", "iframe", "frame", "frameset", "form", "noscript", "object", "embed", "applet",
    "template", "svg", "canvas", "button", "input", "select", "textarea", "link", "meta", "base", "head",
    "audio", "video", "source", "track", "map", "dialog", "title", "nav",
)

_LANGUAGE_PATTERNS = (
    re.compile(r"(?:^|\s)(?:language|lang)-([\w+#.-]+)", re.I),
    re.compile(r"brush:\s*([\w+#.-]+)", re.I),
    re.compile(r"(?:^|\s)highlight-source-([\w+#.-]+)", re.I),
)
_NOT_A_LANGUAGE = {"none", "nohighlight", "no-highlight", "plain", "plaintext", "auto"}
# <pre lang="fr"> is a human language, not a programming one.
_HUMAN_LANG = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$")
# Short names of programming languages, which also look like human language codes.
_CODE_LANGS = {"php", "css", "js", "sql", "sh", "py", "rb", "go", "c", "ps1"}
_SAFE_LANGUAGE = re.compile(r"[^\w+#.-]")

_UNSAFE_SCHEME = re.compile(r"^(?:javascript|vbscript|data|livescript):", re.I)
_CONTROL_CHARS = re.compile(r"[\x00-\x20\x7f]+")
# "<" followed by something a Markdown renderer could read as an HTML tag or comment.
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
# *x*, **x**, _x_...: the inside holds no marker of its own kind, so a search from each marker
# stops at the next one (".*?" here rescanned the whole line from every "*": quadratic).
_EMPHASIS = re.compile(r"(\*{1,3})(\S(?:[^*\n]*?\S)?)\1|(_{1,3})(\S(?:[^_\n]*?\S)?)\3")
# Whitespace runs in text nodes: markdownify's own pattern ([\t \r\n]*[\r\n][\t \r\n]*) is
# retried at every character of a long run of spaces, so runs are collapsed here first.
_WHITESPACE_RUN = re.compile(r"[\t \r\n]{2,}")


def _is_unsafe_url(url: str | None) -> bool:
    if not url:
        return False
    # Browsers ignore embedded tabs/newlines and leading spaces in a scheme ("java\tscript:").
    return bool(_UNSAFE_SCHEME.match(_CONTROL_CHARS.sub("", url)))


def code_language(pre: Tag) -> str:
    """The programming language an HTML code block names, or "" when it names none."""
    candidates = [pre]
    inner = pre.find("code")
    if isinstance(inner, Tag):
        candidates.append(inner)
    for el in candidates:
        for attr in ("data-language", "data-lang", "lang"):
            value = el.get(attr)
            if isinstance(value, str) and value.strip():
                value = value.strip()
                if attr == "lang" and _HUMAN_LANG.match(value) and value.lower() not in _CODE_LANGS:
                    continue
                cleaned = _SAFE_LANGUAGE.sub("", value)
                if cleaned and cleaned.lower() not in _NOT_A_LANGUAGE:
                    return cleaned
        classes = el.get("class") or []
        class_text = " ".join(classes) if isinstance(classes, list) else str(classes)
        for pattern in _LANGUAGE_PATTERNS:
            match = pattern.search(class_text)
            if match:
                cleaned = _SAFE_LANGUAGE.sub("", match.group(1)).rstrip(".;")
                if cleaned and cleaned.lower() not in _NOT_A_LANGUAGE:
                    return cleaned
    return ""


def _verbatim_text(el: Tag) -> str:
    """The text of a <pre> exactly as a browser shows it (<br> as a newline)."""
    parts: list[str] = []
    for node in el.descendants:
        if isinstance(node, Tag):
            if node.name == "br":
                parts.append("\n")
        elif isinstance(node, NavigableString) and not isinstance(
            node, (Comment, Doctype, Declaration, ProcessingInstruction)
        ):
            parts.append(str(node))
    return "".join(parts)


def _fence_for(code: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


class _Converter(MarkdownConverter):
    def escape(self, text: str, parent_tags: set[str]) -> str:
        text = super().escape(text, parent_tags)
        text = text.replace("\u00a0", " ")
        return _TAG_START.sub(r"\\<", text)

    def convert_pre(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        code = _verbatim_text(el).replace("\r\n", "\n").replace("\r", "\n")
        # Only blank lines around the code go; indentation of the first line is content.
        code = re.sub(r"^(?:[ \t]*\n)+", "", code).rstrip()
        if not code:
            return ""
        fence = _fence_for(code)
        if "_inline" in parent_tags:
            # Inside a table cell a block cannot exist: keep the code on one line.
            return " `" + " ".join(code.split()) + "` "
        return f"\n\n{fence}{code_language(el)}\n{code}\n{fence}\n\n"

    def convert_a(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        href = el.get("href")
        if _is_unsafe_url(href if isinstance(href, str) else None):
            return text
        if isinstance(href, str):
            el["href"] = href.strip().replace(" ", "%20")
        return super().convert_a(el, text, parent_tags)

    def convert_img(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        src = el.get("src")
        alt = " ".join(str(el.get("alt") or "").split())
        if not isinstance(src, str) or not src.strip() or _is_unsafe_url(src) or "_inline" in parent_tags:
            return alt
        alt = alt.replace("[", "(").replace("]", ")")
        return f"![{alt}]({src.strip().replace(' ', '%20')})"

    def _cell(self, el: Tag, text: str) -> str:
        colspan = el.get("colspan")
        span = 1
        if isinstance(colspan, str) and colspan.isdigit():
            span = max(1, min(50, int(colspan)))
        cell = " ".join(text.split()).replace("|", r"\|")
        return " " + cell + " |" * span

    def convert_td(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._cell(el, text)

    def convert_th(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._cell(el, text)

    def convert_hN(self, n: int, el: Tag, text: str, parent_tags: set[str]) -> str:
        # Bold or italic markers in a heading are noise in section names.
        text = _EMPHASIS.sub(lambda m: m.group(2) or m.group(4), text)
        return super().convert_hN(n, el, text, parent_tags)

    def convert_figure(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return "\n\n" + text.strip() + "\n\n"


def _collapse_whitespace(soup: BeautifulSoup) -> None:
    """Collapse whitespace runs outside <pre> as markdownify would (a run holding a line break
    becomes one, any other run one space), in one linear pass."""
    verbatim = {id(s) for pre in soup.find_all("pre") for s in pre.find_all(string=True)}
    for node in soup.find_all(string=True):
        if type(node) is not NavigableString or id(node) in verbatim:
            continue
        text = str(node)
        collapsed = _WHITESPACE_RUN.sub(lambda m: "\n" if "\n" in m.group(0) or "\r" in m.group(0) else " ", text)
        if collapsed != text:
            node.replace_with(NavigableString(collapsed))


def _without_comments(html: str) -> str:
    """The HTML with its comments cut out, in one forward pass. Python's HTML parser looks for
    "-->" again from every unclosed "<!--" (quadratic); comments are dropped anyway."""
    if "<!--" not in html:
        return html
    out: list[str] = []
    pos = 0
    while True:
        start = html.find("<!--", pos)
        if start < 0:
            out.append(html[pos:])
            break
        out.append(html[pos:start])
        end = html.find("-->", start + 4)
        if end < 0:
            break  # an unclosed comment runs to the end
        pos = end + 3
    return "".join(out)


def _escape_unclosed_tags(html: str) -> str:
    """A "<" that opens a tag not closed before the next "<" becomes "&lt;" (text), in one pass.

    Python's HTML parser rescans to the end from every such "<" ("<p " repeated 27,000 times
    took 150 s); a browser would show most of these as text anyway.
    """
    out: list[str] = []
    last = 0
    at = html.find("<")
    next_gt = html.find(">")
    while at >= 0:
        following = html.find("<", at + 1)
        if next_gt != -1 and next_gt < at:
            next_gt = html.find(">", at)
        opens_tag = at + 1 < len(html) and (html[at + 1].isalpha() or html[at + 1] in "/!?")
        if opens_tag and (next_gt == -1 or (following != -1 and following < next_gt)):
            out.append(html[last:at])
            out.append("&lt;")
            last = at + 1
        at = following
    out.append(html[last:])
    return "".join(out)


def _parse(html: str) -> BeautifulSoup:
    return BeautifulSoup(_escape_unclosed_tags(_without_comments(html)), "html.parser")


def _drop_unwanted(soup: BeautifulSoup) -> None:
    for node in soup.find_all(string=lambda s: isinstance(s, (Comment, Doctype, Declaration, ProcessingInstruction, CData))):
        node.extract()
    for tag in soup.find_all(_DROPPED_TAGS):
        tag.decompose()
    # Tables nested in a table cell cannot be represented: flatten them to their text.
    for cell in soup.find_all(["td", "th"]):
        for inner in cell.find_all("table"):
            inner.replace_with(" ".join(inner.get_text(" ").split()))


def _ensure_table_headers(soup: BeautifulSoup) -> None:
    """Every Markdown table needs a header row: promote the first row when the HTML has none."""
    for table in soup.find_all("table"):
        rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
        if not rows:
            table.decompose()
            continue
        first = rows[0]
        for cell in first.find_all("td", recursive=False):
            cell.name = "th"
        # markdownify prints the separator after a first row made of <th>; make that row the
        # table's first child so a <thead> with several rows or a <caption> does not hide it.
        caption = table.find("caption")
        if caption is not None:
            caption.extract()
            table.insert_before(caption)
        for row in rows:
            row.extract()
        for child in list(table.children):
            child.extract()
        for row in rows:
            for cell in row.find_all(["td", "th"], recursive=False):
                if row is not first:
                    cell.name = "td"
            table.append(row)


def _tidy(markdown: str) -> str:
    """At most one blank line in a row and no trailing spaces on blank lines, outside code fences."""
    out: list[str] = []
    blank = 0
    previous = None
    for line, fence in lines_in_code(markdown):
        if fence is not None:
            # The opening line loses its trailing blanks; the code is kept as written.
            out.append(line if fence is previous else line.rstrip())
            blank, previous = 0, fence
            continue
        previous = None
        if not line.strip():
            blank += 1
            if blank > 1:
                continue
            out.append("")
            continue
        blank = 0
        out.append(line)
    return "\n".join(out).strip("\n").rstrip()


def html_to_markdown(html: str) -> str:
    """Convert an HTML fragment or page to Markdown (ATX headings, fenced code, pipe tables).

    Scripts, styles, iframes, forms and comments (WordPress block markers included) are dropped;
    links with javascript:/data: targets are reduced to their text; "<" that could start a tag in
    prose is escaped. Raises TypeError for non-string input, ValueError for HTML nested too deeply.
    """
    if not isinstance(html, str):
        raise TypeError(f"expected HTML text, got {type(html).__name__}")
    soup = _parse(html)
    _drop_unwanted(soup)
    _collapse_whitespace(soup)
    _ensure_table_headers(soup)
    converter = _Converter(
        heading_style="ATX",
        bullets="-",
        escape_asterisks=False,
        escape_underscores=False,
        escape_misc=False,
        table_infer_header=True,
        autolinks=True,
    )
    try:
        return _tidy(converter.convert_soup(soup))
    except RecursionError:
        raise ValueError(t("src.html_too_deep")) from None


def html_title_and_main(html: str) -> tuple[str, str]:
    """A page's title (<title>, else its first <h1>) and the HTML of its main content.

    The main content is the page's <article>, else <main>, else <body>, else the whole text, so
    menus and footers of a saved web page stay out of the document.
    """
    soup = _parse(html)
    title = ""
    title_tag = soup.find("title")
    if title_tag is not None:
        title = " ".join(title_tag.get_text(" ").split())
    if not title:
        h1 = soup.find("h1")
        if h1 is not None:
            title = " ".join(h1.get_text(" ").split())
    for name in ("article", "main", "body"):
        found = soup.find(name)
        if found is not None:
            return title, found.decode_contents()
    return title, html
