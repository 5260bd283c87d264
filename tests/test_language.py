"""rag's messages in French and English: French by default, the command line in the language of
RAG_UI_LANG or the shell's locale, and both catalogues complete.

The rest of the suite runs in English (tests/conftest.py): here the `rag` console script runs in
subprocesses with the environment a user would have.
"""

from __future__ import annotations

import contextvars
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rag import i18n
from rag.errors import LLMError
from rag.servers.chat import LLMClient

RAG = Path(sys.executable).with_name("rag")  # the console script of this environment
DOWN = "http://127.0.0.1:9/v1"  # nothing listens on the discard port


def test_french_and_english_catalogues_have_the_same_keys_and_placeholders():
    assert not i18n.RAG.problems()
    fr, en = i18n.RAG.texts["fr"], i18n.RAG.texts["en"]
    same_in_both = {"report.collection"}  # "Collection {name} ({parts})"
    untranslated = {k for k in fr if fr[k] == en[k] and len(en[k]) > 20} - same_in_both
    assert not untranslated


def test_every_message_rag_writes_has_both_languages():
    """Each key passed to t() or tn() in rag/ is in the catalogues: a typo would fail at run time,
    in front of a user, on the one path that writes that message."""
    root = Path(__file__).resolve().parents[1] / "rag"
    keys = set(i18n.RAG.texts["en"])
    missing = []
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        missing += [f"{path.name}: {k}" for k in re.findall(r'\bt\("([a-z_.]+)"', text) if k not in keys]
        missing += [f"{path.name}: {k}" for k in re.findall(r'\btn\("([a-z_.]+)"', text) if f"{k}_one" not in keys]
    assert not missing


@pytest.mark.parametrize("env, expected", [
    ({}, "fr"),                                                        # nothing set: French
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_FR.UTF-8", "RAG_UI_LANG": "en"}, "en"),              # the setting wins
    ({"LANG": "en_GB.UTF-8", "LC_ALL": "fr_CA.UTF-8"}, "fr"),         # LC_ALL before LANG
    ({"LANG": "fr_BE@euro", "LC_MESSAGES": "en_US"}, "en"),            # LC_MESSAGES before LANG
    ({"LC_ALL": "C.UTF-8", "LANG": "en_US.UTF-8"}, "en"),              # C names no language
    ({"LANG": "de_DE.UTF-8"}, "fr"),                                   # unsupported: French
    ({"RAG_UI_LANG": "de", "LANG": "en_US.UTF-8"}, "en"),
])
def test_the_command_lines_language(env, expected):
    assert i18n.cli_language(env.get("RAG_UI_LANG"), env) == expected


def test_a_library_error_is_french_when_nothing_is_set():
    def unreachable() -> str:
        try:
            with LLMClient(base_url=DOWN, timeout=2.0) as client:
                client.models()
        except LLMError as exc:
            return str(exc)
        raise AssertionError("nothing listens there")

    message = contextvars.Context().run(unreachable)  # a fresh context: no language set
    assert message.startswith(f"Le serveur de chat ne répond pas sur {DOWN}")
    assert "lms server start" in message


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The user's environment without any language setting, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if k not in ("RAG_UI_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(RAG_DATA_DIR=str(tmp_path / "data"), RAG_LLM_URL=DOWN, RAG_EMBED_MODEL="embedded")
    env.update(extra)
    return env


def _rag(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(RAG), *args], capture_output=True, text=True, env=env, timeout=180)


@pytest.mark.slow  # the console script in subprocesses
def test_rag_status_speaks_the_shells_language_and_french_by_default(tmp_path):
    default = _rag(_env(tmp_path), "status")
    assert default.returncode == 0, default.stderr
    assert f"LM Studio : NON joignable sur {DOWN}" in default.stdout
    assert f"Le serveur de chat ne répond pas sur {DOWN}" in default.stdout
    assert "Qdrant : intégré, dans " in default.stdout and ", 0 collection\n" in default.stdout

    french = _rag(_env(tmp_path, LANG="fr_FR.UTF-8"), "status")
    assert french.stdout == default.stdout

    english = _rag(_env(tmp_path, LANG="fr_FR.UTF-8", RAG_UI_LANG="en"), "status")
    assert f"LM Studio: NOT reachable at {DOWN}" in english.stdout
    assert f"The chat server at {DOWN} is not reachable" in english.stdout
    assert "0 collections" in english.stdout

    # What a machine reads stays the same in every language.
    as_json = [_rag(_env(tmp_path, **lang), "status", "--json").stdout for lang in ({"LANG": "fr_FR.UTF-8"},
                                                                                  {"RAG_UI_LANG": "en"})]
    assert '"reachable": false' in as_json[0] and '"collections": []' in as_json[0]
    assert as_json[0].count('"') == as_json[1].count('"')


