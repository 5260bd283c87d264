"""`rag ingest` against a real WordPress (tests/fixtures/real_wordpress.py): credentials, private
and protected posts, an edit, a trash, a tags-only save, a permalink change, --prune."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.store.points import PointRecord, point_id
from rag.store.store import Store
from tests.fixtures import real_wordpress as rw

pytestmark = pytest.mark.slow


def _ingest(capsys, site, *flags: str, signed_in: bool = False) -> tuple[int, dict, str]:
    credentials = ["--user", site.username, "--app-password", site.app_password] if signed_in else []
    status = main(["ingest", site.url, "--collection", "blog", "--json", *credentials, *flags])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip().startswith("{") else {}), err


def _payloads(data_dir: Path, collection: str = "blog") -> list[dict]:
    store = Store(Settings(data_dir=data_dir))
    try:
        return [p.payload for p in store.scroll(collection)]
    finally:
        store.close()


def _embedded(server) -> int:
    """Texts sent to be embedded (each run's one-word dimension probe left out)."""
    return sum(len(r["input"]) for r in server.embedding_requests if r["input"] != ["dimension probe"])


def _by_post(site, payloads: list[dict], key: str) -> list[dict]:
    return [p for p in payloads if p.get("doc_id") == f"{site.url}#{site.ids[key]}"]


def test_wrong_credentials_say_refused_and_leave_no_empty_collection(real_wordpress, fake_embeddings_env, data_dir,
                                                                     capsys):
    status = main(["ingest", real_wordpress.url, "--collection", "blog", "--user", real_wordpress.username,
                   "--app-password", "abcd efgh ijkl mnop qrst uvwx"])
    out, err = capsys.readouterr()
    assert status == 2
    assert "refused the credentials" in out + err and "Invalid parameter" not in out + err
    store = Store(Settings(data_dir=data_dir))
    try:
        assert "blog" not in store.list_collections()
    finally:
        store.close()
    assert main(["status"]) == 0
    assert "'blog'" not in capsys.readouterr().out


def test_signed_in_run_skips_the_protected_post_exits_0_and_reads_private_and_excerpt_posts(
        real_wordpress, fake_embeddings_env, data_dir, capsys):
    status, report, _ = _ingest(capsys, real_wordpress, signed_in=True)
    assert status == 0, report
    assert report["failed"] == [] and len(report["skipped"]) == 1
    assert f"post {real_wordpress.ids['protected']} " in report["skipped"][0]["item"]
    payloads = _payloads(data_dir)
    private = _by_post(real_wordpress, payloads, "private")
    assert private and {p["title"] for p in private} == {"Rotation du compte krbtgt"}
    assert private[0]["access"] == ["private"]
    assert not any("Privé" in p["title"] or "Privé" in p["text"] for p in payloads)
    assert not any(rw.PROTECTED_SECRET in json.dumps(p, ensure_ascii=False) for p in payloads)
    excerpt = _by_post(real_wordpress, payloads, "excerpt")
    assert excerpt and "SNC chiffre le trafic SAP GUI" in excerpt[0]["text"]


def test_an_anonymous_prune_keeps_the_private_posts_of_a_signed_in_collection(real_wordpress, fake_embeddings_env,
                                                                            data_dir, capsys):
    assert _ingest(capsys, real_wordpress, signed_in=True)[0] == 0
    status, report, _ = _ingest(capsys, real_wordpress, "--prune")
    assert status == 0 and report["pruned"] == 0
    assert _by_post(real_wordpress, _payloads(data_dir), "private")
    # Said, with what to do: prune signed in.
    assert any("was kept" in w and "--app-password" in w for w in report["warnings"]), report["warnings"]


def test_an_edit_a_tags_only_save_and_a_trash(real_wordpress, fake_embeddings_env, data_dir, capsys):
    post = real_wordpress.add_post("Désactiver NTLMv1", "<!-- wp:paragraph --><p>NTLMv1 se coupe par GPO : "
                                   "« LAN Manager authentication level ».</p><!-- /wp:paragraph -->", tags=["ntlm"])
    doc_id = f"{real_wordpress.url}#{post}"
    try:
        status, report, _ = _ingest(capsys, real_wordpress)
        assert status == 0 and report["new"] >= 1
        written = _embedded(fake_embeddings_env)

        real_wordpress.update_post(post, tags=["ntlm", "gpo"])  # WordPress's modified date moves
        status, report, _ = _ingest(capsys, real_wordpress)
        assert status == 0 and report["changed"] == 0 and report["chunks_written"] == 0
        assert _embedded(fake_embeddings_env) == written  # nothing re-embedded
        stored = [p for p in _payloads(data_dir) if p.get("doc_id") == doc_id]
        modified = real_wordpress.rest(f"/wp/v2/posts/{post}").json()["modified"]
        assert stored and {p["modified"] for p in stored} == {modified}

        real_wordpress.update_post(post, content="<!-- wp:paragraph --><p>NTLMv1 est coupé sur tout le domaine "
                                   "depuis mai.</p><!-- /wp:paragraph -->")
        status, report, _ = _ingest(capsys, real_wordpress)
        assert status == 0 and report["changed"] == 1 and report["new"] == 0
        assert any("coupé sur tout le domaine" in p["text"] for p in _payloads(data_dir) if p.get("doc_id") == doc_id)
    finally:
        real_wordpress.trash_post(post)
    status, report, _ = _ingest(capsys, real_wordpress, "--prune")
    assert status == 0 and report["pruned"] == 1
    assert not [p for p in _payloads(data_dir) if p.get("doc_id") == doc_id]


def _points_count(data_dir: Path) -> int:
    store = Store(Settings(data_dir=data_dir))
    try:
        return store.count("blog")
    finally:
        store.close()


def test_a_permalink_change_updates_each_url_in_place(real_wordpress, fake_embeddings_env, data_dir, capsys):
    assert _ingest(capsys, real_wordpress)[0] == 0
    points = _points_count(data_dir)
    embedded = _embedded(fake_embeddings_env)
    with real_wordpress.permalinks(rw.PLAIN):
        status, report, _ = _ingest(capsys, real_wordpress)
    assert status == 0 and report["new"] == 0 and report["changed"] == 0 and report["chunks_written"] == 0
    assert _points_count(data_dir) == points  # not doubled
    assert _embedded(fake_embeddings_env) == embedded
    kerberos = _by_post(real_wordpress, _payloads(data_dir), "kerberos")
    assert {p["url"] for p in kerberos} == {f"{real_wordpress.url}/?p={real_wordpress.ids['kerberos']}"}


def test_a_collection_keyed_by_url_is_recognised_after_a_permalink_change(real_wordpress, fake_embeddings_env,
                                                                        data_dir, capsys):
    assert _ingest(capsys, real_wordpress)[0] == 0
    # The collection as earlier versions wrote it: points keyed by url, no doc_id.
    store = Store(Settings(data_dir=data_dir))
    try:
        old = list(store.scroll("blog", with_vectors=True))
        store.delete_points("blog", [p.id for p in old])
        store.upsert("blog", [PointRecord(id=point_id(p.payload["url"], p.payload["order"]), dense=p.vector,
                                          sparse=p.sparse, payload={k: v for k, v in p.payload.items() if k != "doc_id"})
                              for p in old])
        store.commit("blog")
        points = store.count("blog")
    finally:
        store.close()
    embedded = _embedded(fake_embeddings_env)
    with real_wordpress.permalinks(rw.INDEX_PHP):
        status, report, _ = _ingest(capsys, real_wordpress)
    assert status == 0 and report["new"] == 0 and report["chunks_written"] == 0, report
    assert _embedded(fake_embeddings_env) == embedded
    payloads = _payloads(data_dir)
    assert len(payloads) == points
    assert Counter(p["url"].startswith(f"{real_wordpress.url}/index.php/") for p in payloads) == {True: points}
    assert all(p.get("doc_id") for p in payloads)
