"""Untrusted Markdown (posts, model answers) rendered without running anything."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from ui.present.answer import answer_markdown
from ui.present.safe_markdown import link_markdown, safe_link, sanitize_markdown

POST = """# Hardening notes

Intro <script>alert('xss')</script> and an image tag <img src=x onerror=alert(1)>.

Read [the docs](https://example.com/docs "Docs") or [click me](javascript:alert(document.cookie)).

![diagram](https://example.com/d.png) ![pixel](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)

```html
<script>console.log("shown as code")</script>
<a href="javascript:void(0)">kept</a>
```

Contact [us](mailto:team@example.com).
"""


def test_a_hostile_post_renders_as_text():
    out = sanitize_markdown(POST)
    assert "Intro &lt;script>alert('xss')&lt;/script>" in out
    assert "&lt;img src=x onerror=alert(1)>" in out
    assert "[click me]" not in out and "javascript:alert(document.cookie)" not in out
    assert "or click me." in out
    assert "data:image" not in out and "pixel" in out  # the image becomes its alt text
    assert '[the docs](https://example.com/docs "Docs")' in out
    assert "![diagram](https://example.com/d.png)" in out
    assert "[us](mailto:team@example.com)" in out


def test_fenced_code_is_left_exactly_as_written():
    out = sanitize_markdown(POST)
    block = POST[POST.index("```html"):POST.index("```\n\nContact") + 4]
    assert block in out


@pytest.mark.parametrize("link", [
    "[x](JavaScript:alert(1))",
    "[x](&#106;avascript:alert(1))",  # entity-encoded scheme
    "[x](javascript&colon;alert(1))",
    "[x](<java\tscript:alert(1)>)",  # browsers drop the tab
    "[x](javascript\\:alert(1))",  # Markdown drops the backslash
    "[x](  vbscript:msgbox(1) 'title')",
    "[x](file:///etc/passwd)",
    "[x](\njavascript:alert(1))",
    "[![x](javascript:a)](javascript:b)",
])
def test_obfuscated_dangerous_links_lose_their_url(link):
    out = sanitize_markdown(link)
    assert out.strip() == "x"


def test_image_inside_a_safe_link_and_link_around_a_safe_image():
    assert sanitize_markdown("[![logo](https://e.com/l.png)](https://e.com)") == \
        "[![logo](https://e.com/l.png)](https://e.com)"
    assert sanitize_markdown("[![logo](https://e.com/l.png)](javascript:x)") == "![logo](https://e.com/l.png)"


def test_reference_links_with_dangerous_targets_are_dropped():
    out = sanitize_markdown("See [home][h] and [evil][e].\n\n[h]: https://example.com\n[e]: javascript:alert(1)\n")
    assert "[h]: https://example.com" in out
    assert "javascript" not in out


def test_autolinks_and_raw_html_links_are_shown_as_text():
    out = sanitize_markdown('<javascript:alert(1)> <a href="javascript:alert(1)">x</a> <!-- hidden -->')
    assert "<" not in out.replace("&lt;", "")


def test_a_web_address_in_angle_brackets_links_to_that_address_not_past_its_bracket():
    """A converted page's `<https://docs.kicad.org>` was shown as a link to
    `https://docs.kicad.org%3E`: its `<` escaped, the address and its `>` made a link by GFM."""
    out = sanitize_markdown("Voir <https://docs.kicad.org> et <https://kicad.org/help/system_requirements/>.")
    assert out == ("Voir [https://docs.kicad.org](https://docs.kicad.org) et "
                   "[https://kicad.org/help/system\\_requirements/](https://kicad.org/help/system_requirements/).")
    # A destination in angle brackets stays a link's; inline code and other schemes stay text.
    assert sanitize_markdown("[f](<https://e.com/a.pdf>) `<https://x.org>`") == "[f](https://e.com/a.pdf) `<https://x.org>`"
    assert sanitize_markdown("<ftp://x.org/a>") == "&lt;ftp://x.org/a>"
    # In a model's answer nothing becomes a link.
    assert "](" not in sanitize_markdown("Voir <https://x.org>.", links=False)


@pytest.mark.parametrize("links", [True, False])  # a passage, a model's answer
def test_backslashes_show_as_written(links):
    """A UNC path or "\\\\n" in a converted page lost half its backslashes on screen: Markdown reads
    each pair as one escaped backslash (the pl_editor page's "enter \\\\n" read "enter \\n")."""
    import markdown

    text = r'Ouvrez \\dc01\SYSVOL, entrez "\\n" pour afficher "\n" ; en code `\\x`, \\\* étoile.'
    shown = re.sub(r"<[^>]+>", "", markdown.markdown(sanitize_markdown(text, links=links)))
    assert shown == r'Ouvrez \\dc01\SYSVOL, entrez "\\n" pour afficher "\n" ; en code \\x, \\\* étoile.'


def test_images_can_be_turned_off_entirely():
    assert sanitize_markdown("![chart](https://tracker.example.com/p.png)", images=False) == "chart"


def test_inline_code_keeps_its_angle_brackets():
    assert sanitize_markdown("Use `<div>` here, not <div>.") == "Use `<div>` here, not &lt;div>."


def test_model_answer_with_citations_is_unchanged():
    answer = "Run `pip install rag` [1], then **restart** the server [2].\n\n- a < b\n> quoted"
    assert sanitize_markdown(answer) == answer.replace("a < b", "a &lt; b")


def test_link_with_parentheses_and_spaces_in_angle_brackets():
    assert sanitize_markdown("[w](https://en.wikipedia.org/wiki/Foo_(bar))") == \
        "[w](https://en.wikipedia.org/wiki/Foo_(bar))"
    assert sanitize_markdown("[f](<https://e.com/a file.pdf>)") == "[f](https://e.com/a%20file.pdf)"


def test_unclosed_fence_keeps_the_rest_as_code():
    text = "intro <b>\n```\n<script>x</script>\n"
    assert sanitize_markdown(text) == "intro &lt;b>\n```\n<script>x</script>\n"


def test_fence_inside_a_list_item_ends_with_the_item():
    text = "- item\n  ```\n  <b>code</b>\nout of the list [x](javascript:alert(1))\n```\n"
    out = sanitize_markdown(text)
    assert "  <b>code</b>" in out and "javascript" not in out


@pytest.mark.parametrize("url, expected", [
    ("https://example.com/post/1", "https://example.com/post/1"),
    ("  http://localhost:8501/  ", "http://localhost:8501/"),
    ("javascript:alert(1)", None),
    ("JAVASCRIPT:alert(1)", None),
    ("data:text/html,<script>", None),
    ("mailto:a@b.com", None),
    ("/relative/path", None),
    ("//evil.example.com", None),
    ("https://", None),
    ("https://e.com/a b", None),
    ("https://e.com/\njavascript:x", None),
    ("", None),
    (None, None),
])
def test_safe_link(url, expected):
    assert safe_link(url) == expected


def test_link_markdown_for_a_sources_list():
    assert link_markdown("Post [draft]", "https://e.com/p?a=(1)") == "[Post \\[draft\\]](https://e.com/p?a=%281%29)"
    assert link_markdown("<b>Title</b>", "javascript:alert(1)") == "&lt;b>Title&lt;/b>"


@pytest.mark.parametrize("text", [None, ""])
def test_empty_input(text):
    assert sanitize_markdown(text) == ""


def test_converted_docs_keep_their_escaped_brackets_and_lose_empty_anchors():
    text = '## <a name="syntax"></a>Syntax\n\n|\\<Name>|the computer|\n\\\\<b>'
    out = sanitize_markdown(text)
    # An escaped "<" stays escaped; two backslashes before a tag show as written, the tag as text.
    assert out == "## Syntax\n\n|\\<Name>|the computer|\n\\\\\\\\&lt;b>"


def test_only_our_citation_links_survive_in_an_answer():
    """The model's own links, to a web page or to an anchor of ours, stay inert; our [1] is a link."""
    answer = ("Voir [1](http://evil.example) et [x](#cite-blog-t0-1), [2](#cite-blog-t0-2), <a href='#p'>ici</a>."
              "\n\n[y]: #cite-blog-t0-2\n\nVoir [y]. Réponse [1].")
    result = SimpleNamespace(answer=answer, sources=[SimpleNamespace(n=1), SimpleNamespace(n=2)], collection="blog")
    shown = answer_markdown(result, turn=0)
    assert re.findall(r"\]\(([^ )]*)", shown) == ["#cite-blog-t0-1"]
    assert re.search(r"Réponse \[\\\[1\\\]\]\(#cite-blog-t0-1 \"[^\"]+\"\)\.$", shown)
    assert "Voir 1 (`http://evil.example`) et x, 2, &lt;a href='#p'>ici&lt;/a>." in shown
    assert "#cite-blog-t0-2" not in shown
