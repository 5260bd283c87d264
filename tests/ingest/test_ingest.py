"""The ingestion pipeline on real Qdrant local mode and a real (fake-model) embeddings server."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from rag.config import Settings
from rag.documents import Document, Problem
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.embeddings.remote import OpenAIEmbedder
from rag.errors import StoreError
from rag.ingest.report import IngestProgress
from rag.ingest.run import ingest as run_ingest
from rag.answer.retrieve import retrieve
from rag.store.store import Store, point_id


def _doc(slug: str, sections: int, modified: str = "2024-01-01T00:00:00", extra: str = "", access=None) -> Document:
    body = "\n\n".join(
        f"## Partie {i} de {slug}\n\nParagraphe {i} de l'article {slug}. {extra}Il explique un réglage précis."
        for i in range(sections)
    )
    return Document(
        url=f"https://blog.example/{slug}/", title=f"Article {slug}", markdown=f"Introduction de {slug}.\n\n{body}",
        modified=modified, access=access or ["public"], source="test",
    )


def ingest(*args, **kwargs):
    # These documents are small: one chunk per `## ` section is what gives each several points.
    kwargs.setdefault("strategy", "sections")
    return run_ingest(*args, **kwargs)


def _corpus() -> list[Document]:
    return [_doc("kerberos", 3), _doc("dns", 2), _doc("gpo", 4)]


@pytest.fixture
def store(store_on, data_dir):
    """On both backends: Qdrant Edge, and the server API (qdrant-client's local mode)."""
    return store_on(data_dir)


@pytest.fixture
def server(fake_embeddings_server):
    return fake_embeddings_server(dimension=16)


@pytest.fixture
def embedder(server):
    e = OpenAIEmbedder(server.url, server.model, timeout=10)
    yield e
    e.close()


def _points(store: Store, collection: str = "blog") -> dict[str, dict]:
    return {p.id: p.payload for p in store.scroll(collection)}


def test_first_run_indexes_and_second_run_skips_everything(store, embedder, server):
    seen: list[IngestProgress] = []
    first = ingest(_corpus(), store, embedder, "blog", progress=seen.append)
    assert (first.new, first.changed, first.unchanged, first.failed) == (3, 0, 0, [])
    assert first.ok and first.verified > 0
    points = _points(store)
    assert len(points) == first.chunks_written > 3
    some = next(iter(points.values()))
    for key in ("url", "title", "section", "heading_path", "order", "modified", "text", "header",
                "strategy", "source", "access", "content_hash"):
        assert key in some
    kerberos = sorted((p for p in points.values() if "kerberos" in p["url"]), key=lambda p: p["order"])
    assert [point_id(p["url"], p["order"]) for p in kerberos] == [
        i for i, p in sorted(points.items(), key=lambda kv: kv[1]["order"]) if "kerberos" in p["url"]
    ]
    assert seen[-1].phase == "done" and seen[-1].docs_done == 3 and seen[-1].docs_total == 3
    # Within each document the bar moves passage by passage, and never back.
    embedding = [p for p in seen if p.phase == "embedding"]
    assert {p.passages_total for p in embedding if p.passages_done == p.passages_total} == {
        p.passages_total for p in embedding} and all(p.passages_total for p in embedding)
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0

    info = store.collection_info("blog")
    assert info["embedding_model"] == embedder.model_id and info["dimension"] == 16
    assert info["strategy"] == "sections" and info["chunk_settings"]

    calls = len(server.embedding_requests)
    second = ingest(_corpus(), store, embedder, "blog")
    assert (second.new, second.changed, second.unchanged, second.chunks_written) == (0, 0, 3, 0)
    assert _points(store) == points
    assert len(server.embedding_requests) == calls  # nothing re-embedded


def test_changed_document_replaces_only_its_points_and_loses_extra_ones(store, embedder):
    ingest(_corpus(), store, embedder, "blog")
    before = _points(store)
    shorter = [_doc("kerberos", 1, modified="2024-02-01T00:00:00", extra="Nouvelle version. "), _doc("dns", 2),
               _doc("gpo", 4)]
    report = ingest(shorter, store, embedder, "blog")
    assert (report.new, report.changed, report.unchanged) == (0, 1, 2)
    assert report.changed_urls == ["https://blog.example/kerberos/"]
    after = _points(store)
    others_before = {i: p for i, p in before.items() if "kerberos" not in p["url"]}
    others_after = {i: p for i, p in after.items() if "kerberos" not in p["url"]}
    assert others_after == others_before  # same ids, same payload
    kerberos = [p for p in after.values() if "kerberos" in p["url"]]
    assert len(kerberos) < len([p for p in before.values() if "kerberos" in p["url"]])
    assert all("Nouvelle version" in p["text"] or p["order"] == 0 for p in kerberos)
    assert {p["modified"] for p in kerberos} == {"2024-02-01T00:00:00"}
    assert sorted(p["order"] for p in kerberos) == list(range(len(kerberos)))


def test_access_change_reindexes_the_document(store, embedder):
    ingest(_corpus(), store, embedder, "blog")
    docs = _corpus()
    docs[1].access = ["private"]
    report = ingest(docs, store, embedder, "blog")
    assert report.changed_urls == ["https://blog.example/dns/"]
    assert {tuple(p["access"]) for p in _points(store).values() if "dns" in p["url"]} == {("private",)}


def test_prune_deletes_documents_gone_from_the_source(store, embedder):
    ingest(_corpus(), store, embedder, "blog")
    remaining = [_doc("kerberos", 3), _doc("gpo", 4)]
    kept = ingest(remaining, store, embedder, "blog")
    assert kept.pruned == 0
    assert any("dns" in p["url"] for p in _points(store).values())
    pruned = ingest(remaining, store, embedder, "blog", prune=True)
    assert pruned.pruned == 1 and pruned.pruned_urls == ["https://blog.example/dns/"]
    assert not any("dns" in p["url"] for p in _points(store).values())


def test_prune_is_skipped_when_the_source_failed_midway(store, embedder):
    from rag.errors import SourceError

    ingest(_corpus(), store, embedder, "blog")

    def broken_listing():
        yield _doc("kerberos", 3)
        raise SourceError("page 2 of the site failed (HTTP 500)")

    report = ingest(broken_listing(), store, embedder, "blog", prune=True)
    assert report.aborted and "page 2" in report.aborted
    assert report.pruned == 0
    assert len({p["url"] for p in _points(store).values()}) == 3


def test_zero_vectors_fail_one_document_and_the_others_are_indexed(store, fake_embeddings_server):
    server = fake_embeddings_server(dimension=16, mode="zeros", trigger="article dns")
    embedder = OpenAIEmbedder(server.url, server.model, timeout=10)
    report = ingest(_corpus(), store, embedder, "blog")
    assert report.new == 2
    assert [item for item, _ in report.failed] == ["https://blog.example/dns/"]
    assert "zero" in report.failed[0][1]
    assert not report.ok
    urls = {p["url"] for p in _points(store).values()}
    assert urls == {"https://blog.example/kerberos/", "https://blog.example/gpo/"}
    # The server fixed: the next run indexes the missing document and skips the others.
    server.mode = "ok"
    again = ingest(_corpus(), store, embedder, "blog")
    assert (again.new, again.unchanged, again.failed) == (1, 2, [])
    embedder.close()


def test_problems_from_the_source_are_reported_and_the_run_goes_on(store, embedder):
    items = [_doc("kerberos", 1), Problem("photo.md", "binary file (NUL bytes): skipped"),
             Problem("latin1.md", "read as cp1252", level="warning"), _doc("dns", 1)]
    report = ingest(items, store, embedder, "blog")
    assert report.new == 2
    assert report.failed == [("photo.md", "binary file (NUL bytes): skipped")]
    assert any("latin1.md" in w for w in report.warnings)


def test_another_embedding_model_is_refused_naming_both(store, fake_embeddings_server):
    embedded = EmbeddedEmbedder(threads=1)
    ingest([Document(url="a.md", title="A", markdown="Un court texte sur Kerberos.")], store, embedded, "blog")
    server = fake_embeddings_server(dimension=384, model="text-embedding-other-model")
    other = OpenAIEmbedder(server.url, server.model, timeout=10)
    with pytest.raises(StoreError) as err:
        ingest(_corpus(), store, other, "blog")
    assert "embedded:multilingual-e5-small" in str(err.value)
    assert "text-embedding-other-model" in str(err.value)
    assert "--collection" in str(err.value)
    with pytest.raises(StoreError) as err:
        retrieve("Kerberos ?", store, other, "blog")
    assert "embedded:multilingual-e5-small" in str(err.value) and "text-embedding-other-model" in str(err.value)
    assert store.count("blog") == 1
    # --full is the explicit way to rebuild the collection with the new model.
    rebuilt = ingest(_corpus(), store, other, "blog", full=True)
    assert rebuilt.new == 3
    assert store.collection_info("blog")["embedding_model"] == "text-embedding-other-model"
    other.close()


def test_full_rebuilds_from_scratch(store, embedder):
    ingest(_corpus(), store, embedder, "blog")
    store.set_threshold("blog", 0.8)
    report = ingest(_corpus()[:1], store, embedder, "blog", full=True)
    assert (report.new, report.unchanged) == (1, 0)
    assert {p["url"] for p in _points(store).values()} == {"https://blog.example/kerberos/"}
    assert store.collection_info("blog")["threshold"] is None


def test_partly_written_document_is_redone(store, embedder):
    ingest(_corpus(), store, embedder, "blog")
    complete = _points(store)
    gpo = sorted((i for i, p in complete.items() if "gpo" in p["url"]), key=lambda i: complete[i]["order"])
    store.delete_points("blog", gpo[2:])  # as if the run had died after the first two points
    report = ingest(_corpus(), store, embedder, "blog")
    assert (report.changed, report.unchanged) == (1, 2)
    assert _points(store) == complete


@pytest.mark.slow  # a writer process killed midway
def test_killed_process_mid_write_then_rerun_gives_exactly_the_right_points(data_dir, server, embedder):
    """A real `ingest` process dies in the middle of a document's upsert; the re-run repairs it."""
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from rag.config import Settings
        from rag.embeddings.remote import OpenAIEmbedder
        from rag.store.store import Store
        from tests.ingest.test_ingest import _corpus, ingest

        store = Store(Settings(data_dir=Path({str(data_dir)!r})))
        real_upsert = store.upsert
        def dying_upsert(name, records):
            if any("gpo" in r.payload["url"] for r in records):
                real_upsert(name, records[:2])
                os._exit(9)
            real_upsert(name, records)
        store.upsert = dying_upsert
        ingest(_corpus(), store, OpenAIEmbedder({server.url!r}, {server.model!r}), "blog")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr

    store = Store(Settings(data_dir=data_dir))
    try:
        partial = _points(store)
        assert sum("gpo" in p["url"] for p in partial.values()) == 2
        report = ingest(_corpus(), store, embedder, "blog")
        assert (report.new, report.changed, report.unchanged) == (0, 1, 2)
        rerun = _points(store)
    finally:
        store.close()

    reference = Store(Settings(data_dir=data_dir / "reference"))
    try:
        ingest(_corpus(), reference, embedder, "blog")
        expected = _points(reference)
    finally:
        reference.close()
    assert set(rerun) == set(expected)
    assert {i: p["text"] for i, p in rerun.items()} == {i: p["text"] for i, p in expected.items()}


# -- a real WordPress REST site (the local test server with real posts) ---------------------------

from rag.sources.wordpress import WordPressSource  # noqa: E402
from tests.fixtures.wordpress import load_real_posts  # noqa: E402


def _site(wp) -> list:
    return list(WordPressSource(wp.url, username=wp.username, app_password=wp.app_password).iter_documents())


def _by_url(store: Store) -> dict[str, dict[str, dict]]:
    grouped: dict[str, dict[str, dict]] = {}
    for pid, payload in _points(store).items():
        grouped.setdefault(payload["url"], {})[pid] = payload
    return grouped


def test_wordpress_site_twice_then_edit_then_delete_with_prune(store, embedder, make_wp_server):
    wp = make_wp_server(posts=load_real_posts("frontity")[:4])
    private = wp.add_post("Procédure interne", "<p>Réservé à l'équipe : rotation des clés.</p>", status="private")

    first = ingest(_site(wp), store, embedder, "blog")
    assert first.new == 5 and first.ok
    count = store.count("blog")
    before = _by_url(store)
    assert {tuple(p["access"]) for p in before[private["link"]].values()} == {("private",)}

    second = ingest(_site(wp), store, embedder, "blog")
    assert (second.new, second.changed, second.unchanged, second.chunks_written) == (0, 0, 5, 0)
    assert store.count("blog") == count

    # Find a post with several chunks and make it a one-paragraph post.
    target_url = max((u for u in before if u != private["link"]), key=lambda u: len(before[u]))
    assert len(before[target_url]) > 1
    target = next(p for p in wp.posts if p["link"] == target_url)
    wp.update_post(target["id"], content="<p>Version courte, réécrite.</p>")
    third = ingest(_site(wp), store, embedder, "blog")
    assert (third.changed, third.unchanged) == (1, 4) and third.changed_urls == [target_url]
    after = _by_url(store)
    assert len(after[target_url]) == 1
    assert "Version courte" in next(iter(after[target_url].values()))["text"]
    for url in before:
        if url != target_url:
            assert after[url] == before[url]  # same ids, same payload

    wp.delete_post(private["id"])
    fourth = ingest(_site(wp), store, embedder, "blog", prune=True)
    assert fourth.pruned_urls == [private["link"]] and fourth.unchanged == 4
    assert private["link"] not in _by_url(store)


@pytest.mark.parametrize("strategy", ["sections", "markdown"])
def test_the_introduction_is_a_named_section_in_the_payload_and_the_citations(store, embedder, lmstudio, data_dir, strategy):
    from rag.answer.engine import answer_passages
    from rag.servers.chat import LLMClient

    run_ingest([_doc("kerberos", 2)], store, embedder, "blog", strategy=strategy,
               chunk_settings={"chunk_size": 60, "overlap": 0} if strategy == "markdown" else None)
    points = sorted(_points(store).values(), key=lambda p: p["order"])
    # A chunk that holds the introduction and what follows names both, the introduction first.
    assert points[0]["text"].startswith("Introduction de kerberos")
    assert points[0]["section"].split(" · ")[0] == "Introduction"
    for p in points:  # what is embedded names the section that citations name
        assert p["section"] and p["header"].split("\n")[1] == f"Section: {p['section']}"
    passages = retrieve("Introduction de kerberos", store, embedder, "blog", top_k=3)
    intro = next(p for p in passages if p.url.endswith("/kerberos/") and p.text.startswith("Introduction"))
    assert intro.section.split(" · ")[0] == "Introduction"
    lmstudio.answer = f"L'article commence ainsi [{intro.n}]."
    result = answer_passages("Comment commence l'article kerberos ?", passages, LLMClient(lmstudio.url), -1.0)
    assert result.to_json()["sources"] == [
        {"n": intro.n, "title": "Article kerberos", "section": intro.section, "url": "https://blog.example/kerberos/"}
    ]


@pytest.mark.parametrize("full", [False, True])
def test_a_first_indexing_stopped_midway_leaves_a_collection_the_gate_checks_by_its_words(store, embedder, full):
    """A first run ended by the page going away (a closed tab stops its script with an exception
    that is not an error) leaves a collection whose every point carries term keys: the gate must
    read it as such, then and after the re-run, not as one built before the word check."""
    from rag.answer.gate import has_terms

    class TabClosed(BaseException):
        pass

    def listing_cut_short():
        yield _doc("kerberos", 3)
        yield _doc("dns", 2)
        raise TabClosed

    with pytest.raises(TabClosed):
        ingest(listing_cut_short(), store, embedder, "blog", full=full)
    assert {p["url"] for p in _points(store).values()} == {"https://blog.example/kerberos/", "https://blog.example/dns/"}
    assert has_terms(store.collection_info("blog"))

    rerun = ingest(_corpus(), store, embedder, "blog")
    assert rerun.unchanged == 2 and rerun.new == 1
    assert has_terms(store.collection_info("blog"))


def test_an_old_collection_indexed_again_is_not_taken_for_one_with_term_keys(store, embedder):
    """Points written before the term keys keep the collection unmarked until a full rebuild."""
    from rag.answer.gate import has_terms

    ingest(_corpus()[:2], store, embedder, "blog")
    store.update_metadata("blog", terms_version=None)  # as a collection of before the word check
    ingest(_corpus(), store, embedder, "blog")
    assert not has_terms(store.collection_info("blog"))
    ingest(_corpus(), store, embedder, "blog", full=True)
    assert has_terms(store.collection_info("blog"))
