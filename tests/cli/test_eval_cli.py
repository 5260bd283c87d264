"""`rag eval` end to end on a tiny real index (embedded model, Qdrant local mode)."""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.evaluate.summary import CONTRACT_SUMMARY_KEYS, LLM_SUMMARY_KEYS
from rag.evaluate.runs import list_runs
from rag.store.store import Store
from tests.evaluate.eval_corpus import QUESTIONS_JSONL, build_collection

QUESTION_KEYS = {"id", "question", "expected_source", "expected_answer", "in_base", "category", "also_in",
                 "top1_score", "rank", "retrieved", "refused"}
BUILD_KEYS = {"collection", "model", "strategy", "chunk_settings", "mode", "date", "calibration"}


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("data")
    store = Store(Settings(data_dir=data))
    embedder = EmbeddedEmbedder(threads=1)
    build_collection(store, embedder, "blog", strategy="sections")
    build_collection(store, embedder, "rec", strategy="recursive")
    yield data
    store.close()


@pytest.fixture
def env(index_dir, tmp_path, monkeypatch) -> Path:
    """The shared index as RAG_DATA_DIR (history under it is cleared per test), a question file."""
    # Only this command's parser: the test does not depend on the other commands' modules.
    monkeypatch.setattr("rag.cli.main.COMMANDS", ["eval"])
    monkeypatch.setenv("RAG_DATA_DIR", str(index_dir))
    monkeypatch.setenv("RAG_THRESHOLD", "0.83")
    monkeypatch.delenv("RAG_COLLECTION", raising=False)
    monkeypatch.delenv("RAG_EMBED_MODEL", raising=False)
    evals = index_dir / "evals"
    if evals.exists():
        import shutil

        shutil.rmtree(evals)
    (tmp_path / "questions.jsonl").write_text(QUESTIONS_JSONL, encoding="utf-8")
    return tmp_path


def test_eval_is_listed_after_the_ways_of_asking():
    from rag.cli import main as cli

    # The flow: ask one question, or a conversation, then evaluate a set of them.
    assert cli.COMMANDS.index("eval") == cli.COMMANDS.index("chat") + 1 == cli.COMMANDS.index("ask") + 2


def run_dirs(index_dir: Path) -> list[Path]:
    return sorted(p for p in (index_dir / "evals").iterdir() if p.is_dir())


