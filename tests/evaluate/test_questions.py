"""Question sets: the contract's JSONL, and CSV as exported by a spreadsheet."""

from __future__ import annotations

import json

import pytest

from rag.errors import QuestionSetError
from rag.evaluate.questions import Question, load_questions, parse_jsonl, questions_from_bytes

GOOD = [
    {"id": "q1", "question": "Comment activer X ?", "expected_source": "a.md",
     "expected_answer": "Set-X -On", "in_base": True, "category": "commande", "also_in": ["b.md"]},
    {"id": "q2", "question": "Comment configurer le SSO Okta ?", "expected_source": None, "in_base": False},
]


def write_jsonl(path, objs, extra_lines=()):
    lines = [json.dumps(o, ensure_ascii=False) for o in objs] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_loads_the_contract_fields(tmp_path):
    questions = load_questions(write_jsonl(tmp_path / "q.jsonl", GOOD))
    assert [q.id for q in questions] == ["q1", "q2"]
    first = questions[0]
    assert first.in_base and first.expected_source == "a.md" and first.also_in == ("b.md",)
    assert first.accepted_urls == {"a.md", "b.md"}
    assert first.to_dict()["also_in"] == ["b.md"]
    assert questions[1].expected_source is None and not questions[1].in_base
    assert questions[1].line == 2


def test_loads_the_real_cnil_question_set(corpora):
    questions = load_questions(corpora / "piaf-cnil" / "cnil_questions.jsonl")
    assert len(questions) == 21
    assert all(q.in_base and q.expected_source for q in questions)
    assert any(q.also_in for q in questions)


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"id": "x", "question": "Q ?", "in_base": true, "expected_source": "a.md"', "bad JSON"),
        ('{"id": "x", "in_base": false}', "missing field 'question'"),
        ('{"id": "x", "question": "Q ?"}', "missing field 'in_base'"),
        ('{"id": "x", "question": "Q ?", "in_base": "yes"}', "'in_base' must be true or false"),
        ('{"id": "x", "question": "Q ?", "in_base": true}', "in_base is true but expected_source is missing"),
        ('{"id": "x", "question": "Q ?", "in_base": false, "also_in": "b.md"}', "'also_in' must be a list"),
        ('["not", "an", "object"]', "expected a JSON object"),
        ('{"id": "q1", "question": "Q ?", "in_base": false}', "duplicate id 'q1' (already used on line 1)"),
    ],
)
def test_a_bad_line_is_reported_with_its_number(tmp_path, line, message):
    path = write_jsonl(tmp_path / "q.jsonl", GOOD[:1], ["", line])
    with pytest.raises(QuestionSetError) as info:
        load_questions(path)
    assert f"line 3: {message}" in str(info.value)
    assert str(path) in str(info.value)


def test_every_problem_is_reported_at_once():
    text = '{"id": 1, "question": "Q ?", "in_base": false}\n{oops\n{"question": "R ?", "in_base": false}\n'
    with pytest.raises(QuestionSetError) as info:
        parse_jsonl(text, "set.jsonl")
    assert info.value.problems == ["line 2: bad JSON (Expecting property name enclosed in double quotes at column 2)",
                                   "line 3: missing field 'id'"]
    assert "2 problems" in str(info.value)


def test_numeric_ids_are_accepted_as_text():
    assert parse_jsonl('{"id": 7, "question": "Q ?", "in_base": false}')[0].id == "7"


def test_empty_file_and_missing_file_are_clear(tmp_path):
    (tmp_path / "e.jsonl").write_text("\n\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match="empty"):
        load_questions(tmp_path / "e.jsonl")
    with pytest.raises(QuestionSetError, match="no such file"):
        load_questions(tmp_path / "absent.jsonl")


def test_bom_is_accepted_and_bad_encoding_is_named(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD[1]).encode())
    assert load_questions(path)[0].id == "q2"
    path.write_bytes(json.dumps(GOOD[1]).encode() + b'\n{"id": "\xe9"}\n')
    with pytest.raises(QuestionSetError, match="line 2 is not UTF-8"):
        load_questions(path)


