"""Question sets kept under the data folder: added to from the journal, edited, saved in the contract's format."""

from __future__ import annotations

import json
import stat

import pytest

from rag.demo import QUESTIONS_PATH
from rag.errors import QuestionSetError
from rag.evaluate.question_sets import add_question, load_set, save_set, saved_sets, set_path
from rag.evaluate.questions import load_questions
from tests.fixtures.disk import full_disk


def test_adding_to_the_demo_set_copies_it_and_leaves_the_shipped_file_alone(tmp_path):
    shipped = QUESTIONS_PATH.read_bytes()
    off = add_question(tmp_path, "demo", "Comment configurer Veeam ?", in_base=False, category="journal")
    on = add_question(tmp_path, "demo", "Que fait klist purge ?", in_base=True, expected_source="kerberos-klist.md",
                      expected_answer="vide le cache des tickets")
    assert QUESTIONS_PATH.read_bytes() == shipped
    questions = load_questions(set_path(tmp_path, "demo"))  # the loader of hand-written sets reads it
    assert len(questions) == len(load_questions(QUESTIONS_PATH)) + 2
    assert questions[-2:] == [off, on] and (off.id, on.id) == ("journal-01", "journal-02")
    assert on.expected_source == "kerberos-klist.md" and not off.in_base and off.expected_source is None
    assert saved_sets(tmp_path) == ["demo"]


def test_a_question_already_there_is_refused(tmp_path):
    add_question(tmp_path, "mine", "Comment configurer Veeam ?", in_base=False)
    with pytest.raises(QuestionSetError, match="already in the set 'mine'"):
        add_question(tmp_path, "mine", "  comment configurer  VEEAM ? ", in_base=False)


def test_saving_writes_the_contract_format_and_checks_it(tmp_path):
    questions = load_set(tmp_path, "demo")[:2]
    path = save_set(tmp_path, "two", questions)
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert set(first) <= {"id", "question", "expected_source", "expected_answer", "in_base", "category", "also_in"}
    assert load_questions(path) == questions
    with pytest.raises(QuestionSetError):  # a duplicate id is refused as on loading
        save_set(tmp_path, "two", [questions[0], questions[0]])
    assert load_questions(path) == questions  # the previous version is whole


def test_a_hand_written_set_in_the_folder_loads(tmp_path):
    (tmp_path / "question_sets").mkdir()
    (tmp_path / "question_sets" / "hand.jsonl").write_text(
        '{"id": 1, "question": "Qu\'est-ce que LAPS ?", "in_base": true, "expected_source": "windows-laps.md"}\n',
        encoding="utf-8")
    assert [q.id for q in load_set(tmp_path, "hand")] == ["1"]


@pytest.mark.parametrize("name", ["../evil", "", ".hidden", "a/b"])
def test_a_set_name_cannot_leave_the_folder(tmp_path, name):
    with pytest.raises(QuestionSetError):
        set_path(tmp_path, name)


def test_an_edited_table_saves_as_a_set(tmp_path):
    from rag.evaluate.question_sets import questions_from_rows, rows_of

    rows = rows_of(load_set(tmp_path, "demo")[:3])
    rows[0]["category"] = "kerberos"                       # a category renamed
    rows[1]["question"] = ""                               # a question deleted (its row emptied)
    del rows[2]
    rows.append({"question": "Qu'est-ce que Veeam ?", "in_base": False, "id": None, "category": float("nan")})
    saved = questions_from_rows(rows, "mine")
    assert [q.question for q in saved][1:] == ["Qu'est-ce que Veeam ?"] and saved[0].category == "kerberos"
    assert saved[1].id == "q-02" and saved[1].category is None
    save_set(tmp_path, "mine", saved)
    assert load_set(tmp_path, "mine") == saved


def test_an_edited_row_with_a_problem_is_named(tmp_path):
    from rag.evaluate.question_sets import questions_from_rows

    with pytest.raises(QuestionSetError, match="line 2"):
        questions_from_rows([{"id": "a", "question": "Q1 ?", "in_base": False},
                             {"id": "b", "question": "Q2 ?", "in_base": True}], "mine")  # no expected article


def test_a_save_that_cannot_be_written_leaves_the_previous_set_whole_and_owner_only(tmp_path):
    questions = load_set(tmp_path, "demo")[:3]
    path = save_set(tmp_path, "mine", questions)
    before = path.read_bytes()
    with full_disk(), pytest.raises(QuestionSetError, match="could not be saved to .*mine.jsonl.*previous version is kept"):
        save_set(tmp_path, "mine", questions[:1])
    assert path.read_bytes() == before and load_set(tmp_path, "mine") == questions
    assert [p.name for p in path.parent.iterdir()] == ["mine.jsonl"]  # no temporary file left
    # Readers' questions reach the sets from the journal: other accounts read neither.
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
