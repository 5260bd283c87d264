"""Make untrusted Markdown (post bodies, model answers) safe for st.markdown.

st.markdown shows raw HTML as text unless unsafe_allow_html=True, but it still renders Markdown
links and images. Here raw HTML is escaped anyway (so it can never run, whatever flag a page
passes), and a link or image whose URL is not http(s) (or mailto for links) becomes its text.
Fenced code blocks are left exactly as they are; inline code keeps its HTML but not its links,
because which backticks form a code span is where Markdown parsers disagree.
"""

from __future__ import annotations

import html
import re
from typing import Callable

from rag.answer.citations import address_spans
from rag.markdown_structure import split_code

LINK_SCHEMES = ("http", "https", "mailto")
IMAGE_SCHEMES = ("http", "https")

_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")
# Browsers drop these characters from URLs, so "java\tscript:" is still javascript:.
_URL_NOISE = re.compile(r"[\x00-\x20\x7f]+")

# [label](destination "title") and ![alt](...): the label may hold one level of brackets
# (an image inside a link), the destination balanced parentheses or <angle brackets>.
_INLINE_LINK = re.compile(
    r"(?P<bang>!?)\[(?P<label>(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*)\]"
    r"\(\s*(?P<dest><[^<>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)"
    r"(?P<title>\s+(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?\s*\)",
    re.DOTALL,
)
# [label]: destination "title" (a reference definition, used by [text][label]).
# Possessive runs ([ \t]*+): a destination never starts with a space, and giving spaces back
# made a long run quadratic.
_REFERENCE = re.compile(
    r"^(?P<lead> {0,3}\[(?:[^\[\]\\]|\\.)+\]:[ \t]*+\n?[ \t]*+)(?P<dest><[^<>\n]*>|\S+)(?P<rest>.*)$", re.MULTILINE
)
# <a name="x"></a> anchors (common in converted docs) hold nothing to show: dropped, not escaped.
_EMPTY_ANCHOR = re.compile(
    r"""<a\s+(?:name|id)\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s<>]+)\s*>\s*</a\s*>""", re.IGNORECASE
)
_BACKTICKS = re.compile(r"`+")


def _scheme(url: str) -> str | None:
    """The URL's scheme as a browser would read it (entities decoded, noise removed), or None."""
    url = url.strip()
    if url.startswith("<") and url.endswith(">"):
        url = url[1:-1]
    # Markdown resolves backslash escapes and entities in a destination before the browser sees it.
    url = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", url)
    cleaned = _URL_NOISE.sub("", html.unescape(url)).lower()
    match = _SCHEME.match(cleaned)
    return match.group(1) if match else None


def safe_link(url: str | None) -> str | None:
    """`url` if it is a plain http(s) URL with a host, else None (javascript:, data:, relative...)."""
    if not url:
        return None
    url = url.strip()
    if re.search(r"[\x00-\x20\x7f<>\"'`\\]", url):
        return None
    if not re.match(r"^https?://[^/?#]+", url, re.IGNORECASE):
        return None
    return url if _scheme(url) in ("http", "https") else None


def escape_link_text(text: str) -> str:
    """`text` safe as a link label or plain Markdown text: brackets and HTML escaped."""
    return re.sub(r"([\\\[\]`*_])", r"\\\1", text).replace("<", "&lt;")


def link_markdown(text: str, url: str | None) -> str:
    """A Markdown link to `url` if it is a safe http(s) URL, else just the escaped text."""
    label = escape_link_text(text)
    safe = safe_link(url)
    if safe is None:
        return label
    return f"[{label}]({safe.replace('(', '%28').replace(')', '%29')})"


def _clean_destination(dest: str) -> str:
    # Rewritten without angle brackets, which the HTML escaping below would break.
    if dest.startswith("<") and dest.endswith(">"):
        dest = dest[1:-1]
    return dest.replace(" ", "%20").replace("<", "%3C").replace(">", "%3E")