@pytest.mark.slow
def test_a_command_lines_errors_in_each_language(tmp_path):
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"id": "1", "question": "?", "expected_source": null, "in_base": false}\n')
    french = _rag(_env(tmp_path, LANG="fr_FR.UTF-8"), "eval", "--questions", str(questions), "--top-k", "0")
    assert french.returncode == 2
    assert french.stderr.strip() == "erreur : --top-k doit valoir au moins 1 (reçu : 0)."
    english = _rag(_env(tmp_path, RAG_UI_LANG="en"), "eval", "--questions", str(questions), "--top-k", "0")
    assert english.stderr.strip() == "error: --top-k must be at least 1 (got 0)."

    missing = str(tmp_path / "absent.md")
    french = _rag(_env(tmp_path, LANG="fr_FR.UTF-8"), "preview", missing)
    assert french.returncode == 2
    assert french.stderr.strip() == (f"erreur : Fichier introuvable : {missing}. Indiquez un fichier .md, .markdown, "
                                     ".html ou .htm, ou l'adresse d'une page.")
    english = _rag(_env(tmp_path, LANG="en_US.UTF-8"), "preview", missing)
    assert english.stderr.strip().startswith(f"error: No such file: {missing}. Give a .md")


@pytest.mark.slow
def test_the_command_lines_help_in_each_language(tmp_path):
    french = _rag(_env(tmp_path, LC_ALL="fr_FR.UTF-8"), "ask", "--help")
    assert french.returncode == 0
    assert french.stdout.startswith("utilisation : rag ask ")
    assert "la question, entre guillemets" in french.stdout
    assert "afficher cette aide et quitter" in french.stdout and "options :" in french.stdout
    assert "--min-coverage SHARE" in french.stdout  # flags and metavars as they are
    english = _rag(_env(tmp_path, LC_ALL="fr_FR.UTF-8", RAG_UI_LANG="en"), "ask", "--help")
    assert english.stdout.startswith("usage: rag ask ")
    assert "the question, in quotes" in english.stdout and "show this help message and exit" in english.stdout

    # argparse's own complaints too; the English ones are argparse's, word for word.
    french = _rag(_env(tmp_path, LANG="fr_FR.UTF-8"), "ask", "--mode", "bad", "question")
    assert french.returncode == 2
    assert french.stderr.splitlines()[-1] == ("rag ask : erreur : argument --mode : choix invalide : 'bad' "
                                              "(choisissez parmi 'auto', 'dense', 'hybrid')")
    number = _rag(_env(tmp_path, LANG="fr_FR.UTF-8"), "ask", "--top-k", "six", "question")
    assert number.stderr.splitlines()[-1] == "rag ask : erreur : argument --top-k : 'six' n'est pas un nombre entier valide"
    english = _rag(_env(tmp_path, RAG_UI_LANG="en"), "ask", "--top-k", "six", "question")
    assert english.stderr.splitlines()[-1] == "rag ask: error: argument --top-k: invalid int value: 'six'"
    missing = _rag(_env(tmp_path, LANG="fr_FR.UTF-8"), "ask")
    assert missing.stderr.splitlines()[-1] == "rag ask : erreur : ces arguments sont obligatoires : QUESTION"
    english = _rag(_env(tmp_path, RAG_UI_LANG="en"), "ask")
    assert english.stderr.splitlines()[-1] == "rag ask: error: the following arguments are required: QUESTION"
    unknown = _rag(_env(tmp_path, LC_ALL="fr_FR.UTF-8", LANGUAGE="en_US:en"), "status", "--bogus")
    assert unknown.stderr.splitlines()[-1] == "rag : erreur : arguments non reconnus : --bogus"
    english = _rag(_env(tmp_path, LANGUAGE="fr", RAG_UI_LANG="en"), "ingest", "--help")
    assert english.stdout.startswith("usage: rag ingest ") and "chunk settings:" in english.stdout
    assert not re.search(r"utilisation|arguments positionnels|afficher cette aide| : ", english.stdout)


