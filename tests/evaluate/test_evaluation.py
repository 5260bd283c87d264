"""The evaluation runner, results files, history and comparison."""

from __future__ import annotations

import csv
import json
import re
from datetime import datetime

import pytest

from rag.config import Settings
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.errors import RagError
from rag.evaluate.report import format_comparison, format_summary
from rag.evaluate.compare import compare
from rag.evaluate.runner import replay, run_eval
from rag.evaluate.summary import CONTRACT_SUMMARY_KEYS
from rag.evaluate.runs import list_runs, load_run, new_run_dir, record_history, write_results
from rag.evaluate.questions import parse_jsonl
from rag.answer.retrieve import Passage
from rag.store.store import Store
from tests.evaluate.eval_corpus import QUESTIONS_JSONL, build_collection

QUESTION_KEYS = {"id", "question", "expected_source", "expected_answer", "in_base", "category", "also_in",
                 "top1_score", "rank", "retrieved", "refused"}


def passage(n, url, score, text=""):
    return Passage(n=n, score=score, title=url, section="", url=url, text=text)


HAND_MADE = {
    # in-base, expected first; its span is in the second passage
    "Q1 ?": [passage(1, "a.md", 0.91, "rien"), passage(2, "a.md", 0.88, "Lancez KLIST  purge.")],
    # in-base, found third through also_in; span missing
    "Q2 ?": [passage(1, "x.md", 0.86), passage(2, "y.md", 0.85), passage(3, "c.md", 0.84)],
    # in-base, missed
    "Q3 ?": [passage(1, "x.md", 0.80), passage(2, "y.md", 0.79)],
    # off-topic
    "O1 ?": [passage(1, "x.md", 0.78)],
    "O2 ?": [passage(1, "y.md", 0.84)],
}
HAND_SET = parse_jsonl(
    '{"id": "q1", "question": "Q1 ?", "expected_source": "a.md", "expected_answer": "klist purge", "in_base": true}\n'
    '{"id": "q2", "question": "Q2 ?", "expected_source": "b.md", "also_in": ["c.md"], '
    '"expected_answer": "pktmon", "in_base": true}\n'
    '{"id": "q3", "question": "Q3 ?", "expected_source": "b.md", "in_base": true}\n'
    '{"id": "o1", "question": "O1 ?", "in_base": false}\n'
    '{"id": "o2", "question": "O2 ?", "in_base": false}\n'
)


def hand_run(threshold=0.83, **context):
    seen = []
    results = replay(
        HAND_SET, lambda text: HAND_MADE[text], k=3, threshold=threshold,
        progress=lambda done, total, qid: seen.append((done, total, qid)),
        context={"collection": "blog", "model": "m", "strategy": "sections", **context},
    )
    return results, seen


