"""Citation parsing and the sources list."""

from __future__ import annotations

from rag.answer.citations import check_citations, parse_citations, source_line, sources
from rag.answer.retrieve import Passage


def passage(n: int, url: str = "https://blog.example/kerberos/", section: str = "Tickets") -> Passage:
    return Passage(n=n, score=0.9, title=f"Article {n}", section=section, url=url, text="…")


def test_every_written_form_of_citation_is_read():
    answer = "A [2]. B [1][3]. C [4, 6]. D [7-9]. E [10–11]. F [ 12 ; 13 ]."
    assert parse_citations(answer) == [2, 1, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13]


def test_each_number_once_in_order_of_first_appearance():
    assert parse_citations("x [3] y [1] z [3][1]") == [3, 1]


def test_brackets_in_code_indices_and_links_are_not_citations():
    answer = (
        "Run `arr[1]` then:\n```powershell\n$x = $list[2]\nklist [3]\n```\n"
        "See args[4] and [5](https://example.com) but this is one [6]."
    )
    assert parse_citations(answer) == [6]


def test_a_huge_range_counts_as_its_two_ends_only():
    assert parse_citations("[1-500]") == [1, 500]


def test_invalid_citations_are_numbers_that_match_no_extract_given():
    check = check_citations("Ok [1]. Made up [7]. Also [3].", available=[1, 2, 3])
    assert check.valid == [1, 3]
    assert check.invalid == [7]


def test_sources_are_the_cited_passages_only():
    given = [passage(1), passage(2), passage(3)]
    assert [p.n for p in sources(given, [3, 1])] == [3, 1]


def test_source_line_names_the_passage_and_its_url():
    web = passage(2, "https://blog.example/kerberos/")
    local = passage(3, "security/kerberos.md", section="")
    assert source_line(web) == "[2] Article 2 / Tickets - https://blog.example/kerberos/"
    assert source_line(local) == "[3] Article 3 - security/kerberos.md"
