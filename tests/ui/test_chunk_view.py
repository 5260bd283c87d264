import rag.i18n
from ui.present.chunks import render_html, segments
from rag.chunking.base import Chunk


def chunk(i, start, end, text):
    return Chunk(index=i, start=start, end=end, text=text[start:end])


def test_segments_mark_overlap_and_cover_the_whole_text():
    text = "abcdefghij"
    chunks = [chunk(0, 0, 6, text), chunk(1, 4, 10, text)]
    segs = segments(len(text), chunks)
    assert [(s.start, s.end, s.chunks) for s in segs] == [(0, 4, (0,)), (4, 6, (0, 1)), (6, 10, (1,))]
    assert "".join(text[s.start : s.end] for s in segs) == text


def test_gap_between_chunks_is_reported_as_uncovered():
    text = "aaaa    bbbb"
    segs = segments(len(text), [chunk(0, 0, 4, text), chunk(1, 8, 12, text)])
    assert (4, 8, ()) in [(s.start, s.end, s.chunks) for s in segs]


def test_document_html_is_escaped():
    text = "<script>alert(1)</script> <img src=x onerror=alert(2)>"
    out = render_html(text, [chunk(0, 0, len(text), text)])
    assert "<script>" not in out and "<img" not in out
    assert "&lt;script&gt;" in out


def test_hover_titles_follow_the_page_language():
    text = "abcdefghij  "
    chunks = [chunk(0, 0, 6, text), chunk(1, 4, 10, text)]
    with rag.i18n.language("fr"):
        out = render_html(text, chunks)
    # Numbered from 1, as the chunk table's "#" and Ask's [1]: chunk index 0 is "morceau 1".
    assert 'title="morceau 1"' in out and 'title="chevauchement : morceaux 1, 2"' in out
    assert ">1</sup>" in out and ">2</sup>" in out and ">0</sup>" not in out
    assert 'title="dans aucun morceau"' in out and "chunk" not in out
