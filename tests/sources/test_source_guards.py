"""What a hostile or careless author cannot do through a folder: widen a document's access with
front matter, get text indexed whose front matter is unreadable, pull files from outside the
folder through symbolic links, or flood the collection with an oversized or encoded file."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.documents import Document, Problem
from rag.errors import SourceError
from rag.sources import load_one
from rag.sources.access_rule import effective_access
from rag.sources.files import iter_folder
from rag.store.store import Store
from tests.fixtures.files import write_file

BODY = "## Procédure\n\nLa rotation du compte krbtgt se fait en deux temps, à dix heures d'écart.\n"


def _stored(data_dir: Path, collection: str = "blog") -> dict[str, list[str]]:
    store = Store(Settings(data_dir=data_dir))
    try:
        return {p.payload["url"]: sorted(p.payload["access"]) for p in store.scroll(collection)}
    finally:
        store.close()


def _summary(capsys) -> dict:
    return json.loads(capsys.readouterr().out)


# -- break 3: front matter that cannot be read fails closed ------------------------------------


def test_broken_front_matter_is_not_indexed_and_the_run_exits_1(tmp_path, fake_embeddings_env, data_dir, capsys):
    root = tmp_path / "docs"
    write_file(root, "incident.md", "---\ntitle: Incident: rotation krbtgt\naccess: [staff]\n---\n" + BODY)
    write_file(root, "open.md", "---\ntitle: Ouvert\n---\n" + BODY)
    assert main(["ingest", str(root), "--json"]) == 1
    summary = _summary(capsys)
    failed = {f["item"]: f["reason"] for f in summary["failed"]}
    assert set(failed) == {"incident.md"}
    assert "front matter is not valid YAML (line 2)" in failed["incident.md"]
    assert "quotes" in failed["incident.md"]
    assert _stored(data_dir) == {"open.md": ["public"]}


def test_unclosed_front_matter_and_an_access_of_the_wrong_kind_are_refused(tmp_path):
    root = tmp_path / "docs"
    write_file(root, "unclosed.md", "---\naccess: [staff]\ntitle: Secret\n\n" + BODY)
    write_file(root, "mapping.md", "---\naccess: {staff: true}\n---\n" + BODY)
    write_file(root, "number-list.md", "---\naccess: [[staff]]\n---\n" + BODY)
    items = list(iter_folder(root))
    assert not [i for i in items if isinstance(i, Document)]
    reasons = {i.item: i.message for i in items}
    assert "never closed" in reasons["unclosed.md"]
    assert "not a list of groups" in reasons["mapping.md"]
    assert "not a group name" in reasons["number-list.md"]
    assert all(i.level == "error" for i in items)


def test_a_document_whose_front_matter_breaks_later_leaves_the_collection(tmp_path, fake_embeddings_env, data_dir, capsys):
    root = tmp_path / "docs"
    doc = write_file(root, "incident.md", "---\ntitle: Rotation\naccess: [staff]\n---\n" + BODY)
    write_file(root, "other.md", BODY)
    assert main(["ingest", str(root)]) == 0
    assert _stored(data_dir)["incident.md"] == ["staff"]
    capsys.readouterr()
    # The author adds a colon to the title: the old copy must not stay, nor become public.
    doc.write_text("---\ntitle: Incident: rotation\naccess: [staff]\n---\n" + BODY + "\nNouveau mot de passe.\n",
                   encoding="utf-8")
    assert main(["ingest", str(root)]) == 1
    out = capsys.readouterr().out
    assert "FAILED incident.md" in out and "earlier copy was removed" in out
    assert _stored(data_dir) == {"other.md": ["public"]}


# -- break 16: --access and front matter, the stricter wins -----------------------------------


@pytest.mark.parametrize(
    ("folder", "declared", "expected"),
    [
        (["public"], None, ["public"]),
        (["public"], ["staff"], ["staff"]),
        (["staff"], None, ["staff"]),
        (["staff"], ["public"], ["staff"]),
        (["staff"], [], []),
        (["public"], [], []),
        (["staff", "ops"], ["ops", "hr"], ["ops"]),
        (["staff"], ["hr"], []),
    ],
)
def test_the_stricter_access_wins(folder, declared, expected):
    assert effective_access(folder, declared) == expected


def test_front_matter_cannot_widen_the_access_option(tmp_path, fake_embeddings_env, data_dir, capsys):
    root = tmp_path / "docs"
    write_file(root, "says-public.md", "---\naccess: [public]\n---\n" + BODY)
    write_file(root, "says-empty.md", "---\naccess: []\n---\n" + BODY)
    write_file(root, "says-staff-hr.md", "---\naccess: staff, hr\n---\n" + BODY)
    write_file(root, "says-hr.md", "---\naccess: [hr]\n---\n" + BODY)
    write_file(root, "says-nothing.md", BODY)
    assert main(["ingest", str(root), "--access", "staff", "--json"]) == 0
    summary = _summary(capsys)
    assert _stored(data_dir) == {
        "says-public.md": ["staff"],
        "says-empty.md": [],
        "says-staff-hr.md": ["staff"],
        "says-hr.md": [],
        "says-nothing.md": ["staff"],
    }
    assert any("says-hr.md" in w and "only editors" in w for w in summary["warnings"])


def test_an_empty_access_list_is_editors_only_even_without_the_option(tmp_path, fake_embeddings_env, data_dir):
    root = tmp_path / "docs"
    write_file(root, "nobody.md", "---\naccess: []\n---\n" + BODY)
    write_file(root, "blank.md", "---\naccess:\n---\n" + BODY)
    assert main(["ingest", str(root)]) == 0
    assert _stored(data_dir) == {"nobody.md": [], "blank.md": []}


# -- break 5: symbolic links --------------------------------------------------------------------


def test_links_leaving_the_folder_are_not_followed_and_named(tmp_path, fake_embeddings_env, data_dir, capsys):
    outside = tmp_path / "outside"
    write_file(outside, "passwd.md", "root:x:0:0:root:/root:/bin/bash\n")
    write_file(outside, "sub/secret.md", "# Secret\n\nNot for the index.\n")
    root = tmp_path / "docs"
    write_file(root, "guide.md", BODY)
    write_file(root, "real/inside.md", "# Inside\n\nA file of the folder.\n")
    (root / "passwd.md").symlink_to(outside / "passwd.md")
    (root / "alias.md").symlink_to(root / "real" / "inside.md")
    (root / "elsewhere").symlink_to(outside / "sub", target_is_directory=True)
    (root / "loop").symlink_to(root, target_is_directory=True)
    assert main(["ingest", str(root), "--json"]) == 1
    summary = _summary(capsys)
    failed = {f["item"]: f["reason"] for f in summary["failed"]}
    assert set(failed) == {"passwd.md", "elsewhere"}
    assert "outside the folder" in failed["passwd.md"] and str(outside / "passwd.md") in failed["passwd.md"]
    assert "not followed" in failed["elsewhere"]
    assert any(w.startswith("loop:") and "not followed" in w for w in summary["warnings"])
    # A link that stays inside the folder is read under its own name.
    assert set(_stored(data_dir)) == {"guide.md", "real/inside.md", "alias.md"}


def test_a_link_leaving_the_folder_that_an_earlier_run_indexed_is_removed(tmp_path, fake_embeddings_env, data_dir, capsys):
    outside = tmp_path / "etc"
    write_file(outside, "passwd.md", "root:x:0:0:root:/root:/bin/bash\n")
    root = tmp_path / "docs"
    write_file(root, "guide.md", BODY)
    (root / "passwd.md").symlink_to(outside / "passwd.md")
    # What an earlier version stored: the target's text under the link's name, public.
    store = Store(Settings(data_dir=data_dir))
    from rag.embeddings.resolve import embedder_for_collection
    from rag.ingest.run import ingest

    embedder, _ = embedder_for_collection(Settings.from_env(), None)
    ingest([Document(url="passwd.md", title="passwd", markdown="root:x:0:0:root:/root:/bin/bash")],
           store, embedder, "blog")
    store.close()
    assert main(["ingest", str(root)]) == 1
    assert set(_stored(data_dir)) == {"guide.md"}


def test_preview_refuses_a_link_leaving_its_folder(tmp_path):
    outside = write_file(tmp_path / "outside", "notes.md", "# Notes\n\nPrivate.\n")
    link = tmp_path / "docs" / "notes.md"
    link.parent.mkdir()
    link.symlink_to(outside)
    with pytest.raises(SourceError, match="outside the folder"):
        load_one(str(link))


# -- size caps and encoded data -------------------------------------------------------------------


def test_an_oversized_file_is_skipped_with_the_limit_named(tmp_path, fake_embeddings_env, data_dir, capsys, monkeypatch):
    root = tmp_path / "docs"
    write_file(root, "guide.md", BODY)
    write_file(root, "dump.md", "mot " * 400_000)  # 1.6 MB on one line
    assert main(["ingest", str(root), "--max-doc-mb", "1", "--json"]) == 1
    failed = {f["item"]: f["reason"] for f in _summary(capsys)["failed"]}
    assert set(failed) == {"dump.md"}
    assert "1.6 MB, over the 1 MB limit" in failed["dump.md"] and "RAG_MAX_DOC_MB" in failed["dump.md"]
    assert set(_stored(data_dir)) == {"guide.md"}
    # The variable sets the same cap; a larger one lets the file through.
    monkeypatch.setenv("RAG_MAX_DOC_MB", "0.5")
    items = list(iter_folder(root))
    assert [i.item for i in items if isinstance(i, Problem)] == ["dump.md"]
    monkeypatch.setenv("RAG_MAX_DOC_MB", "2")
    assert not [i for i in iter_folder(root) if isinstance(i, Problem)]


def test_a_bad_size_setting_is_a_clear_error(tmp_path, fake_embeddings_env, data_dir, capsys, monkeypatch):
    root = tmp_path / "docs"
    write_file(root, "guide.md", BODY)
    monkeypatch.setenv("RAG_MAX_DOC_MB", "ten")
    assert main(["ingest", str(root)]) == 2
    assert "RAG_MAX_DOC_MB='ten' is not a number" in capsys.readouterr().err


def test_a_mostly_base64_document_is_reported_and_skipped(tmp_path, fake_embeddings_env, data_dir, capsys):
    root = tmp_path / "docs"
    blob = base64.b64encode(os.urandom(30_000)).decode("ascii")
    write_file(root, "image.md", "# Capture\n\nVoici la capture :\n\n" + blob + "\n")
    write_file(root, "wrapped.md", "# Certificat\n\n" + "\n".join(blob[i:i + 120] for i in range(0, len(blob), 120)))
    write_file(root, "binary.md", "# Dump\n\n" + "".join(chr(1 + c % 8) for c in range(5000)))
    hashes = "\n".join(f"- `{os.urandom(32).hex()}` vu sur le contrôleur" for _ in range(200))
    write_file(root, "iocs.md", "# Indicateurs\n\n" + hashes)
    write_file(root, "guide.md", BODY)
    assert main(["ingest", str(root), "--json"]) == 1
    failed = {f["item"]: f["reason"] for f in _summary(capsys)["failed"]}
    assert set(failed) == {"image.md", "wrapped.md", "binary.md"}
    assert "mostly encoded data" in failed["image.md"] and "base64" in failed["image.md"]
    assert "binary data" in failed["binary.md"]
    # SHA-256 lists are text a security blog publishes: kept.
    assert set(_stored(data_dir)) == {"iocs.md", "guide.md"}


def test_fetch_never_writes_or_prunes_through_a_link(make_wp_server, tmp_path, monkeypatch):
    from tests.fixtures.wordpress import load_real_posts

    monkeypatch.delenv("RAG_WP_USER", raising=False)
    monkeypatch.delenv("RAG_WP_APP_PASSWORD", raising=False)
    site = make_wp_server(posts=load_real_posts("frontity")[:3])
    out = tmp_path / "out"
    assert main(["fetch", site.url, "--out", str(out)]) == 0
    names = sorted(p.name for p in out.glob("*.md"))
    # Someone swaps a fetched file for a link to a file of theirs, and links a stale-looking file in.
    precious = write_file(tmp_path / "outside", "precious.md", (out / names[0]).read_text(encoding="utf-8"))
    before = precious.read_text(encoding="utf-8")
    (out / names[0]).unlink()
    (out / names[0]).symlink_to(precious)
    other = write_file(tmp_path / "outside", "gone.md", before.replace("wordpress_id:", "wordpress_id: 99999\nx:"))
    (out / "gone-post.md").symlink_to(other)
    assert main(["fetch", site.url, "--out", str(out), "--prune"]) == 0
    assert precious.read_text(encoding="utf-8") == before and other.exists()
    assert not (out / names[0]).is_symlink() and (out / "gone-post.md").is_symlink()


def test_a_narrowed_access_is_said_the_french_way(tmp_path, fake_embeddings_env, data_dir, capsys, monkeypatch):
    """It read 'attention : says-hr.md: son front matter…', an English colon in a French line."""
    root = tmp_path / "docs"
    write_file(root, "says-hr.md", "---\naccess: [hr]\n---\n" + BODY)
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    assert main(["ingest", str(root), "--access", "staff"]) == 0
    out = capsys.readouterr()
    assert "attention : says-hr.md : son front matter autorise hr et le dossier staff" in out.out + out.err


def test_unreadable_front_matter_is_said_the_french_way():
    """It read '… YAML valide (ligne 2): mapping values…', an English colon in a French sentence."""
    from rag.i18n import language
    from rag.sources.frontmatter import split_front_matter

    with language("fr"):
        _, _, problem = split_front_matter("---\ntitle: Incident: rotation\n---\n# X\n")
    assert problem.startswith("le front matter n'est pas du YAML valide (ligne 2) : ")


# -- front matter that would fall open: a key given twice, a form not read here -------------------


@pytest.mark.parametrize("name, text, reason", [
    ("twice.md", "---\naccess: [staff]\ntitle: Rotation\naccess: [public]\n---\n", "the key 'access' is given twice"),
    ("toml.md", "+++\naccess = [\"staff\"]\ntitle = \"Rotation\"\n+++\n", "TOML"),
    ("indented.md", "  ---\naccess: [staff]\n  ---\n", "indented"),
    ("blank-first.md", "\n---\naccess: [staff]\n---\n", "at the very top"),
])
def test_front_matter_that_would_fall_open_is_refused(tmp_path, name, text, reason):
    root = tmp_path / "docs"
    write_file(root, name, text + BODY)
    write_file(root, "rule.md", "# Règle\n\nUn trait :\n\n---\n\nsans front matter.\n")  # a rule, not front matter
    items = {i.item if isinstance(i, Problem) else i.url: i for i in iter_folder(root)}
    assert isinstance(items[name], Problem) and items[name].level == "error"
    assert reason in items[name].message
    assert isinstance(items["rule.md"], Document) and items["rule.md"].access == ["public"]


def test_a_key_given_twice_deeper_down_is_refused_too():
    from rag.sources.frontmatter import split_front_matter

    meta, _, problem = split_front_matter("---\nextra:\n  a: 1\n  a: 2\n---\n# X\n")
    assert meta == {} and "'a' is given twice" in problem and "(line 4)" in problem
