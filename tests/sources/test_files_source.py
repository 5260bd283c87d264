"""The local-folder source: front matter, titles, encodings, unusable files, the real docs-fr corpus."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rag.documents import Document, Problem
from rag.errors import SourceError
from rag.sources import load_one, open_source
from rag.sources.files import iter_folder, load_file
from tests.fixtures.files import write_file


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "blog"
    write_file(root, "with-front-matter.md", (
        "---\n"
        "title: Kerberos & NTLM\n"
        "url: https://blog.example.com/kerberos/\n"
        "source: wordpress\n"
        "modified: 2024-03-01T10:00:00\n"
        "access: [staff, admins]\n"
        "---\n"
        "# A heading that is not the title\n\nBody text.\n"
    ))
    write_file(root, "guides/nested/deep.markdown", "Intro line.\n\n# Deep heading <a name=\"x\"></a>\n\nText.\n")
    write_file(root, "guides/hugo.md", "---\ntitle: About\nurl: /about/\n---\nA page of another site generator.\n")
    write_file(root, "guides/no-heading.md", "Just some text, no heading.\n")
    write_file(root, "guides/comma-access.md", "---\naccess: staff, ops\nmodified: 2024-01-31\n---\nText.\n")
    write_file(root, "pages/page.html", (
        "<html><head><title>Saved page</title><script>evil()</script></head>"
        "<body><nav>Menu</nav><article><h2>Part</h2><p>Article text.</p>"
        "<pre class=\"language-bash\">ls -la</pre></article><footer>Foot</footer></body></html>"
    ))
    write_file(root, "pages/fragment.htm", "<h1>Fragment title</h1><p>Some <b>text</b>.</p>")
    write_file(root, "bad/binary.md", b"# Title\x00\x01\x02 binary")
    write_file(root, "bad/empty.md", b"")
    write_file(root, "bad/blank.md", "  \n\t\n\n")
    write_file(root, "bad/only-front-matter.md", "---\ntitle: Nothing else\n---\n\n")
    write_file(root, "enc/cp1252.md", "# Sécurité réseau\n\nL’accès est refusé.\n".encode("cp1252"))
    write_file(root, "enc/bom.md", b"\xef\xbb\xbf---\ntitle: Avec BOM\n---\nTexte \xc3\xa9t\xc3\xa9.\r\nLigne 2.\r\n")
    write_file(root, "enc/broken-yaml.md", "---\ntitle: [unclosed\n---\n# Kept heading\n\nBody.\n")
    write_file(root, ".hidden/secret.md", "# Hidden\n")
    write_file(root, "guides/.draft.md", "# Draft\n")
    write_file(root, "notes.txt", "not a document")
    write_file(root, "image.png", b"\x89PNG\x00\x00")
    return root


def _by_item(items):
    docs = {i.url: i for i in items if isinstance(i, Document)}
    problems = {}
    for item in items:
        if isinstance(item, Problem):
            problems.setdefault(item.item, []).append(item)
    return docs, problems


def test_folder_yields_every_usable_file_and_reports_the_others(folder):
    docs, problems = _by_item(list(iter_folder(folder)))
    assert set(docs) == {
        "https://blog.example.com/kerberos/",
        "guides/nested/deep.markdown",
        "guides/hugo.md",
        "guides/no-heading.md",
        "guides/comma-access.md",
        "pages/page.html",
        "pages/fragment.htm",
        "enc/cp1252.md",
        "enc/bom.md",
    }
    assert set(problems) == {"bad/binary.md", "bad/empty.md", "bad/blank.md", "bad/only-front-matter.md",
                             "enc/cp1252.md", "enc/broken-yaml.md"}
    assert "binary" in problems["bad/binary.md"][0].message
    assert "empty" in problems["bad/empty.md"][0].message and "empty" in problems["bad/blank.md"][0].message
    for name in ("bad/binary.md", "enc/broken-yaml.md"):
        assert [p.level for p in problems[name]] == ["error"]
    for name in ("bad/empty.md", "bad/blank.md", "bad/only-front-matter.md"):
        assert [p.level for p in problems[name]] == ["skipped"]  # nothing to index: not a failure
    assert all(d.source == "files" for d in docs.values())


def test_front_matter_gives_title_url_modified_access_and_is_removed(folder):
    doc = load_file(folder / "with-front-matter.md", folder)
    assert isinstance(doc, Document)
    assert doc.title == "Kerberos & NTLM"
    assert doc.url == "https://blog.example.com/kerberos/"
    assert doc.modified == "2024-03-01T10:00:00"
    assert doc.access == ["staff", "admins"]
    assert doc.markdown == "# A heading that is not the title\n\nBody text."
    comma = load_file(folder / "guides/comma-access.md", folder)
    assert comma.access == ["staff", "ops"] and comma.modified == "2024-01-31"


def test_title_falls_back_to_first_h1_then_file_name(folder):
    docs, _ = _by_item(list(iter_folder(folder, default_access=["team"])))
    assert docs["guides/nested/deep.markdown"].title == "Deep heading"
    assert docs["guides/no-heading.md"].title == "no-heading"
    assert docs["guides/no-heading.md"].access == ["team"]
    assert docs["guides/no-heading.md"].modified  # the file's mtime, ISO
    assert docs["guides/no-heading.md"].modified[:4].isdigit()


def test_html_files_are_converted_with_title_from_the_page(folder):
    docs, _ = _by_item(list(iter_folder(folder)))
    page = docs["pages/page.html"]
    assert page.title == "Saved page"
    assert page.markdown == "## Part\n\nArticle text.\n\n```bash\nls -la\n```"
    fragment = docs["pages/fragment.htm"]
    assert fragment.title == "Fragment title" and fragment.markdown.startswith("# Fragment title")


def test_cp1252_file_is_read_with_a_warning_and_bom_is_dropped(folder):
    items = list(iter_folder(folder))
    docs, problems = _by_item(items)
    warning = problems["enc/cp1252.md"][0]
    assert warning.level == "warning" and "cp1252" in warning.message
    assert docs["enc/cp1252.md"].title == "Sécurité réseau"
    assert "L’accès est refusé." in docs["enc/cp1252.md"].markdown
    bom = docs["enc/bom.md"]
    assert bom.title == "Avec BOM" and bom.markdown == "Texte été.\nLigne 2."
    assert items.index(warning) < items.index(docs["enc/cp1252.md"]), "the warning comes before its document"


def test_invalid_front_matter_is_an_error_and_nothing_is_indexed(folder):
    docs, problems = _by_item(list(iter_folder(folder)))
    assert [p.level for p in problems["enc/broken-yaml.md"]] == ["error"]
    assert "front matter is not valid YAML" in problems["enc/broken-yaml.md"][0].message
    assert "enc/broken-yaml.md" not in docs


def test_hidden_files_and_other_extensions_are_ignored(folder):
    urls = [getattr(i, "url", None) or i.item for i in iter_folder(folder)]
    assert not any("hidden" in u or "draft" in u or u.endswith((".txt", ".png")) for u in urls)


def test_open_source_for_paths(folder, tmp_path):
    assert len([i for i in open_source(str(folder)) if isinstance(i, Document)]) == 9
    single = list(open_source(str(folder / "guides/no-heading.md")))
    assert [d.url for d in single] == ["no-heading.md"]
    with pytest.raises(SourceError, match="No such file or folder"):
        open_source(str(tmp_path / "missing"))
    with pytest.raises(SourceError, match="https://"):
        open_source("blog.example.com")
    with pytest.raises(SourceError, match="not a .md"):
        open_source(str(folder / "notes.txt"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match="no .md"):
        list(open_source(str(empty)))


def test_load_one_file_and_its_errors(folder):
    assert load_one(str(folder / "with-front-matter.md")).title == "Kerberos & NTLM"
    with pytest.raises(SourceError, match="binary"):
        load_one(str(folder / "bad/binary.md"))
    with pytest.raises(SourceError, match="No such file"):
        load_one(str(folder / "nope.md"))


def test_unreadable_file_is_reported_and_the_rest_still_loads(folder):
    (folder / "guides" / "dangling.md").symlink_to(folder / "gone.md")
    docs, problems = _by_item(list(iter_folder(folder)))
    assert "could not be read" in problems["guides/dangling.md"][0].message
    assert len(docs) == 9


def test_docs_fr_corpus_loads_with_titles_from_front_matter(corpora):
    root = corpora / "docs-fr" / "docs"
    with open(corpora / "docs-fr" / "manifest.csv", encoding="utf-8") as handle:
        manifest = {row["path"]: row for row in csv.DictReader(handle)}
    items = list(iter_folder(root))
    docs = [i for i in items if isinstance(i, Document)]
    problems = [i for i in items if isinstance(i, Problem)]
    # 2 of the 38 pages of the extract are redirect stubs: front matter and no text. They are
    # reported as skipped (nothing to index), not as failures.
    assert len(docs) + len(problems) == len(manifest) == 38
    assert len(problems) == 2
    assert all("redirect" in p.message and p.level == "skipped" for p in problems)
    assert {d.url for d in docs} | {p.item for p in problems} == set(manifest)
    for doc in docs:
        # The manifest keeps the raw YAML text (quotes, non-breaking spaces); titles are normalized.
        assert doc.title == " ".join(manifest[doc.url]["title"].strip("'\"").split()), doc.url
        assert not doc.markdown.startswith("---") and "ms.translationtype" not in doc.markdown
        assert doc.markdown.strip() == doc.markdown
    klist = next(d for d in docs if d.url.endswith("/klist.md"))
    assert "```" in klist.markdown and "|" in klist.markdown