def test_runner_matches_a_hand_count():
    results, seen = hand_run()
    assert seen == [(1, 5, "q1"), (2, 5, "q2"), (3, 5, "q3"), (4, 5, "o1"), (5, 5, "o2")]
    s = results["summary"]
    assert set(CONTRACT_SUMMARY_KEYS) <= set(s)
    assert (s["questions"], s["in_base"], s["out_of_base"], s["k"]) == (5, 3, 2, 3)
    assert s["hit_at_1"] == pytest.approx(1 / 3)
    assert s["hit_at_3"] == pytest.approx(2 / 3)
    assert s["mrr"] == pytest.approx((1 + 1 / 3) / 3)
    assert s["answer_in_context"] == pytest.approx(1 / 2)
    # threshold 0.83: q1 0.91, q2 0.86 accepted, q3 0.80 refused; o1 0.78 refused, o2 0.84 accepted
    assert s["in_base_accepted"] == pytest.approx(2 / 3)
    assert s["out_of_base_refused"] == pytest.approx(1 / 2)
    assert s["threshold"] == 0.83 and s["collection"] == "blog" and s["llm"] is False
    # top-1: in 0.91 0.86 0.80, out 0.78 0.84: best split 0.85 (2/3 accepted, 2/2 refused)
    assert s["suggested_threshold"] == pytest.approx(0.85)
    cal = s["calibration"]
    assert "balanced accuracy" in cal["criterion"]
    assert cal["overlap_sentence"].startswith("1 in-base question scores below the best off-topic one (0.84)")
    assert cal["at_suggested"]["out_of_base_refused"] == 1.0
    rows = {r["id"]: r for r in results["questions"]}
    assert QUESTION_KEYS <= set(rows["q1"])
    assert (rows["q1"]["rank"], rows["q2"]["rank"], rows["q3"]["rank"]) == (1, 3, None)
    assert rows["q1"]["top1_score"] == 0.91 and rows["q1"]["answer_in_context"] is True
    assert rows["q2"]["answer_in_context"] is False and rows["q3"]["answer_in_context"] is None
    assert rows["q3"]["refused"] and not rows["q2"]["refused"] and not rows["o2"]["refused"]
    assert rows["o1"]["rank"] is None and rows["o1"]["expected_source"] is None
    assert rows["q2"]["retrieved"][2] == {"url": "c.md", "score": 0.84}


def test_summary_reads_plainly():
    text = format_summary(hand_run()[0])
    assert "hit@1 33% (1 of 3 in-base questions find the right article first)" in text
    assert "hit@3 67% (2 of 3 find it in the first 3 passages)" in text
    assert "answer in context 50% (1 of 2 expected answers" in text
    assert "suggested threshold 0.850: 2 of 3 let through, 2 of 2 refused" in text
    assert "1 in-base question scores below the best off-topic one" in text


def test_a_french_summary_writes_decimals_with_a_comma_and_the_files_keep_dots(tmp_path):
    """The summary is for a French reader; results.json and results.csv are read back by programs."""
    from rag.i18n import language

    with language("fr"):
        results, _ = hand_run(mode="hybrid")
        text = format_summary(results)
        write_results(results, tmp_path / "run")
        compared = format_comparison(compare(results, results))
    # The retrieval mode in French words (it read 'recherche hybrid'); the files keep its name.
    assert "stratégie sections, recherche hybride, top 3)" in text and "recherche hybride, top 3)" in compared
    assert "seuil suggéré 0,850 : 2 sur 3 laissées passer" in text and "MRR 0,44 (1,00 = toujours premier" in text
    assert "hit@1 33\u00a0% (" in text and "(0,84)" in text
    # One question of three: French says "pour 1 sur 3 questions", never "1 questions".
    assert "(le bon article en premier pour 1 sur 3 questions du corpus)" in text
    assert "(la réponse attendue figure mot pour mot dans les passages pour 1 sur 2)" in text
    assert not re.search(r"\b1 (questions|réponses)\b", text)
    assert not re.search(r"\d\.\d", text)
    data = json.loads((tmp_path / "run" / "results.json").read_text(encoding="utf-8"))
    assert data["summary"]["suggested_threshold"] == 0.85 and data["summary"]["mode"] == "hybrid"
    raw = (tmp_path / "run" / "results.csv").read_text(encoding="utf-8-sig")
    assert "x.md (0.8600)" in raw and "0,86" not in raw