def test_csv_from_a_spreadsheet(tmp_path):
    # A French spreadsheet exports with ';', a BOM and oui/non.
    text = (
        "id;question;expected_source;expected_answer;in_base;category;also_in\n"
        'q1;"Comment activer X ; vite ?";a.md;Set-X -On;oui;commande;"b.md;c.md"\n'
        "q2;Et le SSO Okta ?;;;non;;\n"
        'q3;Troisième ?;a.md;;1;;["d.md"]\n'
        "\n"
        "q4;Quatrième ?;;;FALSE;;\n"
    )
    path = tmp_path / "q.csv"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    questions = load_questions(path)
    assert [q.id for q in questions] == ["q1", "q2", "q3", "q4"]
    assert questions[0] == Question("q1", "Comment activer X ; vite ?", True, "a.md", "Set-X -On",
                                    "commande", ("b.md", "c.md"))
    assert questions[1].in_base is False and questions[1].expected_source is None
    assert questions[2].also_in == ("d.md",) and questions[2].in_base
    assert questions[3].line == 6


def test_csv_with_commas_and_missing_columns(tmp_path):
    path = tmp_path / "q.csv"
    path.write_text("id,question,in_base,expected_source\nq1,Q ?,true,a.md\n", encoding="utf-8")
    assert load_questions(path)[0].expected_source == "a.md"
    path.write_text("id,question\nq1,Q ?\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match="line 1: the header row lacks the column in_base;"):
        load_questions(path)


def test_csv_bad_rows_name_their_line(tmp_path):
    path = tmp_path / "q.csv"
    path.write_text(
        "id,question,in_base,expected_source\nq1,Q ?,peut-être,\nq2,R ?,true,\nq3,S ?,,\nq1,T ?,0,\n",
        encoding="utf-8",
    )
    with pytest.raises(QuestionSetError) as info:
        load_questions(path)
    problems = info.value.problems
    assert problems[0].startswith("line 2: 'in_base' must be true/false")
    assert problems[1].startswith("line 3: in_base is true but expected_source is missing")
    assert problems[2] == "line 4: missing field 'in_base' (true or false)"
    assert len(problems) == 3  # q1 on line 5 is fine: the first q1 was rejected


def test_uploaded_question_sets_are_parsed_or_refused_clearly():
    csv = b"id,question,expected_source,in_base\nq1,Quoi ?,a.md,true\nq2,Hors sujet ?,,false\n"
    assert [q.id for q in questions_from_bytes(csv, "set.csv")] == ["q1", "q2"]
    jsonl = b'{"id": "q1", "question": "Quoi ?", "in_base": false}\n'
    assert questions_from_bytes(jsonl, "set.jsonl")[0].in_base is False
    with pytest.raises(QuestionSetError):
        questions_from_bytes("id;question\n1;é".encode("cp1252"), "set.csv")


def test_a_french_reader_reads_every_problem_in_french():
    from rag.i18n import language

    text = ('{"question": "Q ?", "in_base": false}\n'
            '{"id": "b", "question": "R ?", "in_base": true}\n'
            '{"id": "c", "question": "S ?", "in_base": false, "expected_source": "a.md"}\n')
    with language("fr"), pytest.raises(QuestionSetError) as info:
        parse_jsonl(text)
    assert info.value.problems == [
        "ligne 1 : champ 'id' manquant",
        "ligne 2 : in_base vaut true mais expected_source manque : donnez l'url de l'article qui répond",
        "ligne 3 : in_base vaut false mais expected_source est renseigné : une question hors sujet n'a pas de source "
        "(mettez in_base à true, ou videz expected_source)",
    ]
    assert str(info.value).startswith("jeu de questions : 3 problèmes")
    with language("fr"), pytest.raises(QuestionSetError) as info:
        questions_from_bytes(b"id,question,in_base\nx,Q ?,\n", "set.csv")
    assert info.value.problems == ["ligne 2 : champ 'in_base' manquant (true ou false)"]


def test_a_json_problem_is_said_in_french_to_a_french_editor():
    """"JSON invalide (Expecting ',' delimiter à la colonne 17)": json's English inside French."""
    from rag.i18n import language

    with language("fr"), pytest.raises(QuestionSetError) as info:
        parse_jsonl('{"question": "x"\n{oops\n{"id": "a" "question": "Q ?"}\n', "set.jsonl")
    assert info.value.problems == ["ligne 1 : JSON invalide (une virgule manque à la colonne 17)",
                                   "ligne 2 : JSON invalide (un nom de champ entre guillemets doubles est attendu à la colonne 2)",
                                   "ligne 3 : JSON invalide (une virgule manque à la colonne 12)"]