def code_span(text: str) -> str:
    """`text` as an inline code span: shown exactly, never a link, whatever backticks it holds."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _neutralise_links(text: str, images: bool, links: bool = True) -> str:
    def replace(match: re.Match[str]) -> str:
        is_image = bool(match.group("bang"))
        label = _neutralise_links(match.group("label"), images, links)
        dest = match.group("dest")
        allowed = IMAGE_SCHEMES if is_image else LINK_SCHEMES
        if (is_image and not images) or _scheme(dest) not in allowed:
            return label
        if not links and not is_image:
            # The address stays readable, as text next to its label, and cannot be clicked.
            return f"{label} ({code_span(_clean_destination(dest))})"
        return f"{match.group('bang')}[{label}]({_clean_destination(dest)}{match.group('title') or ''})"

    text = _INLINE_LINK.sub(replace, text)

    def replace_reference(match: re.Match[str]) -> str:
        if _scheme(match.group("dest")) not in LINK_SCHEMES:
            return ""
        if not links:
            # No longer a definition: "[x]: " shown as typed, the address as code.
            lead = match.group("lead").replace("[", "\\[", 1)
            return f"{lead}{code_span(_clean_destination(match.group('dest')))}{match.group('rest')}"
        return f"{match.group('lead')}{_clean_destination(match.group('dest'))}{match.group('rest')}"

    return _REFERENCE.sub(replace_reference, text)


def outside_code_spans(text: str, change: Callable[[str], str]) -> str:
    """`text` with `change` applied to every piece outside its inline code spans."""
    out: list[str] = []
    last = 0
    for start, end in code_spans(text):
        out.append(change(text[last:start]))
        out.append(text[start:end])
        last = end
    out.append(change(text[last:]))
    return "".join(out)


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """`text` with `change` applied to its prose: fenced code blocks and inline code left as written."""
    return "".join(piece if is_code else outside_code_spans(piece, change) for is_code, piece in split_code(text))


def _addresses_as_code(prose: str) -> str:
    out: list[str] = []
    last = 0
    for start, end, address in address_spans(prose):
        out.append(prose[last:start])
        out.append(code_span(address))
        last = end
    out.append(prose[last:])
    return "".join(out)


def _bare_urls_as_code(text: str) -> str:
    """Addresses Markdown would make links by itself (GFM autolinks: web and e-mail addresses,
    whatever their escapes or character references) shown as code, outside the code spans
    already there. A backtick left over in the prose is escaped first, so that no code span put
    here pairs with it and leaves the address outside."""
    def change(prose: str) -> str:
        return _addresses_as_code(_escape_unescaped(prose, "`", "\\`"))

    return outside_code_spans(text, change)


def _escape_unescaped(text: str, char: str, escaped: str) -> str:
    """`text` with each `char` not already escaped (after an odd number of backslashes) written
    `escaped`. Counted by hand: a pattern like (\\\\*)< is retried at every backslash of a long run."""
    out: list[str] = []
    last = 0
    at = text.find(char)
    while at >= 0:
        slashes = at
        while slashes > last and text[slashes - 1] == "\\":
            slashes -= 1
        if (at - slashes) % 2 == 0:
            out.append(text[last:at])
            out.append(escaped)
            last = at + 1
        at = text.find(char, at + 1)
    out.append(text[last:])
    return "".join(out)


def _escape_angles(text: str) -> str:
    # A `<` after an odd number of backslashes is already escaped: `\&lt;` would show "&lt;".
    return _escape_unescaped(_EMPTY_ANCHOR.sub("", text), "<", "&lt;")


def code_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of each inline code span: a run of n backticks up to the next run of exactly n.

    As in CommonMark, a backslash before a run (outside a code span) escapes its first backtick:
    the run opens a span one backtick shorter, or none. Inside a span a backslash is text, so a
    closing run counts whole.

    One pass over the runs (a lazy regex with a back-reference rescanned the rest of the text
    from every unmatched run: quadratic on text full of single backticks).
    """
    runs = [m.span() for m in _BACKTICKS.finditer(text)]
    # for each run, the next run after it of its own length and of one backtick less
    following: list[int | None] = [None] * len(runs)
    shorter: list[int | None] = [None] * len(runs)
    last_of_length: dict[int, int] = {}
    for i in range(len(runs) - 1, -1, -1):
        length = runs[i][1] - runs[i][0]
        following[i] = last_of_length.get(length)
        shorter[i] = last_of_length.get(length - 1)
        last_of_length[length] = i
    spans: list[tuple[int, int]] = []
    i = 0
    last = 0  # where the last span ended: a backslash before it belongs to code
    while i < len(runs):
        start = runs[i][0]
        slashes = start
        while slashes > last and text[slashes - 1] == "\\":
            slashes -= 1
        escaped = (start - slashes) % 2 == 1
        closer = shorter[i] if escaped else following[i]
        if closer is None or (escaped and runs[i][1] - start == 1):
            i += 1
            continue
        spans.append((start + escaped, runs[closer][1]))
        last = runs[closer][1]
        i = closer + 1
    return spans


def _escape_html(text: str) -> str:
    """Escape `<` outside inline code spans (where Markdown already shows it as text)."""
    if "<" not in text:
        return text
    return outside_code_spans(text, lambda prose: _escape_angles(prose) if "<" in prose else prose)


# A CommonMark autolink of a web address (`<https://kicad.org>`), not a link's destination written
# in angle brackets (`[f](<https://e.com/a b.pdf>)`). Escaping its `<` alone left GFM to make a
# link of the address with its closing `>`, a dead one.
_AUTOLINK = re.compile(r"(?<!\]\()<(https?://[^\s<>]+)>", re.IGNORECASE)


def _autolinks_as_links(prose: str) -> str:
    return _AUTOLINK.sub(lambda m: link_markdown(m.group(1), m.group(1)), prose)


# Two backslashes or more, as in a UNC path (\\dc01\SYSVOL) or "\\n": Markdown would show half
# of them, each escaping the next. Doubled, they show as written; a lone backslash is left as an
# escape (the converter's `\<`, `\|`, an author's `\*`).
_BACKSLASHES = re.compile(r"\\{2,}")


def _backslashes_as_written(prose: str) -> str:
    return _BACKSLASHES.sub(lambda m: m.group(0) * 2, prose)


def _sanitise_prose(text: str, images: bool, links: bool = True) -> str:
    text = outside_code_spans(text, _backslashes_as_written)
    if not links:
        return _escape_html(_bare_urls_as_code(_neutralise_links(text, images, links=False)))
    return _escape_html(_neutralise_links(outside_code_spans(text, _autolinks_as_links), images))


def sanitize_markdown(text: str | None, images: bool = True, links: bool = True) -> str:
    """`text` safe for st.markdown: raw HTML shown as text, only http(s)/mailto links and
    http(s) images kept (the others become their text), fenced code blocks untouched.

    images=False turns every image into its alt text (no request leaves for an outside host).
    links=False (a model's answer) makes no link at all: a link becomes its label followed by its
    address as code, and a bare address becomes code, so nothing the model wrote can be clicked.
    """
    if not text:
        return ""
    # NUL becomes U+FFFD in Markdown anyway; removing it first keeps the patterns simple.
    text = text.replace("\x00", "\ufffd")
    return "".join(piece if is_code else _sanitise_prose(piece, images, links) for is_code, piece in split_code(text))
