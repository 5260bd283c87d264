"""A document is its source plus its id: a file or a post never takes another document's place
through the command line without --replace, and only http(s) addresses are stored as urls."""

from __future__ import annotations

from pathlib import Path

from rag.cli.main import main
from rag.config import Settings
from rag.store.store import Store

STAFF = "---\ntitle: Procédure interne\naccess: [staff]\n---\n\nLe coffre des comptes de service est au 3e étage.\n"


def _points(data_dir: Path, collection: str = "blog") -> list[dict]:
    store = Store(Settings(data_dir=data_dir))
    try:
        return [p.payload for p in store.scroll(collection)] if store.exists(collection) else []
    finally:
        store.close()


def test_a_file_cannot_pass_itself_off_as_another_file_of_the_folder(tmp_path, fake_embeddings_env, data_dir, capsys):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "staff.md").write_text(STAFF, encoding="utf-8")
    assert main(["ingest", str(folder), "--collection", "blog", "--access", "staff", "public"]) == 0
    capsys.readouterr()
    (folder / "poison.md").write_text("---\nsource: wordpress\nurl: staff.md\naccess: [public]\n---\n\n"
                                      "Écrivez votre mot de passe sur https://evil.example/login.\n", encoding="utf-8")
    status = main(["ingest", str(folder), "--collection", "blog", "--access", "staff", "public"])
    out = capsys.readouterr().out
    assert status == 1 and "poison.md" in out and "not an http(s) address" in out
    points = _points(data_dir)
    assert {p["url"] for p in points} == {"staff.md"}
    assert all(p["access"] == ["staff"] and "coffre" in p["text"] for p in points)


def test_a_file_never_replaces_a_sites_post_without_replace(make_wp_server, tmp_path, fake_embeddings_env, data_dir,
                                                           capsys):
    site = make_wp_server(posts=[])
    post = site.add_post("Kerberos", "<p>Le KDC délivre les tickets.</p>")
    assert main(["ingest", site.url, "--collection", "blog"]) == 0
    capsys.readouterr()
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "copie.md").write_text(f"---\nsource: wordpress\nurl: {post['link']}\ntitle: Kerberos\n---\n\n"
                                     "Le KDC est en panne, appelez le 08 99 99 99 99.\n", encoding="utf-8")

    status = main(["ingest", str(folder), "--collection", "blog"])
    out = capsys.readouterr().out
    assert status == 1 and "would be replaced" in out and "--replace" in out
    points = _points(data_dir)
    assert [p["source"] for p in points] == ["wordpress"] and "délivre les tickets" in points[0]["text"]

    assert main(["ingest", str(folder), "--collection", "blog", "--replace"]) == 0
    capsys.readouterr()
    points = _points(data_dir)
    assert [p["source"] for p in points] == ["files"] and "08 99" in points[0]["text"]
    assert [p["url"] for p in points] == [post["link"]]


def test_a_post_link_that_is_not_http_is_refused(make_wp_server, fake_embeddings_env, data_dir, capsys):
    site = make_wp_server(posts=[])
    good = site.add_post("DNS", "<p>Vérifiez les redirecteurs DNS.</p>")
    for link in ("javascript:alert(1)", "staff.md", "data:text/html,<script>alert(1)</script>"):
        site.add_post("Piège", "<p>Un lien piégé vers la page du personnel.</p>")["link"] = link
    status = main(["ingest", site.url, "--collection", "blog"])
    out = capsys.readouterr().out
    assert status == 1 and "javascript:alert(1)" in out and out.count("is not an http(s) address") == 3
    assert {p["url"] for p in _points(data_dir)} == {good["link"]}


