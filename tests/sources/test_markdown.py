"""HTML to Markdown on the real WordPress data and on the cases a technical blog needs."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from rag.sources.html import html_to_markdown
from tests.fixtures.wordpress import BLOCKS_WXR, THEME_WXR, load_real_posts, wxr_items


def _outside_fences(markdown: str) -> str:
    return re.sub(r"^(`{3,}|~{3,})[^\n]*\n.*?^\1[ \t]*$", "(code)", markdown, flags=re.S | re.M)


def _pre_text(pre) -> str:
    for br in pre.find_all("br"):
        br.replace_with("\n")
    text = pre.get_text()
    return re.sub(r"^(?:[ \t]*\n)+", "", text).rstrip()


@pytest.fixture(scope="module")
def block_posts(corpora) -> list[dict]:
    path = corpora / "wordpress" / "theme-test-data" / BLOCKS_WXR
    return [item for item in wxr_items(path) if item.get("post_type") == "post"]


@pytest.fixture(scope="module")
def classic_posts(corpora) -> list[dict]:
    path = corpora / "wordpress" / "theme-test-data" / THEME_WXR
    return [item for item in wxr_items(path) if item.get("post_type") == "post"]


def test_every_pre_of_the_block_data_becomes_a_fenced_block_with_its_code_intact(block_posts):
    pres = 0
    for post in block_posts:
        raw = post["content:encoded"]
        markdown = html_to_markdown(raw)
        for pre in BeautifulSoup(raw, "html.parser").find_all("pre"):
            pres += 1
            code = _pre_text(pre)
            block = re.compile(r"^(`{3,})[\w+#.-]*\n" + re.escape(code) + r"\n\1$", re.M)
            assert block.search(markdown), f"{post['title']}: code block {code[:40]!r} lost or altered"
    assert pres == 72


def test_every_table_of_the_block_data_becomes_a_markdown_table_with_a_header(block_posts):
    tables = separators = 0
    for post in block_posts:
        raw = post["content:encoded"]
        markdown = html_to_markdown(raw)
        tables += len(BeautifulSoup(raw, "html.parser").find_all("table"))
        lines = markdown.split("\n")
        for i, line in enumerate(lines):
            if re.fullmatch(r"\|( --- \|)+", line):
                separators += 1
                header = lines[i - 1]
                assert header.startswith("|") and header.count("|") == line.count("|"), post["title"]
                assert i < 2 or not lines[i - 2].startswith("|"), "separator must follow the first row"
        for table in BeautifulSoup(raw, "html.parser").find_all("table"):
            for cell in table.find_all(["td", "th"]):
                text = " ".join(cell.get_text(" ").split())
                if text:
                    assert text.replace("|", r"\|") in markdown
    assert tables == 32
    assert separators == 32


def test_headings_become_atx_and_no_markup_survives(block_posts, classic_posts):
    h2 = 0
    for post in block_posts + classic_posts:
        raw = post["content:encoded"] or ""
        markdown = html_to_markdown(raw)
        for heading in BeautifulSoup(raw, "html.parser").find_all("h2"):
            text = " ".join(heading.get_text(" ").split())
            if text:
                h2 += 1
                assert re.search(r"^[> \t]*## .*" + re.escape(text.split()[0]), markdown, re.M), text
        prose = _outside_fences(markdown)  # code may show block markup as text, on purpose
        assert "<!-- wp:" not in prose
        assert not re.search(r"(?<!\\)<(script|iframe|style|form)", prose, re.I)
        assert "\n\n\n" not in prose
        assert markdown == markdown.strip()
    assert h2 >= 278


def test_classic_posts_keep_their_code_and_tables(classic_posts):
    for post in classic_posts:
        raw = post["content:encoded"] or ""
        markdown = html_to_markdown(raw)
        for pre in BeautifulSoup(raw, "html.parser").find_all("pre"):
            code = _pre_text(pre)
            assert code in markdown
        assert markdown.count("| --- |") >= len(BeautifulSoup(raw, "html.parser").find_all("table"))


def test_frontity_posts_lose_iframes_and_keep_images_and_text():
    for post in load_real_posts("frontity", "worona"):
        raw = post["content"]["rendered"]
        markdown = html_to_markdown(raw)
        assert "<iframe" not in markdown and "<figure" not in markdown and "<p>" not in markdown
        assert "&#8220;" not in markdown and "&amp;" not in markdown
        first_paragraph = BeautifulSoup(raw, "html.parser").find("p")
        if first_paragraph is not None and first_paragraph.get_text(strip=True):
            words = first_paragraph.get_text(" ").split()[:4]
            assert " ".join(words) in " ".join(markdown.replace("*", "").split())
    gullfoss = next(p for p in load_real_posts("frontity") if p["id"] == 60)
    markdown = html_to_markdown(gullfoss["content"]["rendered"])
    assert "### An iconic waterfall of Iceland" in markdown
    assert "![" in markdown


@pytest.mark.parametrize(
    ("html", "language"),
    [
        ('<pre class="language-powershell"><code>Get-Item</code></pre>', "powershell"),
        ('<pre><code class="language-bash">ls</code></pre>', "bash"),
        ('<pre class="lang-python">x</pre>', "python"),
        ('<pre class="brush: php; title: ; notranslate">x</pre>', "php"),
        ('<pre data-language="sql">x</pre>', "sql"),
        ('<pre class="wp-block-code"><code class="hljs language-yaml">x</code></pre>', "yaml"),
        ('<pre lang="fr">x</pre>', ""),
        ('<pre class="wp-block-preformatted">x</pre>', ""),
    ],
)
def test_code_block_language_comes_from_the_html(html, language):
    assert html_to_markdown(html).split("\n")[0] == "```" + language


def test_code_is_kept_verbatim():
    code = (
        "function Get-Thing {\n"
        "    param([string]$Name = \"*_x_*\")\n"
        "\n"
        "\n"
        "    if ($a -lt 3 -and $b -gt 4) { Write-Host \"<b>#1</b> & more\" }\n"
        "}"
    )
    html = "<p>Before</p><pre><code class=\"language-powershell\">" + code.replace("&", "&amp;").replace("<", "&lt;") + "</code></pre>"
    markdown = html_to_markdown(html)
    assert f"```powershell\n{code}\n```" in markdown


def test_code_with_backticks_gets_a_longer_fence_and_br_becomes_newline():
    markdown = html_to_markdown("<pre>a ``` b<br>second line</pre>")
    assert markdown == "````\na ``` b\nsecond line\n````"


def test_inline_code_is_not_escaped():
    markdown = html_to_markdown("<p>Run <code>my_var * 2 &lt;x&gt;</code> then snake_case_name.</p>")
    assert markdown == "Run `my_var * 2 <x>` then snake_case_name."


def test_table_without_th_uses_first_row_as_header_and_escapes_pipes():
    html = "<table><tr><td>Switch</td><td>Meaning</td></tr><tr><td>/q</td><td>a|b</td></tr></table>"
    assert html_to_markdown(html) == "| Switch | Meaning |\n| --- | --- |\n| /q | a\\|b |"


def test_table_with_thead_and_caption():
    html = (
        "<table><caption>Ports</caption><thead><tr><th>Port</th><th>Use</th></tr></thead>"
        "<tbody><tr><td>88</td><td>Kerberos</td></tr></tbody></table>"
    )
    markdown = html_to_markdown(html)
    assert "| Port | Use |\n| --- | --- |\n| 88 | Kerberos |" in markdown
    assert "Ports" in markdown


def test_nested_lists_and_links():
    html = '<ul><li>One<ul><li>Nested <a href="https://example.org/a">link</a></li></ul></li><li>Two</li></ul><ol><li>First</li><li>Second</li></ol>'
    assert html_to_markdown(html) == "- One\n  - Nested [link](https://example.org/a)\n- Two\n\n1. First\n2. Second"


def test_dangerous_things_are_dropped():
    html = (
        '<p onclick="alert(1)">Text</p><script>alert(1)</script><style>p{}</style>'
        '<iframe src="https://evil.example"></iframe><form><input name="q"><button>Go</button></form>'
        "<noscript>Enable JS</noscript><!-- wp:paragraph --><p>After</p><!-- /wp:paragraph -->"
        '<a href="javascript:alert(1)">bad link</a> <a href=" JaVa&#09;Script:alert(1)">bad too</a>'
        '<img src="javascript:alert(1)" alt="pic"> <img src="data:image/png;base64,AAAA" alt="inline">'
        "<p>&lt;script&gt;alert(2)&lt;/script&gt;</p>"
    )
    markdown = html_to_markdown(html)
    assert "alert(1)" not in markdown
    assert "Enable JS" not in markdown and "Go" not in markdown
    assert "onclick" not in markdown and "javascript" not in markdown.lower() and "data:" not in markdown
    assert "bad link" in markdown and "bad too" in markdown and "pic" in markdown and "inline" in markdown
    assert "Text" in markdown and "After" in markdown
    assert not re.search(r"(?<!\\)<script", markdown)
    assert "\\<script>alert(2)" in markdown


def test_figures_reduce_to_a_plain_image_with_caption():
    html = ('<figure class="wp-block-image"><img src="https://example.org/a.png" alt="A diagram" srcset="x 1x">'
            "<figcaption>The flow</figcaption></figure>")
    assert html_to_markdown(html) == "![A diagram](https://example.org/a.png)\n\nThe flow"


def test_blank_lines_collapse_and_output_is_trimmed():
    html = "<p>\n\n</p><p>One</p><div><br><br><br></div><p>&nbsp;</p><p>Two</p>\n\n"
    assert html_to_markdown(html) == "One\n\nTwo"


def test_headings_are_atx_without_emphasis():
    assert html_to_markdown("<h1>Title</h1><h2><strong>Bold</strong> part</h2><h6>Small</h6>") == (
        "# Title\n\n## Bold part\n\n###### Small"
    )


def test_non_text_input_and_too_deep_html_fail_clearly():
    with pytest.raises(TypeError):
        html_to_markdown(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nested too deeply"):
        html_to_markdown("<div>" * 3000 + "x" + "</div>" * 3000)
