"""`[n]` in a finished answer: an in-page link to its turn's source [n], and nothing else a link."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

import rag.i18n
from ui.present.answer import answer_markdown, citation_anchor, link_citations

ANCHORS = {1: "cite-blog-t0-1", 2: "cite-blog-t0-2"}


@pytest.fixture(autouse=True)
def english():
    with rag.i18n.language("en"):
        yield


def destinations(markdown: str) -> list[str]:
    return re.findall(r"\]\(([^\s)]*)", markdown)


def test_cited_numbers_become_links_to_their_anchor_and_invalid_ones_stay_text():
    shown = link_citations("Le KDC [1] et la purge [2]; pas [9].", ANCHORS)
    assert shown == ('Le KDC [\\[1\\]](#cite-blog-t0-1 "Go to source [1]") et la purge '
                     '[\\[2\\]](#cite-blog-t0-2 "Go to source [2]"); pas [9].')


def test_groups_and_ranges_become_one_link_a_number():
    assert destinations(link_citations("Voir [1, 2] et [1-2].", ANCHORS)) == ["#cite-blog-t0-1", "#cite-blog-t0-2"] * 2
    # One number of a group names no passage: it stays text beside the links of the others.
    shown = link_citations("Voir [2; 7].", ANCHORS)
    assert destinations(shown) == ["#cite-blog-t0-2"] and shown.endswith("\\[7\\].")
    assert link_citations("Voir [7, 8].", ANCHORS) == "Voir [7, 8]."


def test_code_spans_code_blocks_and_escaped_brackets_are_left_alone():
    text = "Lancez `klist [1]` puis :\n\n```\nargs [2]\n```\n\n~~~\n[1]\n~~~\nlittéral \\[1] et cité [1]"
    shown = link_citations(text, ANCHORS)
    assert destinations(shown) == ["#cite-blog-t0-1"]
    assert shown.startswith("Lancez `klist [1]` puis :\n\n```\nargs [2]\n```\n\n~~~\n[1]\n~~~\nlittéral \\[1] et cité [")


def test_no_anchor_no_link():
    assert link_citations("Voir [1].", {}) == "Voir [1]."


def test_anchors_differ_by_turn_and_collection_and_hold_only_safe_characters():
    anchors = {citation_anchor(c, turn, 1) for c in ("blog", "Démo RAG", "x\" onclick=\"y") for turn in (0, 1)}
    assert len(anchors) == 6
    assert all(re.fullmatch(r"cite-[a-z0-9-]+", a) for a in anchors)
    assert citation_anchor("", 3, 2) == "cite-t3-2"


def test_a_streamed_or_unplaced_answer_has_no_link():
    result = SimpleNamespace(answer="Le KDC [1].", sources=[SimpleNamespace(n=1)], collection="blog")
    assert "](" not in answer_markdown(result)  # no turn: no anchor to point at
    assert destinations(answer_markdown(result, turn=4)) == ["#cite-blog-t4-1"]
