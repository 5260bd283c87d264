"""`rag ask` end to end: a tiny real collection (embedded model, Qdrant local mode), the CLI,
and the LM Studio emulator as the chat model."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from rag.cli.main import main
from rag.answer.prompts import refusal_sentence

DOCS = "docs-fr/docs/WindowsServerDocs/administration/windows-commands"


@pytest.fixture(scope="module")
def index_dir(corpora, tmp_path_factory):
    """arp (public) and ksetup-addkdc (staff only) indexed with the embedded model into collection
    'mini', once for the module: tests that change the collection work on a copy."""
    root = tmp_path_factory.mktemp("ask-cli")
    for group, name in (("public", "arp.md"), ("staff", "ksetup-addkdc.md")):
        (root / group).mkdir()
        shutil.copy(corpora / DOCS / name, root / group / name)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAG_DATA_DIR", str(root / "data"))
        mp.setenv("RAG_EMBED_MODEL", "embedded")
        assert main(["ingest", str(root / "public"), "--collection", "mini"]) == 0
        assert main(["ingest", str(root / "staff"), "--collection", "mini", "--access", "staff"]) == 0
    return root / "data"


@pytest.fixture
def collection(index_dir, monkeypatch, capsys):
    monkeypatch.setenv("RAG_DATA_DIR", str(index_dir))
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    capsys.readouterr()
    return "mini"


def _env(monkeypatch, lmstudio):
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    monkeypatch.delenv("RAG_THRESHOLD", raising=False)


def cite_present(messages) -> str:
    numbers = re.findall(r'<extrait n="(\d+)">', messages[-1]["content"])
    return "La commande `arp -a` affiche la table ARP " + "".join(f"[{n}]" for n in numbers[:1]) + "."


def test_ask_json_answers_with_sources_from_the_collection(collection, lmstudio, monkeypatch, capsys):
    _env(monkeypatch, lmstudio)
    lmstudio.answer = cite_present
    status = main(["ask", "Comment afficher la table ARP ?", "--collection", collection, "--json",
                   "--top-k", "3", "--threshold", "0.5"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert {"answer", "refused", "passages", "sources", "invalid_citations", "dropped_passages",
            "threshold", "llm_error"} <= set(data)
    assert data["refused"] is False and data["llm_error"] is None and data["threshold"] == 0.5
    assert data["threshold_source"] == "setting"
    assert len(data["passages"]) == 3 and data["passages"][0]["url"] == "arp.md"
    assert [s["n"] for s in data["sources"]] == [1]
    assert data["sources"][0]["url"] == "arp.md"
    assert lmstudio.chat_calls == 1


def test_ask_refuses_out_of_base_without_calling_the_model(collection, lmstudio, monkeypatch, capsys):
    _env(monkeypatch, lmstudio)
    status = main(["ask", "Quelle est la recette de la tarte tatin ?", "--collection", collection, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["refused"] is True and data["answer"] == refusal_sentence("fr")
    assert data["threshold_source"] == "model default" and data["best_score"] < data["threshold"]
    assert lmstudio.chat_calls == 0


def test_ask_in_the_terminal_streams_then_lists_sources_and_problems(collection, lmstudio, monkeypatch, capsys):
    _env(monkeypatch, lmstudio)
    lmstudio.answer = "La commande `arp -a` affiche la table [1]. Autre chose [9]."
    status = main(["ask", "Comment afficher la table ARP ?", "--collection", collection, "--threshold", "0.5",
                   "--mode", "dense"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith(lmstudio.answer)
    assert "Sources:" in out and "[1] " in out and "- arp.md" in out
    assert "Invalid citations" in out and "[9]" in out


def test_ask_with_lm_studio_down_shows_passages_and_the_reason(collection, lmstudio, monkeypatch, capsys):
    _env(monkeypatch, lmstudio)
    lmstudio.down()
    status = main(["ask", "Comment ajouter un KDC avec ksetup ?", "--collection", collection, "--threshold", "0.5"])
    out = capsys.readouterr().out
    assert status == 1
    assert "No answer was written" in out and "not reachable" in out
    assert "ksetup-addkdc.md" in out


def test_the_collections_calibrated_threshold_applies_unless_one_is_given(collection, index_dir, tmp_path,
                                                                          lmstudio, monkeypatch, capsys):
    from rag.config import Settings
    from rag.store.store import Store

    shutil.copytree(index_dir, tmp_path / "data")
    monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "data"))
    _env(monkeypatch, lmstudio)
    Store(Settings.from_env()).set_threshold(collection, 0.99)
    main(["ask", "Comment afficher la table ARP ?", "--collection", collection, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["threshold"] == 0.99 and data["threshold_source"] == "collection" and data["refused"]
    main(["ask", "Comment afficher la table ARP ?", "--collection", collection, "--json", "--threshold", "0.5"])
    data = json.loads(capsys.readouterr().out)
    assert data["threshold_source"] == "setting" and not data["refused"]


def test_ask_as_a_reader_of_some_groups_never_sees_other_documents(collection, lmstudio, monkeypatch, capsys):
    _env(monkeypatch, lmstudio)
    question = ["ask", "Comment ajouter une adresse de KDC avec ksetup ?", "--collection", collection, "--json"]
    main(question + ["--groups", "public"])
    as_public = json.loads(capsys.readouterr().out)
    assert as_public["passages"] and {p["url"] for p in as_public["passages"]} == {"arp.md"}

    main(question + ["--groups", "public", "staff"])
    as_staff = json.loads(capsys.readouterr().out)
    assert as_staff["passages"][0]["url"] == "ksetup-addkdc.md"


def test_passages_whose_scores_do_not_decrease_are_explained():
    """Hybrid ranking puts keyword matches first: a lower score shown above a higher one is said why."""
    import io

    from rag.answer.pipeline import AskResult
    from rag.answer.retrieve import Passage
    from rag.cli.ask import print_result

    def listed(*scores):
        passages = [Passage(n=i + 1, score=s, title="T", section="", url=f"{i}.md", text="texte") for i, s in enumerate(scores)]
        out = io.StringIO()
        print_result(AskResult("Q ?", None, False, passages, threshold=0.8, threshold_source="setting",
                               accepted=[1, 2]), out, passages=True)
        return out.getvalue()

    assert "a passage with a lower score can come first" in listed(0.87, 0.89)
    assert "lower score" not in listed(0.89, 0.87)


def test_a_question_the_check_is_unsure_of_shows_its_passages_with_the_doubt_when_no_model_answers(
        collection, lmstudio, monkeypatch, capsys):
    """A reader's detail no article holds (a laptop, a colleague) leaves the check unsure: with the
    chat model down, the passages are shown with what made it unsure, and nothing is refused."""
    _env(monkeypatch, lmstudio)
    lmstudio.down()
    status = main(["ask", "Comment afficher la table ARP sur le ThinkPad de Karim ?", "--collection", collection,
                   "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 1 and data["refused"] is False
    assert data["gate"]["verdict"] == "unsure"
    assert data["passages"][0]["url"] == "arp.md"
    assert data["outcome"] == "passages_only"
    # In the question's language, as a refusal is: a doubt, not a verdict.
    [note] = [n for n in data["notes"] if "ne répondent peut-être pas" in n]
    assert "aucun article ne parle de : ThinkPad" in note and "montrés tels quels" in note


def test_a_mistyped_collection_is_refused_naming_those_there_are(collection, lmstudio, monkeypatch, capsys):
    """`rag eval` named the collections there are; `rag ask` and `rag chat` said only that it did
    not exist, so a typo ("mni") did not show."""
    _env(monkeypatch, lmstudio)
    assert main(["ask", "Comment afficher la table ARP ?", "--collection", "mni"]) == 2
    err = capsys.readouterr().err
    assert "'mni' does not exist" in err and "(collections: " in err and "mini" in err.split("(collections: ")[1]
    assert lmstudio.chat_calls == 0