def test_results_json_and_csv(tmp_path):
    results, _ = hand_run()
    path = write_results(results, tmp_path / "run")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) == {"summary", "questions"}
    assert set(CONTRACT_SUMMARY_KEYS) <= set(data["summary"])
    raw = (tmp_path / "run" / "results.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(raw.decode("utf-8-sig").splitlines()))
    assert [r["id"] for r in rows] == ["q1", "q2", "q3", "o1", "o2"]
    assert rows[0]["rank"] == "1" and rows[2]["rank"] == "" and rows[2]["refused"] == "true"
    assert rows[1]["retrieved"].startswith("x.md (0.8600); y.md")


def test_history_lists_runs_newest_first_and_keeps_runs_written_elsewhere(tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    assert list_runs(settings) == []
    old, _ = hand_run(date="2024-01-01T10:00:00+00:00")
    first = new_run_dir(settings, "blog", now=datetime(2024, 1, 1, 10, 0, 0))
    assert first.name == "20240101-100000-blog"
    assert new_run_dir(settings, "blog", now=datetime(2024, 1, 1, 10, 0, 0)).name == "20240101-100000-blog-2"
    record_history(settings, write_results(old, first))
    new, _ = hand_run(date="2024-02-01T10:00:00+00:00", strategy="recursive")
    elsewhere = write_results(new, tmp_path / "mine")
    kept = record_history(settings, elsewhere)
    assert kept.parent.parent == settings.evals_dir and (kept.parent / "results.csv").exists()
    runs = list_runs(settings)
    assert [r["strategy"] for r in runs] == ["recursive", "sections"]
    assert runs[0]["collection"] == "blog" and runs[0]["hit_at_1"] == pytest.approx(1 / 3)
    assert load_run(runs[1]["path"])["summary"]["strategy"] == "sections"
    with pytest.raises(RagError, match="No results"):
        load_run(tmp_path / "absent")


def test_compare_metric_by_metric_and_question_by_question():
    a, _ = hand_run(collection="rec", strategy="recursive")
    b = json.loads(json.dumps(a))
    b["summary"].update(collection="sec", strategy="sections", hit_at_1=2 / 3)
    rows = {r["id"]: r for r in b["questions"]}
    rows["q1"]["rank"] = None  # lost by B
    rows["q3"]["rank"] = 2  # found by B only
    rows["q2"]["rank"] = 1  # moved up
    cmp = compare(a, b)
    assert cmp["metrics"]["hit_at_1"]["delta"] == pytest.approx(1 / 3)
    assert cmp["metrics"]["mrr"]["delta"] == 0
    assert cmp["found"] == {"a_only": ["q1"], "b_only": ["q3"], "both": ["q2"], "neither": []}
    assert [c["id"] for c in cmp["rank_changes"]] == ["q1", "q2", "q3"]
    assert cmp["same_question_set"] and cmp["a"]["strategy"] == "recursive"
    text = format_comparison(cmp)
    assert "hit@1: 33% -> 67% (+33 points)" in text
    assert "found by A only: q1" in text and "found by B only: q3" in text
    assert "q2: 3 -> 1" in text and "q1: 1 -> missed" in text
    # A saved threshold keeps its three decimals: 0.833 against 0.83 must not read "0.83 -> 0.83".
    a["summary"]["threshold"], b["summary"]["threshold"] = 0.833, 0.83
    assert "0.833 -> 0.830 (-0.003)" in format_comparison(compare(a, b))
    a["summary"]["threshold"] = 0.83
    b["summary"].update(collection="rec", date=datetime(2026, 11, 30, 13, 23, 9).astimezone().isoformat())
    a["summary"]["date"] = datetime(2026, 11, 29, 8, 5).astimezone().isoformat()  # as runs are stamped
    # Two runs of one collection are told apart by their dates, written as the runs table writes them.
    assert "A = rec (2026-11-29 08:05) (strategy recursive" in format_comparison(compare(a, b))
    assert "B = rec (2026-11-30 13:23) (strategy sections" in format_comparison(compare(a, b))
    from rag.i18n import language

    with language("fr"):  # French puts a space before a colon
        text = format_comparison(cmp)
    assert "  hit@1 : 33\u00a0% -> 67\u00a0% (+33 points)" in text and "  q1 : 1 -> manquée" in text


# -- on a tiny real index --------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_index(tmp_path_factory):
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"))
    store = Store(settings)
    embedder = EmbeddedEmbedder(threads=1)
    build_collection(store, embedder, "blog")
    yield store, embedder
    store.close()


def test_evaluate_on_a_real_index(tiny_index):
    store, embedder = tiny_index
    questions = parse_jsonl(QUESTIONS_JSONL)
    calls = []
    results = run_eval(questions, store, embedder, "blog", top_k=3, mode="dense", threshold=0.83,
                       progress=lambda *a: calls.append(a))
    s = results["summary"]
    assert len(calls) == 6 and calls[-1] == (6, 6, "o2")
    assert s["collection"] == "blog" and s["strategy"] == "sections" and s["mode"] == "dense"
    assert s["model"] == "embedded:multilingual-e5-small" and s["points"] >= 4
    assert s["hit_at_1"] == 1.0 and s["mrr"] == 1.0
    assert s["answer_in_context"] == 1.0
    rows = {r["id"]: r for r in results["questions"]}
    assert rows["q2"]["retrieved"][0]["url"] == "pktmon.md"
    assert all(0 < r["top1_score"] <= 1 for r in rows.values())
    # the e5 model scores the questions the pages answer above the off-topic ones
    assert min(rows[i]["top1_score"] for i in ("q1", "q2", "q3")) > max(rows[i]["top1_score"] for i in ("o1", "o2"))
    assert s["threshold_source"] == "setting"
    # no threshold given: the collection's calibrated one, else the model's default, as `rag ask`
    hybrid = run_eval(questions, store, embedder, "blog", top_k=3, mode="auto")
    assert hybrid["summary"]["mode"] == "hybrid" and hybrid["summary"]["hit_at_3"] == 1.0
    assert hybrid["summary"]["threshold_source"] == "model default" and hybrid["summary"]["threshold"] > 0


def test_expected_sources_missing_from_the_collection_are_named(tiny_index):
    store, embedder = tiny_index
    questions = parse_jsonl(
        '{"id": "t", "question": "Comment effacer les tickets Kerberos ?", "expected_source": "kerberso.md", '
        '"also_in": ["kerberos.md", "old/kerberos.md"], "in_base": true}\n'
    )
    results = run_eval(questions, store, embedder, "blog", top_k=2)
    assert results["summary"]["unknown_sources"] == ["kerberso.md", "old/kerberos.md"]
    assert results["summary"]["hit_at_1"] == 1.0  # also_in still finds it
    assert "warning: 2 expected source urls are not in the collection" in format_summary(results)


def test_evaluate_names_a_missing_collection(tiny_index):
    store, embedder = tiny_index
    with pytest.raises(RagError, match="'nope' does not exist"):
        run_eval(parse_jsonl(QUESTIONS_JSONL), store, embedder, "nope")


def test_a_run_whose_chat_model_was_down_compares_with_no_answer_measures(lmstudio, tmp_path):
    """Bug: `rag eval --compare` with LM Studio down printed 'answer contains expected: 0% -> 0%
    (same)' and the gate's refusals as the model's, under the line that said no answer was written."""
    from rag.servers.chat import LLMClient
    from rag.evaluate.runner import make_answer_fn

    lmstudio.answer = "Lancez klist purge [1]."
    settings = Settings.from_env({"RAG_DATA_DIR": str(tmp_path), "RAG_LLM_URL": lmstudio.url})

    def run(collection):
        return replay(HAND_SET, lambda text: HAND_MADE[text], k=3, threshold=0.83,
                      answer_fn=make_answer_fn(settings, llm=LLMClient(lmstudio.url, timeout=5)),
                      context={"collection": collection, "model": "m", "strategy": "sections"})

    answered = run("up")
    lmstudio.down()
    unanswered = run("down")
    assert all(r["llm_error"] for r in unanswered["questions"] if not r["refused"])
    # No answer at all: no measure of the answers (0 read as a model that gets everything wrong).
    summary = unanswered["summary"]
    assert [summary[k] for k in ("answer_contains_expected", "refusal_rate_out_of_base", "refusal_rate_in_base",
                                 "invalid_citation_rate", "uncited_rate")] == [None] * 5

    cmp = compare(unanswered, answered)
    contains = cmp["metrics"]["answer_contains_expected"]
    assert contains["a"] is None and contains["b"] == 0.5 and contains["delta"] is None  # q1 answered, q2 not
    assert cmp["metrics"]["refusal_rate_out_of_base"]["a"] is None
    assert cmp["metrics"]["hit_at_1"]["a"] == cmp["metrics"]["hit_at_1"]["b"]  # retrieval is measured
    text = format_comparison(cmp)
    assert "answer contains expected: n/a -> 50%" in text
    assert "off-topic refusals: n/a -> 50%" in text  # o1 under the threshold; the model answered o2


CATEGORY_SET = parse_jsonl(
    '{"id": "q1", "question": "Q1 ?", "expected_source": "a.md", "in_base": true, "category": "identifier"}\n'
    '{"id": "q2", "question": "Q2 ?", "expected_source": "b.md", "also_in": ["c.md"], "in_base": true, '
    '"category": "paraphrase"}\n'
    '{"id": "q3", "question": "Q3 ?", "expected_source": "b.md", "in_base": true, "category": "paraphrase"}\n'
    '{"id": "o1", "question": "O1 ?", "in_base": false, "category": "off_topic"}\n'
    '{"id": "o2", "question": "O2 ?", "in_base": false, "category": "off_topic"}\n'
)


def test_results_json_and_the_report_give_the_figures_per_category(tmp_path):
    results = replay(CATEGORY_SET, lambda text: HAND_MADE[text], k=3, threshold=0.83,
                     context={"collection": "blog", "model": "m", "strategy": "sections"})
    folder = write_results(results, tmp_path / "run")
    written = json.loads(folder.read_text(encoding="utf-8"))["summary"]
    assert set(CONTRACT_SUMMARY_KEYS) <= set(written)  # the existing keys stay
    kinds = {k["category"]: k for k in written["categories"]}
    assert [k["category"] for k in written["categories"]] == ["identifier", "paraphrase", "off_topic"]
    # threshold 0.83: q1 found first, answered; q2 found third, answered; q3 missed and refused;
    # o1 (0.78) refused, o2 (0.84) answered.
    assert {key: kinds["paraphrase"][key] for key in ("questions", "in_base", "found", "first", "answered",
                                                      "handled_well")} == {
        "questions": 2, "in_base": 2, "found": 1, "first": 0, "answered": 1, "handled_well": 1}
    assert kinds["paraphrase"]["hit_at_k"] == pytest.approx(0.5) and kinds["paraphrase"]["hit_at_1"] == 0
    assert (kinds["off_topic"]["refused"], kinds["off_topic"]["out_of_base_refused"]) == (1, 0.5)
    assert kinds["off_topic"]["hit_at_1"] is None  # nothing to find: not a zero
    assert kinds["identifier"]["handled_well_rate"] == 1.0
    text = format_summary(results)
    assert "by category of question:" in text
    assert "  paraphrase (2): first 0 of 2, among the 3 passages 1 of 2, let through 1 of 2" in text
    assert "  off_topic (2): refused 1 of 2" in text


def test_results_csv_holds_no_formula_for_a_spreadsheet(tmp_path):
    from rag.evaluate.runs import results_csv

    results, _ = hand_run()
    results["summary"]["llm"] = True
    hostile = {"question": "=cmd|' /C calc'!A0", "top1_url": "=HYPERLINK(\"https://evil.example\",\"ok\")",
               "answer": "@SUM(1+1)*cmd|' /C calc'!A0", "llm_error": " -2+3", "category": "+x", "expected_answer": "\t=1"}
    results["questions"][0].update(hostile)
    rows = list(csv.DictReader(results_csv(results).decode("utf-8-sig").splitlines()))
    for column, value in hostile.items():
        assert rows[0][column] == "'" + value  # text in every spreadsheet, shown as typed
    assert rows[1]["question"] == results["questions"][1]["question"]  # ordinary text untouched
