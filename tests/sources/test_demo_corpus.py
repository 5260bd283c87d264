"""The demo corpus and its question set ship with the product: they must stay coherent.

A user who ingests rag/demo/articles and runs `rag eval --questions rag/demo/questions.jsonl`
gets meaningful numbers only if every expected source exists under the url the folder loader
gives it, and every expected answer really is in that document.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from rag.demo import DEMO_DIR, QUESTIONS_PATH
from rag.evaluate.metrics import contains_answer
from rag.textnorm import normalize_answer

FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
FENCE = re.compile(r"^```", re.M)
TABLE_RULE = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+\s*$", re.M)
# Keys a folder loader or a static-site generator could use to give a page another address.
ADDRESS_KEYS = {"url", "slug", "permalink", "link", "path"}
QUESTION_FIELDS = {"id", "question", "expected_source", "expected_answer", "in_base", "category", "also_in"}


def _articles() -> list[Path]:
    return sorted(DEMO_DIR.glob("*.md"))


def _split(path: Path) -> tuple[dict, str]:
    text = path.read_text(encoding="utf-8")
    match = FRONT_MATTER.match(text)
    assert match, f"{path.name}: no YAML front matter"
    return yaml.safe_load(match.group(1)) or {}, text[match.end():]


def _questions() -> list[dict]:
    rows = []
    for number, line in enumerate(QUESTIONS_PATH.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            pytest.fail(f"questions.jsonl line {number} is not valid JSON: {exc}")
    return rows


def test_the_corpus_has_about_a_dozen_articles_of_blog_size():
    articles = _articles()
    assert 10 <= len(articles) <= 16, [p.name for p in articles]
    # The folder loader uses the relative path as url: flat, stable, readable names.
    assert all(p.parent == DEMO_DIR for p in DEMO_DIR.rglob("*") if p.is_file())
    for path in articles:
        size = path.stat().st_size
        assert 3000 <= size <= 8192, f"{path.name} is {size} bytes"
        assert re.fullmatch(r"[a-z0-9-]+\.md", path.name), path.name


def test_every_article_has_a_title_and_sections_and_keeps_its_file_name_as_url():
    for path in _articles():
        meta, body = _split(path)
        assert isinstance(meta.get("title"), str) and meta["title"].strip(), f"{path.name}: no title"
        assert not ADDRESS_KEYS & set(meta), f"{path.name}: front matter would change its url"
        assert len(re.findall(r"^## \S", body, re.M)) >= 3, f"{path.name}: fewer than 3 ## sections"
        assert len(FENCE.findall(body)) % 2 == 0, f"{path.name}: an unclosed code fence"


def test_the_corpus_has_the_structures_that_chunkers_must_respect():
    bodies = [_split(path)[1] for path in _articles()]
    tables = sum(len(TABLE_RULE.findall(body)) for body in bodies)
    fences = sum(len(FENCE.findall(body)) for body in bodies) // 2
    assert tables >= 2
    assert fences >= 10
    languages = {m for body in bodies for m in re.findall(r"^```(\w+)", body, re.M)}
    assert {"powershell", "cmd", "text"} <= languages
    assert any(re.search(r"^### \S", body, re.M) for body in bodies)


def test_code_blocks_are_explained_in_the_paragraph_that_follows():
    # The corpus shows what a blind splitter costs: a command whose meaning is in the next paragraph.
    explained = total = 0
    for path in _articles():
        _, body = _split(path)
        for block in re.finditer(r"^```\w*\n.*?^```\n", body, re.M | re.S):
            total += 1
            following = body[block.end():].lstrip("\n").split("\n\n", 1)[0]
            if following and not following.startswith(("#", "```", "|")):
                explained += 1
    assert total and explained / total >= 0.8, f"{explained} of {total} code blocks are followed by prose"


def test_question_lines_follow_the_contract():
    rows = _questions()
    ids = [row.get("id") for row in rows]
    assert len(ids) == len(set(ids)), "question ids must be unique"
    for row in rows:
        assert set(row) <= QUESTION_FIELDS, f"{row.get('id')}: unknown fields {set(row) - QUESTION_FIELDS}"
        assert isinstance(row["id"], str) and row["id"]
        assert isinstance(row["question"], str) and row["question"].strip()
        assert isinstance(row["in_base"], bool)
        assert isinstance(row.get("category"), str)
        if row["in_base"]:
            assert isinstance(row["expected_source"], str)
            assert isinstance(row["expected_answer"], str) and row["expected_answer"].strip()
        else:
            assert row["expected_source"] is None and row["expected_answer"] is None
            assert "also_in" not in row


def test_the_question_set_has_enough_questions_of_each_kind():
    rows = _questions()
    in_base = [row for row in rows if row["in_base"]]
    out_of_base = [row for row in rows if not row["in_base"]]
    assert len(in_base) >= 25
    assert len(out_of_base) >= 12
    categories = {row["category"] for row in in_base}
    assert {"identifier", "code_then_explanation", "table", "paraphrase"} <= categories
    assert {row["category"] for row in out_of_base} == {"near_domain_out", "off_topic"}
    # Every article is the expected source of at least one question.
    assert {row["expected_source"] for row in in_base} == {p.name for p in _articles()}


def test_every_expected_answer_is_in_its_expected_document():
    names = {p.name for p in _articles()}
    for row in _questions():
        if not row["in_base"]:
            continue
        assert row["expected_source"] in names, f"{row['id']}: {row['expected_source']} is not in the corpus"
        text = (DEMO_DIR / row["expected_source"]).read_text(encoding="utf-8")
        assert contains_answer(row["expected_answer"], [text]), (
            f"{row['id']}: {row['expected_answer']!r} is not in {row['expected_source']}"
        )
        for url in row.get("also_in", []):
            assert url in names and url != row["expected_source"], f"{row['id']}: bad also_in {url}"


@pytest.mark.parametrize(
    ("copied", "original"),
    [
        ("L\u2019option \u00ab\u00a0klist\u00a0purge\u00a0\u00bb", "l'option \" klist purge \""),
        ("Windows\u00a0Server\u202f2012 \u2013 48000", "windows server 2012 - 48000"),
        ("KDC_ERR_ETYPE_NOSUPP \u2014 0xE", "kdc_err_etype_nosupp - 0xe"),
        ("\u201cAES\u201d   \n\t uniquement", '"aes" uniquement'),
        ("l\u02bcaudience \u2010 l\u00b4horloge", "l'audience - l'horloge"),
        ("\uff2d\uff41\uff58\uff34\uff4f\uff4b\uff45\uff4e\uff33\uff49\uff5a\uff45", "maxtokensize"),
    ],
)
def test_answer_normalisation_ignores_typography_case_and_spacing(copied, original):
    assert normalize_answer(copied) == normalize_answer(original)


def test_an_empty_answer_never_counts_as_found():
    assert not contains_answer("   ", ["klist purge"])
    assert contains_answer("KLIST PURGE", ["Lancez `klist  purge`."])
