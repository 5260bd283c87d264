"""BM25's IDF counts only what the reader may see: whether staff documents use a word does not
change the order, or the scores, of the public passages a public reader gets."""

from __future__ import annotations

import pytest

from rag.store.filters import readable_by
from rag.store.points import PointRecord, point_id
from rag.store.reader_idf import reader_sparse
from rag.store.sparse import sparse_query, sparse_vector

FILLER = "texte commun du domaine pour la longueur"
PUBLIC = {"a.md": f"alpha {FILLER}", "b.md": f"beta {FILLER}", "c.md": f"alpha {FILLER} suite"}
STAFF = {f"staff-{i}.md": f"beta {FILLER} interne {i}" for i in range(5)}
QUERY = "alpha beta"


def _collection(store, name: str, docs: dict[str, tuple[str, str]]) -> None:
    store.ensure_collection(name, "m", 2, "markdown", None)
    # Each document its own direction, the same in every collection: the dense ranks agree.
    store.upsert(name, [PointRecord(id=point_id(url, 0), dense=[1.0, 0.01 * sum(map(ord, url))], sparse=sparse_vector(text),
                                    payload={"url": url, "order": 0, "access": [access], "text": text})
                        for url, (text, access) in docs.items()])
    store.commit(name)


def _ranking(store, name: str, sparse, groups) -> list[tuple[str, float]]:
    backend = store._backend
    found = backend.sparse_search(name, sparse, 10, readable_by(groups))
    urls = {r.id: r.payload["url"] for r in store.scroll(name, payload=["url"])}
    return [(urls[i], round(score, 5)) for i, score, _ in found]


@pytest.mark.parametrize("backend_kind", ["edge", "server"], indirect=True)
def test_staff_documents_do_not_change_what_a_public_reader_gets(store_on, tmp_path):
    store = store_on(tmp_path / "data")
    _collection(store, "mixed", {**{u: (t, "public") for u, t in PUBLIC.items()},
                                 **{u: (t, "staff") for u, t in STAFF.items()}})
    _collection(store, "public", {u: (t, "public") for u, t in PUBLIC.items()})
    query = sparse_query(QUERY)

    alone = _ranking(store, "public", query, None)
    assert [u for u, _ in alone][0] == "b.md"  # beta is the rarer word among the public documents
    # The collection-wide IDF (the store's own): staff documents make beta common, alpha wins.
    shared = _ranking(store, "mixed", query, ["public"])
    assert [u for u, _ in shared][0] != "b.md"

    mine = _ranking(store, "mixed", reader_sparse(store._backend, "mixed", query, ["public"]), ["public"])
    assert [u for u, _ in mine] == [u for u, _ in alone]
    for (_, got), (_, want) in zip(mine, alone):
        assert got == pytest.approx(want, rel=1e-4)  # the scores of a collection of what they may see
    # A reader who sees everything keeps the collection's statistics.
    assert reader_sparse(store._backend, "public", query, ["public"]) == query
    assert reader_sparse(store._backend, "mixed", query, None) == query


@pytest.mark.parametrize("backend_kind", ["edge"], indirect=True)
def test_hybrid_search_ranks_by_the_readers_statistics(store_on, tmp_path):
    store = store_on(tmp_path / "data")
    _collection(store, "mixed", {**{u: (t, "public") for u, t in PUBLIC.items()},
                                 **{u: (t, "staff") for u, t in STAFF.items()}})
    _collection(store, "public", {u: (t, "public") for u, t in PUBLIC.items()})
    hits = {name: {h.payload["url"]: round(h.score, 6) for h in store.search_hybrid(
        name, [1.0, 0.0], sparse_query(QUERY), 3, groups=["public"])} for name in ("mixed", "public")}
    assert hits["mixed"] == hits["public"]  # each passage's fused score (ties may come in either order)
