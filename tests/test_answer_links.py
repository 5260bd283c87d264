"""Web addresses the model writes in an answer: never links, always flagged and logged."""

from __future__ import annotations

import json

import pytest

from rag.cli import main

FORGED = ("Le KDC délivre les tickets [1]. Cliquez ici : [Cliquez ici](https://evil.example/login).\n\n"
          "Sources :\n- [1] [Documentation officielle](http://phish.example/kerberos) et www.fake.example.")


@pytest.fixture
def collection(data_dir, tmp_path, monkeypatch, capsys, lmstudio):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "kerberos.md").write_text("# Kerberos\n\n## Tickets\n\nLe KDC délivre les tickets Kerberos aux "
                                        "clients du domaine.\n", encoding="utf-8")
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    assert main(["ingest", str(folder), "--collection", "mini"]) == 0
    capsys.readouterr()
    return "mini"


def test_urls_in_an_answer_are_listed_and_logged(collection, lmstudio, data_dir, capsys):
    lmstudio.answer = FORGED
    assert main(["ask", "Qui délivre les tickets Kerberos ?", "--collection", collection, "--json",
                 "--threshold", "0"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answer_urls"] == ["https://evil.example/login", "http://phish.example/kerberos", "www.fake.example"]
    assert [s["url"] for s in data["sources"]] == ["kerberos.md"]  # the sources stay the index's own
    logged = [json.loads(line) for line in (data_dir / "logs" / "answers.jsonl").read_text().splitlines()]
    assert logged[-1]["answer_urls"] == data["answer_urls"]

    assert main(["ask", "Qui délivre les tickets Kerberos ?", "--collection", collection, "--threshold", "0"]) == 0
    out = capsys.readouterr().out
    assert "Web addresses written by the model" in out and "https://evil.example/login" in out


def test_an_answer_without_urls_says_so(collection, lmstudio, capsys):
    lmstudio.answer = "Le KDC délivre les tickets [1]."
    main(["ask", "Qui délivre les tickets Kerberos ?", "--collection", collection, "--json", "--threshold", "0"])
    assert json.loads(capsys.readouterr().out)["answer_urls"] == []