def test_no_llm_run_writes_every_contract_key_and_a_csv(env, index_dir, capsys):
    assert main(["eval", "--questions", str(env / "questions.jsonl"), "--no-llm", "--top-k", "3"]) == 0
    out = capsys.readouterr().out
    [folder] = run_dirs(index_dir)
    assert folder.name.endswith("-blog")
    data = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert set(data) == {"summary", "questions"}
    summary = data["summary"]
    assert set(CONTRACT_SUMMARY_KEYS) <= set(summary) and BUILD_KEYS <= set(summary)
    assert not set(LLM_SUMMARY_KEYS) & set(summary)
    assert (summary["questions"], summary["in_base"], summary["out_of_base"], summary["k"]) == (6, 4, 2, 3)
    assert summary["hit_at_1"] == 1.0 and summary["threshold"] == 0.83
    assert summary["strategy"] == "sections" and summary["model"] == "embedded:multilingual-e5-small"
    assert summary["threshold_source"] == "setting" and summary["mode"] == "hybrid"
    assert summary["suggested_threshold"] is not None
    assert {"criterion", "overlap_sentence", "at_current", "at_suggested"} <= set(summary["calibration"])
    assert len(data["questions"]) == 6
    for row in data["questions"]:
        assert QUESTION_KEYS <= set(row)
        assert all(set(r) == {"url", "score"} for r in row["retrieved"])
    rows = list(csv.DictReader((folder / "results.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert [r["id"] for r in rows] == ["q1", "q2", "q3", "q4", "o1", "o2"]
    assert "hit@1 100% (4 of 4 in-base questions find the right article first)" in out
    assert "answer in context 100% (3 of 3 expected answers" in out
    # The prompt's refusal rule sees what the gate lets through, words included: that is what is counted.
    at = summary["gate"]["calibration"]["suggested"]
    through = at["off_topic_count"] - at["off_topic_refused_count"]
    assert (f"{through} of 2 off-topic questions" if through else "the gate refuses all 2 off-topic questions") in out
    assert "the two groups are fully separated" not in out
    assert [r["collection"] for r in list_runs(Settings.from_env())] == ["blog"]


def test_out_dir_is_written_and_kept_in_history_and_compared_with_the_latest(env, index_dir, capsys):
    out = env / "mine"
    args = ["eval", "--questions", str(env / "questions.jsonl"), "--no-llm", "--mode", "dense"]
    assert main(args + ["--out", str(out)]) == 0
    assert (out / "results.json").exists() and (out / "results.csv").exists()
    [kept] = run_dirs(index_dir)
    assert json.loads((kept / "results.json").read_text())["summary"]["mode"] == "dense"
    capsys.readouterr()
    assert main(args[:-2] + ["--compare-run", "latest"]) == 0
    text = capsys.readouterr().out
    newest = run_dirs(index_dir)[-1]
    comparison = json.loads((newest / "comparison.json").read_text())
    assert comparison["a"]["mode"] == "dense" and comparison["b"]["mode"] == "hybrid"
    assert comparison["found"]["both"] == ["q1", "q2", "q3", "q4"]
    assert "found by both 4, by A only 0, by B only 0, by neither 0" in text


def test_compare_two_collections(env, capsys):
    out = env / "cmp"
    assert main(["eval", "--questions", str(env / "questions.jsonl"), "--no-llm", "--out", str(out),
                 "--compare", "rec"]) == 0
    text = capsys.readouterr().out
    a = json.loads((out / "results.json").read_text())
    b = json.loads((out / "compare-rec" / "results.json").read_text())
    assert (a["summary"]["strategy"], b["summary"]["strategy"]) == ("sections", "recursive")
    comparison = json.loads((out / "comparison.json").read_text())
    assert comparison["a"]["collection"] == "blog" and comparison["b"]["collection"] == "rec"
    assert set(comparison["metrics"]) >= {"hit_at_1", "mrr", "suggested_threshold"}
    assert "A = blog (strategy sections, model embedded:multilingual-e5-small, hybrid retrieval, top 6)" in text
    assert "B = rec (strategy recursive" in text


def test_save_threshold_records_the_suggestion(env, index_dir, monkeypatch, capsys):
    monkeypatch.delenv("RAG_THRESHOLD")
    assert main(["eval", "--questions", str(env / "questions.jsonl"), "--no-llm", "--collection", "rec",
                 "--save-threshold", "--out", str(env / "o")]) == 0
    summary = json.loads((env / "o" / "results.json").read_text())["summary"]
    assert summary["saved_threshold"] == summary["suggested_threshold"] is not None
    assert summary["threshold_source"] == "model default"
    assert Store(Settings(data_dir=index_dir)).collection_info("rec")["threshold"] == summary["suggested_threshold"]
    out, err = capsys.readouterr()
    assert "saved threshold" in err
    # 4 in-base and 2 off-topic questions cannot calibrate a threshold: saved, and said so.
    assert "warning: this threshold comes from 4 in-base and 2 off-topic questions" in err
    assert "at least 20 and 10" in err
    # The suggestion printed is the one saved, with its own counts (not the cosine-alone calibration's).
    saved = summary["gate"]["calibration"]["suggested"]
    [line] = [line for line in out.splitlines() if line.startswith("suggested settings: ")]
    # Let through, not "answered" (no model ran); no "coverage 0.600", a switch and not a figure.
    threshold = re.match(r"suggested settings: threshold ([0-9.]+):", line).group(1)
    assert float(threshold) == summary["saved_threshold"] and "coverage" not in out
    assert line.endswith(f"{saved['in_base_answered_count']} of 4 in-base questions let through, "
                         f"{saved['off_topic_refused_count']} of 2 off-topic refused")
    # without off-topic questions there is nothing to separate: nothing saved, and why
    in_base_only = env / "in.jsonl"
    in_base_only.write_text("\n".join(QUESTIONS_JSONL.splitlines()[:4]) + "\n", encoding="utf-8")
    assert main(["eval", "--questions", str(in_base_only), "--no-llm", "--collection", "rec",
                 "--save-threshold", "--out", str(env / "p")]) == 1
    assert "threshold not saved: no off-topic questions" in capsys.readouterr().err


def test_csv_question_set_is_accepted(env, capsys):
    path = env / "questions.csv"
    path.write_text(
        "id;question;expected_source;expected_answer;in_base;category;also_in\n"
        "k1;Comment effacer les tickets Kerberos en cache ?;kerberos.md;klist purge;oui;;\n"
        "k2;Quelle recette de pâte à crêpes ?;;;non;;\n",
        encoding="utf-8-sig",
    )
    assert main(["eval", "--questions", str(path), "--no-llm", "--out", str(env / "c")]) == 0
    summary = json.loads((env / "c" / "results.json").read_text())["summary"]
    assert (summary["in_base"], summary["out_of_base"], summary["hit_at_1"]) == (1, 1, 1.0)


def test_bad_question_line_names_the_line(env, capsys):
    path = env / "bad.jsonl"
    path.write_text(QUESTIONS_JSONL.splitlines()[0] + '\n{"id": "q2", "question": "?", "in_base": tru}\n',
                    encoding="utf-8")
    assert main(["eval", "--questions", str(path), "--no-llm"]) == 2
    err = capsys.readouterr().err
    assert "line 2: bad JSON" in err and str(path) in err


def test_missing_collection_is_named(env, capsys):
    assert main(["eval", "--questions", str(env / "questions.jsonl"), "--no-llm", "--collection", "nope"]) == 2
    err = capsys.readouterr().err
    assert "'nope' does not exist" in err and "blog" in err and "rec" in err
    # Nothing is left behind: an empty run folder in the history (an evaluation that never ran).
    evals = Path(os.environ["RAG_DATA_DIR"]) / "evals"
    assert not evals.exists() or not list(evals.iterdir())


def scripted(messages) -> str:
    # The user message holds the extracts, then the question last.
    question = messages[-1]["content"].rsplit("Question", 1)[-1]
    if "Kerberos" in question:
        return "Lancez `klist purge` sur le poste [1]."
    if "trafic" in question:
        return "Utilisez pktmon [9]."  # the expected command is incomplete, and [9] does not exist
    if "PowerShell" in question:
        return "Set-ExecutionPolicy RemoteSigned autorise les scripts locaux."  # no citation
    if "crêpes" in question:
        return "Je ne trouve pas cette information dans les articles indexés."
    return "Voir l'extrait [1]."


def test_llm_metrics_with_the_lm_studio_emulator(env, lmstudio, monkeypatch, capsys):
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    monkeypatch.setenv("RAG_THRESHOLD", "0.5")  # every question reaches the model:
    monkeypatch.setenv("RAG_MIN_COVERAGE", "0")  # no word checks either
    lmstudio.answer = scripted
    assert main(["eval", "--questions", str(env / "questions.jsonl"), "--out", str(env / "llm")]) == 0
    assert lmstudio.chat_calls == 6
    data = json.loads((env / "llm" / "results.json").read_text())
    s = data["summary"]
    assert set(LLM_SUMMARY_KEYS) <= set(s) and s["llm"] is True
    assert s["answer_contains_expected"] == pytest.approx(2 / 3)  # q2's command is incomplete
    assert s["refusal_rate_out_of_base"] == pytest.approx(1 / 2)  # o1 refused, o2 answered
    assert s["invalid_citation_rate"] == pytest.approx(1 / 5)  # 5 answers written, q2 cites [9]
    assert s["uncited_rate"] == pytest.approx(2 / 5)  # q3 cites nothing, q2 nothing valid
    rows = {r["id"]: r for r in data["questions"]}
    assert rows["q2"]["invalid_citations"] == [9] and rows["q2"]["answer_contains_expected"] is False
    assert rows["q1"]["citations"] == [1] and rows["q1"]["answer_contains_expected"] is True
    assert rows["q3"]["uncited"] is True and rows["q3"]["citations"] == []
    assert rows["o1"]["answer_refused"] is True and rows["o1"]["refused"] is False
    assert {"answer", "citations", "invalid_citations"} <= set(rows["o2"])
    header = (env / "llm" / "results.csv").read_text(encoding="utf-8-sig").splitlines()[0]
    assert "answer" in header and "invalid_citations" in header
    out = capsys.readouterr().out
    assert "answers citing an extract that does not exist 20% (1 of 5 answers)" in out
    assert "off-topic questions refused 50% (1 of 2)" in out


def test_chat_model_down_is_reported(env, lmstudio, monkeypatch, capsys):
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    monkeypatch.setenv("RAG_THRESHOLD", "0.5")
    monkeypatch.setenv("RAG_MIN_COVERAGE", "0")  # every question reaches the model
    lmstudio.down()
    assert main(["eval", "--questions", str(env / "questions.jsonl"), "--out", str(env / "down")]) == 1
    rows = json.loads((env / "down" / "results.json").read_text())["questions"]
    assert all(r["llm_error"] for r in rows) and all(r["rank"] == 1 for r in rows if r["in_base"])
    out, err = capsys.readouterr()
    assert "the chat model gave no answer to 6 questions" in err
    assert "the chat model could not be reached (6 of 6 questions got no answer): no answer metrics" in out
    assert "answers containing the expected text" not in out


def test_the_cost_of_k_prompt_tokens_and_first_word_per_question(env, lmstudio, monkeypatch, capsys):
    # The seed's measure: the same questions with few and with many passages sent to the model.
    from rag.evaluate.report import format_comparison
    from rag.evaluate.compare import compare

    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    monkeypatch.setenv("RAG_THRESHOLD", "0.5")  # every question reaches the model:
    monkeypatch.setenv("RAG_MIN_COVERAGE", "0")  # no word checks either
    lmstudio.answer = scripted
    lmstudio.delay = 0.05
    runs = {}
    for k in (1, 4):
        assert main(["eval", "--questions", str(env / "questions.jsonl"), "--top-k", str(k),
                     "--out", str(env / f"k{k}")]) == 0
        runs[k] = json.loads((env / f"k{k}" / "results.json").read_text())
    for data in runs.values():
        rows = data["questions"]
        assert all(isinstance(r["prompt_tokens"], int) and r["prompt_tokens"] > 0 for r in rows)
        assert all(r["first_token_seconds"] >= 0.05 and r["answer_seconds"] >= r["first_token_seconds"] for r in rows)
        s = data["summary"]
        assert s["prompt_tokens_mean"] == pytest.approx(sum(r["prompt_tokens"] for r in rows) / len(rows), abs=0.1)
        assert s["first_token_seconds_median"] >= 0.05 and s["answers_timed"] == len(rows)
    assert runs[4]["summary"]["prompt_tokens_mean"] > runs[1]["summary"]["prompt_tokens_mean"]
    assert "prompt tokens on average, first word after" in capsys.readouterr().out

    cmp = compare(runs[1], runs[4])
    tokens = cmp["metrics"]["prompt_tokens_mean"]
    assert tokens["delta"] > 0 and "first_token_seconds_median" in cmp["metrics"]
    assert "prompt tokens (mean):" in format_comparison(cmp)
    history = {r["k"]: r for r in list_runs(Settings.from_env())}  # the Evaluate page's table of runs
    assert history[4]["prompt_tokens_mean"] == runs[4]["summary"]["prompt_tokens_mean"]


def test_a_threshold_saved_with_the_word_checks_off_records_the_floor_alone(env, index_dir, monkeypatch, capsys):
    """Bug: a run with RAG_MIN_COVERAGE=0 saved its suggestion with the checks recorded as off, so
    they stayed off for the collection once the setting was gone."""
    from rag.answer.gate import DEFAULT_MIN_COVERAGE, resolve_params

    monkeypatch.delenv("RAG_THRESHOLD")
    questions = str(env / "questions.jsonl")
    assert main(["eval", "--questions", questions, "--no-llm", "--collection", "blog", "--save-threshold",
                 "--out", str(env / "on")]) == 0
    assert Store(Settings(data_dir=index_dir)).collection_info("blog")["gate"]["min_coverage"] > 0
    monkeypatch.setenv("RAG_MIN_COVERAGE", "0")
    assert main(["eval", "--questions", questions, "--no-llm", "--collection", "blog", "--save-threshold",
                 "--out", str(env / "off")]) == 0
    summary = json.loads((env / "off" / "results.json").read_text())["summary"]
    assert summary["saved_threshold"] == summary["suggested_threshold"] is not None
    assert summary.get("saved_gate") is None
    info = Store(Settings(data_dir=index_dir)).collection_info("blog")
    # The floor saved last is the one read, with the default checks once the setting is gone.
    params = resolve_params(None, info, None)
    assert (params.min_cosine, params.min_coverage) == (summary["saved_threshold"], DEFAULT_MIN_COVERAGE)
    assert "coverage" not in capsys.readouterr().err.split("saved threshold")[-1].split("\n")[0]
