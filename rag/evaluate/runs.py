"""Evaluation runs on disk: results.json and results.csv, and the history under
$RAG_DATA_DIR/evals that lets a later run be compared to an earlier one."""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping, Sequence

from rag.spreadsheet import cell_text
from rag.i18n import t
from rag.config import Settings
from rag.errors import RagError
from rag.store.points import shown_time

RESULTS_FILE = "results.json"
CSV_FILE = "results.csv"


CSV_COLUMNS = [
    "id", "question", "in_base", "category", "expected_source", "also_in", "expected_answer",
    "top1_score", "top1_url", "rank", "refused", "answer_in_context", "retrieved",
]
CSV_LLM_COLUMNS = [
    "answer", "answer_refused", "answer_contains_expected", "citations", "invalid_citations",
    "uncited", "llm_error",
]


def run_date(run: Any) -> str:
    """A saved run's date as a reader writes it (2026-11-30 13:23), not as ISO 8601: of a summary,
    a comparison's side, or a history entry (rag.evaluate.results.Summary)."""
    return shown_time(run.get("date") if isinstance(run, Mapping) else run.date)


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, (list, tuple)):
        parts = []
        for item in value:
            if isinstance(item, Mapping) and "url" in item:
                score = item.get("score")
                parts.append(f"{item['url']} ({score:.4f})" if isinstance(score, (int, float)) else str(item["url"]))
            else:
                parts.append(str(item))
        return cell_text("; ".join(parts))
    if isinstance(value, str):
        return cell_text(value)  # an answer, a URL or a question: text, never a formula
    return value


def results_csv(results: Mapping[str, Any]) -> bytes:
    """results.csv: one row a question, the contract's columns (the answer's too with the model)."""
    import pandas as pd  # here, not at the top: `import rag` stays quick (tests/test_imports.py)

    columns = CSV_COLUMNS + (CSV_LLM_COLUMNS if results["summary"].get("llm") else [])
    table = pd.DataFrame([[_csv_cell(row.get(c)) for c in columns] for row in results["questions"]],
                         columns=columns, dtype=object)
    # utf-8-sig: a spreadsheet opening the file then shows accents correctly.
    return table.to_csv(index=False, lineterminator="\r\n").encode("utf-8-sig")


def write_results(results: Mapping[str, Any], out_dir: str | Path) -> Path:
    """Write results.json and results.csv into out_dir; return the results.json path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / RESULTS_FILE
    path.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    (out / CSV_FILE).write_bytes(results_csv(results))
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "run"


def new_run_dir(settings: Settings, collection: str, now: datetime | None = None) -> Path:
    """A fresh folder $RAG_DATA_DIR/evals/<timestamp>-<collection>/ (suffixed if taken)."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = Path(settings.evals_dir) / f"{stamp}-{_slug(collection)}"
    path, n = base, 2
    while path.exists():
        path = base.with_name(f"{base.name}-{n}")
        n += 1
    path.mkdir(parents=True)
    return path


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def record_history(settings: Settings, results_path: str | Path) -> Path:
    """Keep a run in the history: a run written outside $RAG_DATA_DIR/evals is copied there."""
    results_path = Path(results_path)
    if _inside(results_path, Path(settings.evals_dir)):
        return results_path
    summary = json.loads(results_path.read_text(encoding="utf-8"))["summary"]
    folder = new_run_dir(settings, str(summary.get("collection") or "run"))
    shutil.copy2(results_path, folder / RESULTS_FILE)
    csv_path = results_path.with_name(CSV_FILE)
    if csv_path.exists():
        shutil.copy2(csv_path, folder / CSV_FILE)
    (folder / "origin.txt").write_text(f"{results_path.parent.resolve()}\n", encoding="utf-8")
    return folder / RESULTS_FILE


HISTORY_KEYS = (
    "date", "collection", "model", "strategy", "chunk_settings", "mode", "k", "llm", "questions",
    "in_base", "out_of_base", "hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context",
    "threshold", "suggested_threshold", "question_set", "prompt_tokens_mean", "first_token_seconds_median",
    "seconds", "groups",
)


def visible_to(run_groups: Any, groups: Sequence[str] | None) -> bool:
    """Whether a session reading `groups` (None: everything, as the command line) may see a run
    made with `run_groups`: only when it holds every group the run was made with. A run made
    unfiltered, or before runs recorded their groups, is visible to unfiltered sessions only."""
    if groups is None:
        return True
    if not isinstance(run_groups, list):
        return False
    return set(run_groups) <= set(groups)


def list_runs(settings: Settings, groups: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Every run kept under $RAG_DATA_DIR/evals that a reader of `groups` may see (see
    visible_to), newest first: its folder and build settings."""
    root = Path(settings.evals_dir)
    if not root.is_dir():
        return []
    runs = []
    for path in root.rglob(RESULTS_FILE):
        try:
            summary = json.loads(path.read_text(encoding="utf-8"))["summary"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a half-written or foreign file is not a run
        if not visible_to(summary.get("groups"), groups):
            continue
        entry = {key: summary.get(key) for key in HISTORY_KEYS}
        entry["path"] = str(path.parent)
        runs.append(entry)
    runs.sort(key=lambda r: (str(r.get("date") or ""), r["path"]), reverse=True)
    return runs


def load_run(path: str | Path) -> dict[str, Any]:
    """Load results.json from a run folder (or the file itself)."""
    path = Path(path)
    file = path / RESULTS_FILE if path.is_dir() else path
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise RagError(t("runs.none", path=file)) from exc
    except ValueError as exc:
        raise RagError(t("runs.bad_json", path=file, error=exc)) from exc
    if not isinstance(data, dict) or "summary" not in data or "questions" not in data:
        raise RagError(t("runs.not_results", path=file))
    data["summary"].setdefault("path", str(file.parent))
    return data
