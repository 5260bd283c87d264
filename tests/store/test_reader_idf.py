"""BM25's statistics count only what the reader may see: the store counts each query word's IDF
among the points the reader's groups allow, so whether staff documents use a word changes neither
the order nor the scores of the public passages a public reader gets, on both backends."""

from __future__ import annotations

import pytest

from rag.store.filters import readable_by
from rag.store.points import PointRecord, point_id
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


def _ranking(store, name: str, groups, corpus=None) -> list[tuple[str, float]]:
    found = store._backend.sparse_search(name, sparse_query(QUERY), 10, readable_by(groups), corpus=corpus)
    urls = {r.id: r.payload["url"] for r in store.scroll(name, payload=["url"])}
    return [(urls[i], round(score, 5)) for i, score, _ in found]


@pytest.mark.parametrize("backend_kind", ["edge", "server"], indirect=True)
def test_staff_documents_do_not_change_what_a_public_reader_gets(store_on, tmp_path):
    store = store_on(tmp_path / "data")
    _collection(store, "mixed", {**{u: (t, "public") for u, t in PUBLIC.items()},
                                 **{u: (t, "staff") for u, t in STAFF.items()}})
    _collection(store, "public", {u: (t, "public") for u, t in PUBLIC.items()})

    alone = _ranking(store, "public", None)
    assert [u for u, _ in alone][0] == "b.md"  # beta is the rarer word among the public documents
    # The collection-wide IDF: staff documents make beta common, alpha wins.
    assert [u for u, _ in _ranking(store, "mixed", ["public"])][0] != "b.md"

    mine = _ranking(store, "mixed", ["public"], corpus=readable_by(["public"]))
    assert [u for u, _ in mine] == [u for u, _ in alone]
    for (_, got), (_, want) in zip(mine, alone):
        assert got == pytest.approx(want, rel=1e-4)  # the scores of a collection of what they may see


@pytest.mark.parametrize("backend_kind", ["edge", "server"], indirect=True)
def test_hybrid_search_ranks_by_the_readers_statistics(store_on, tmp_path):
    store = store_on(tmp_path / "data")
    _collection(store, "mixed", {**{u: (t, "public") for u, t in PUBLIC.items()},
                                 **{u: (t, "staff") for u, t in STAFF.items()}})
    _collection(store, "public", {u: (t, "public") for u, t in PUBLIC.items()})
    hits = {name: [(h.payload["url"], round(h.score, 6)) for h in store.search_hybrid(
        name, [1.0, 0.0], sparse_query(QUERY), 3, groups=["public"])] for name in ("mixed", "public")}
    assert hits["mixed"] == hits["public"]


# Two public articles the question's words score alike, and 25 staff notes that use either
# another word or one of the question's: a public reader must not be able to tell which.
ARTICLES = {"grenadine.md": ("Le sirop de grenadine", [1.0, 0.0]), "clementine.md": ("Le fruit de clementine", [1.0, 0.1])}


def _with_staff_notes(store, name: str, word: str, form: str) -> None:
    store.ensure_collection(name, "m", 2, "markdown", None)
    records = [PointRecord(id=point_id(url, 0), dense=vector, sparse=sparse_vector(text),
                           payload={"url": url, "order": 0, "access": ["public"], "text": text})
               for url, (text, vector) in ARTICLES.items()]
    records += [PointRecord(id=point_id(f"note-{i}.md", 0), dense=[0.0, 1.0], sparse=sparse_vector(form.format(i=i, word=word)),
                            payload={"url": f"note-{i}.md", "order": 0, "access": ["staff"], "text": word})
                for i in range(25)]
    store.upsert(name, records)
    store.commit(name)


@pytest.mark.parametrize("form", ["{word}", "Note {i} : {word}"])
@pytest.mark.parametrize("backend_kind", ["edge", "server"], indirect=True)
def test_what_hidden_notes_say_never_reorders_a_public_readers_articles(store_on, tmp_path, form):
    store = store_on(tmp_path / "data")
    _with_staff_notes(store, "confidential", "confidentiel", form)
    _with_staff_notes(store, "syrup", "grenadine", form)
    question = sparse_query("grenadine ou clementine ?")
    got = {name: [(h.payload["url"], h.score) for h in store.search_hybrid(
        name, [1.0, 0.05], question, 2, groups=["public"])] for name in ("confidential", "syrup")}
    assert got["confidential"] == got["syrup"]  # the same order and the same fused scores
    assert {url for url, _ in got["syrup"]} == set(ARTICLES)