@pytest.fixture(scope="module")
def index_dir(corpora, tmp_path_factory):
    """One article (arp) indexed with the embedded model into the collection 'mini'."""
    root = tmp_path_factory.mktemp("language")
    (root / "docs").mkdir()
    shutil.copy(corpora / "docs-fr/docs/WindowsServerDocs/administration/windows-commands/arp.md", root / "docs")
    done = _rag(_env(root, RAG_UI_LANG="en"), "ingest", str(root / "docs"), "--collection", "mini")
    assert done.returncode == 0, done.stderr
    return root


@pytest.mark.slow
def test_rag_ask_refuses_in_the_questions_language_and_explains_in_the_readers(index_dir):
    question = "Quelle est la recette de la tarte tatin ?"
    french = _rag(_env(index_dir, LANG="fr_FR.UTF-8"), "ask", question, "--collection", "mini", "--no-llm")
    assert french.returncode == 0, french.stderr
    assert "Je ne trouve pas cette information dans les articles indexés." in french.stdout
    assert "(refus : " in french.stdout
    assert "Passages trouvés (seuil " in french.stdout and "(sous le seuil)" in french.stdout
    # Scores and the threshold with a decimal comma for a French reader, a dot for an English one.
    assert re.search(r"\(seuil 0,\d{3}\b", french.stdout) and re.search(r"\[1\] 0,\d{3}  ", french.stdout)
    assert not re.search(r"\b0\.\d{3}\b", french.stdout)

    english = _rag(_env(index_dir, RAG_UI_LANG="en"), "ask", question, "--collection", "mini", "--no-llm")
    # The refusal follows the question (French); the program's own lines follow the reader.
    assert "Je ne trouve pas cette information dans les articles indexés." in english.stdout
    assert "Passages retrieved (threshold " in english.stdout and "(below threshold)" in english.stdout
    assert "Passages trouvés" not in english.stdout
    assert re.search(r"\(threshold 0\.\d{3}\b", english.stdout) and re.search(r"\[1\] 0\.\d{3}  ", english.stdout)


def test_rag_status_lines_in_each_language():
    status = {
        "llm": {"reachable": True, "url": "http://127.0.0.1:1234/v1", "models": [
            {"id": "qwen3", "type": "llm", "loaded": True, "context_length": 8192}]},
        "embeddings": {"choice": "RAG_EMBED_MODEL=embedded"},
        "qdrant": {"backend": "embedded", "location": "/data/qdrant", "reachable": True, "collections": [
            {"name": "blog", "points": 7, "embedding_model": "embedded:multilingual-e5-small", "dimension": 384,
             "strategy": "markdown", "threshold": None, "updated": "2026-11-30"},
            {"name": "cnil", "points": 12345, "embedding_model": "embedded:multilingual-e5-small", "dimension": 384,
             "strategy": "sections", "threshold": 0.8333, "updated": "2026-11-30"}]},
        "default_collection": "blog",
    }
    from rag.status import format_status

    with i18n.language("en"):
        english = format_status(status)
    with i18n.language("fr"):
        french = format_status(status)
    assert "LM Studio: reachable at http://127.0.0.1:1234/v1, 1 model\n  - qwen3 (llm, loaded, context 8192)" in english
    assert "  - blog (default): 7 points, model embedded:multilingual-e5-small, 384 dims" in english
    assert "threshold not calibrated" in english
    assert "LM Studio : joignable sur http://127.0.0.1:1234/v1, 1 modèle\n  - qwen3 (llm, chargé, contexte 8192)" in french
    assert "  - blog (par défaut) : 7 points, modèle embedded:multilingual-e5-small, 384 dimensions" in french
    assert "seuil non calibré" in french
    # Numbers as each reader writes them: decimal comma and grouped thousands in French.
    assert "  - cnil: 12,345 points," in english and "threshold 0.833," in english
    assert "  - cnil : 12\u202f345 points," in french and "seuil 0,833," in french
