"""An upload whose name cannot be a file's (nothing before `.md`, or longer than a file system
allows) is named with its reason; the other files of the batch are read."""

from __future__ import annotations

from rag.documents import Document, Problem
from rag.i18n import language
from rag.sources.uploads import MAX_NAME_BYTES, documents_from_uploads

LONG = "Procédure de récupération après défaillance d'un contrôleur " + "étape vérifiée, " * 11 + "fine.md"
TEXT = b"# Titre\n\nDu texte.\n"


def test_bad_names_are_problems_and_the_others_are_documents():
    assert len(LONG.encode()) == 282
    items = documents_from_uploads([("ok.md", TEXT), (LONG, TEXT), (".md", TEXT), ("..md", TEXT)])
    documents = [i.url for i in items if isinstance(i, Document)]
    problems = {i.item: i.message for i in items if isinstance(i, Problem)}
    assert documents == ["ok.md"]
    assert set(problems) == {LONG, ".md", "..md"}
    assert f"282 bytes, longer than the {MAX_NAME_BYTES}" in problems[LONG]
    assert "no name before its extension" in problems[".md"]


def test_a_batch_of_only_bad_names_is_only_problems_in_french():
    with language("fr"):
        (problem,) = documents_from_uploads([(".md", TEXT)])
    assert isinstance(problem, Problem) and "n'a pas de nom avant son extension" in problem.message


def test_a_name_at_the_limit_is_read():
    name = "é" * ((MAX_NAME_BYTES - 3) // 2) + ".md"
    (document,) = documents_from_uploads([(name, TEXT)])
    assert isinstance(document, Document) and document.url == name


def test_names_differing_only_by_case_are_two_documents_under_their_own_names():
    """Two help pages CUMSUM.html and cumsum.html (a block and a function) keep their names, which
    a question set's expected sources name; only a name sent twice gets "-2"."""
    items = documents_from_uploads([("CUMSUM.md", b"# CUMSUM\n\nLe bloc.\n"), ("cumsum.md", b"# cumsum\n\nLa fonction.\n"),
                                    ("cumsum.md", b"# cumsum encore\n\nUne autre.\n")])
    by_name = {i.url: i for i in items if isinstance(i, Document)}
    assert set(by_name) == {"CUMSUM.md", "cumsum.md", "cumsum-2.md"}
    assert by_name["cumsum.md"].title == "cumsum" and by_name["CUMSUM.md"].title == "CUMSUM"
    assert all(d.doc_id == d.url for d in by_name.values())