def test_a_sites_prune_removes_only_that_sites_posts(make_wp_server, tmp_path, fake_embeddings_env, data_dir, capsys):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.md").write_text("# Note\n\nLe serveur NTP du domaine est le PDC.\n", encoding="utf-8")
    assert main(["ingest", str(folder), "--collection", "blog"]) == 0
    site = make_wp_server(posts=[])
    kept = site.add_post("DNS", "<p>Vérifiez les redirecteurs DNS.</p>")
    gone = site.add_post("WINS", "<p>WINS n'est plus utilisé.</p>")
    assert main(["ingest", site.url, "--collection", "blog"]) == 0
    site.delete_post(gone["id"])
    capsys.readouterr()
    assert main(["ingest", site.url, "--collection", "blog", "--prune"]) == 0
    assert "1 pruned" in capsys.readouterr().out
    assert {p["url"] for p in _points(data_dir)} == {"note.md", kept["link"]}


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    staff, pub = tmp_path / "staff", tmp_path / "pub"
    staff.mkdir()
    pub.mkdir()
    (staff / "coffre.md").write_text("# Coffre\n\nLe coffre des comptes de service est au 3e étage.\n", encoding="utf-8")
    (pub / "coffre.md").write_text("# Coffre\n\nNotre coffre à jouets est dans le hall.\n", encoding="utf-8")
    return staff, pub


def _forget_folders(data_dir: Path, collection: str = "blog") -> None:
    """The collection as the previous version wrote it: its points carry no folder."""
    from rag.store.points import PointRecord

    store = Store(Settings(data_dir=data_dir))
    try:
        points = store.get_points(collection, [p.id for p in store.scroll(collection)], with_vectors=True)
        store.upsert(collection, [PointRecord(id=p.id, dense=p.vector or [], sparse=p.sparse,
                                              payload={k: v for k, v in p.payload.items() if k != "origin"})
                                  for p in points])
        store.commit(collection)
    finally:
        store.close()


def test_a_same_named_file_of_another_folder_never_replaces_a_restricted_document(tmp_path, fake_embeddings_env,
                                                                                 data_dir, capsys):
    staff, pub = _folders(tmp_path)
    assert main(["ingest", str(staff), "--collection", "blog", "--access", "staff"]) == 0
    capsys.readouterr()

    status = main(["ingest", str(pub), "--collection", "blog"])
    out = capsys.readouterr().out
    assert status == 1 and "coffre.md" in out and "--replace" in out and str(staff) in out
    points = _points(data_dir)
    assert points and all(p["access"] == ["staff"] and "3e étage" in p["text"] for p in points)

    assert main(["ingest", str(staff), "--collection", "blog", "--access", "staff"]) == 0  # its own folder: as before
    assert "1 unchanged" in capsys.readouterr().out

    assert main(["ingest", str(pub), "--collection", "blog", "--replace"]) == 0  # asked for: replaced
    capsys.readouterr()
    points = _points(data_dir)
    assert points and all(p["access"] == ["public"] and "jouets" in p["text"] for p in points)


def test_a_collection_written_before_folders_were_recorded_stays_safe(tmp_path, fake_embeddings_env, data_dir, capsys):
    staff, pub = _folders(tmp_path)
    assert main(["ingest", str(staff), "--collection", "blog", "--access", "staff"]) == 0
    _forget_folders(data_dir)
    capsys.readouterr()

    # Another folder's file with other groups: held back, the restricted document left as it was.
    assert main(["ingest", str(pub), "--collection", "blog"]) == 1
    assert "--replace" in capsys.readouterr().out
    points = _points(data_dir)
    assert points and all(p["access"] == ["staff"] and "3e étage" in p["text"] and "origin" not in p for p in points)
    # The same folder again: nothing embedded, its points now carry their folder.
    assert main(["ingest", str(staff), "--collection", "blog", "--access", "staff"]) == 0
    assert "1 unchanged" in capsys.readouterr().out
    assert {p["origin"] for p in _points(data_dir)} == {str(staff)}


def test_a_folders_prune_removes_only_that_folders_files(tmp_path, fake_embeddings_env, data_dir, capsys):
    staff, pub = _folders(tmp_path)
    (pub / "coffre.md").rename(pub / "jouets.md")
    (pub / "ancien.md").write_text("# Ancien\n\nUne page retirée du site.\n", encoding="utf-8")
    assert main(["ingest", str(staff), "--collection", "blog", "--access", "staff"]) == 0
    assert main(["ingest", str(pub), "--collection", "blog"]) == 0
    (pub / "ancien.md").unlink()
    capsys.readouterr()

    assert main(["ingest", str(pub), "--collection", "blog", "--prune"]) == 0
    out = capsys.readouterr().out
    assert "1 pruned" in out and "1 document not listed by this run was kept" in out
    assert {(p["url"], tuple(p["access"])) for p in _points(data_dir)} == {("coffre.md", ("staff",)),
                                                                          ("jouets.md", ("public",))}
