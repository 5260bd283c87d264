"""The ingest progress line (CLI and the Ingest page): counts agree with their noun in both languages."""

from __future__ import annotations

from rag.i18n import language
from rag.ingest.report import IngestProgress
from rag.ingest.progress import format_progress


def progress(docs_done, docs_total, chunks):
    return IngestProgress(docs_done, docs_total, chunks, rate=0.0, eta=None, current="", phase="reading")


def test_one_chunk_and_one_document_are_singular():
    with language("fr"):
        assert format_progress(progress(1, 1, 1)) == "1/1 document, 1 morceau"
        assert format_progress(progress(1, 12, 2)) == "1/12 documents, 2 morceaux"
        assert format_progress(progress(1, None, 0)) == "1 document, 0 morceau"
    with language("en"):
        assert format_progress(progress(1, 1, 1)) == "1/1 document, 1 chunk"
        assert format_progress(progress(2, None, 0)) == "2 documents, 0 chunks"


def test_the_ingest_summary_agrees_with_its_counts():
    from rag.ingest.report import IngestReport

    one = IngestReport("demo", "markdown", "embedded:multilingual-e5-small", new=1, chunks_written=1, verified=1, seconds=0.4)
    with language("fr"):
        lines = one.summary().splitlines()
    assert lines[0].endswith("; 1 morceau écrit en 0,4 s.")
    assert lines[1] == "1 point stocké vérifié (taille du vecteur, non nul)."
    with language("en"):
        assert IngestReport("demo", "markdown", "m", chunks_written=3, verified=3).summary().splitlines() == [
            "Collection 'demo' (markdown, m): 0 new, 0 changed, 0 unchanged, 0 failed, 0 pruned; 3 chunks written in 0.0 s.",
            "Verified 3 stored points (vector size and non-zero).",
        ]


def test_the_phase_of_a_document_reads_in_french():
    p = IngestProgress(0, 2, 0, rate=0.0, eta=None, current="Kerberos", phase="embedding")
    with language("fr"):
        line = format_progress(p)
    assert line.startswith("0/2 documents, 0 morceau | ") and line.endswith(" : Kerberos")


def test_a_rate_under_two_is_singular_in_french():
    def rate(value):
        return format_progress(IngestProgress(1, 3, 4, rate=value, eta=None, current="", phase="embedding"))

    with language("fr"):
        assert "0,8 morceau/s" in rate(0.8) and "1,0 morceau/s" in rate(1.0)
        assert "2,5 morceaux/s" in rate(2.5)
    with language("en"):
        assert "0.8 chunks/s" in rate(0.8) and "2.5 chunks/s" in rate(2.5)


def test_the_rate_agrees_with_the_number_as_written():
    def rate(value):
        return format_progress(IngestProgress(1, 3, 4, rate=value, eta=None, current="", phase="embedding"))

    with language("fr"):
        assert "2,0 morceaux/s" in rate(1.96)
    with language("en"):
        assert "1.0 chunk/s" in rate(1.04)


def test_one_long_document_moves_the_bar_passage_by_passage_with_the_time_left():
    from rag.ingest.run_progress import time_left

    def at(done):
        return IngestProgress(0, 1, done, rate=0.8, eta=time_left(10.0, 0, 1, (done, 22), 0.8), current="Kerberos",
                              phase="embedding", passages_done=done, passages_total=22)

    fractions = [at(done).fraction for done in (0, 4, 12, 22)]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    with language("fr"):
        line = format_progress(at(12))
    assert line.startswith("0/1 document, 12 morceaux") and line.endswith("Kerberos — 12 passages sur 22")
    assert "environ 12 s restant" in line  # 10 passages left at 0.8 a second
    with language("en"):
        assert format_progress(at(1)).endswith("Kerberos — 1/22 passages")


def test_the_time_left_counts_the_documents_still_to_come():
    from rag.ingest.run_progress import time_left

    assert time_left(30.0, 3, 6, (0, 0), 1.0) == 30.0  # three done in 30 s, three to come
    assert time_left(10.0, 0, 3, (5, 10), 1.0) == 5.0 + 2 * 15.0  # the first one's projected 15 s, twice more
    assert time_left(10.0, 0, 3, (0, 0), 0.0) is None  # nothing measured yet: no guess


def test_each_embedding_call_lasts_a_couple_of_seconds_at_the_rate_so_far():
    from rag.ingest.embedding_batches import EMBED_BATCH, FIRST_BATCH, batch_size

    assert batch_size(0.0) == FIRST_BATCH  # nothing measured: a small first call
    assert batch_size(0.4) == 1 and batch_size(2.0) == 4  # a busy machine: the bar moves every few seconds
    assert batch_size(500.0) == EMBED_BATCH  # a fast server: full batches
