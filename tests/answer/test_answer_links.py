"""Web addresses the model writes in an answer: never links, always flagged and logged."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from ui.present import answer as answer_display
from rag.cli.main import main

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
    assert "Web or e-mail addresses written by the model" in out and "https://evil.example/login" in out


def test_an_answer_without_urls_says_so(collection, lmstudio, capsys):
    lmstudio.answer = "Le KDC délivre les tickets [1]."
    main(["ask", "Qui délivre les tickets Kerberos ?", "--collection", collection, "--json", "--threshold", "0"])
    assert json.loads(capsys.readouterr().out)["answer_urls"] == []


def _outside_code(markdown: str) -> str:
    return re.sub(r"(`+).*?\1", "", markdown, flags=re.DOTALL)


def test_a_forged_sources_block_and_click_here_link_show_as_text():
    shown = answer_display.answer_markdown(SimpleNamespace(answer=FORGED + "\n\n[ref]: https://ref.example\n<https://auto.example>"))
    assert "](" not in shown  # no Markdown link left
    prose = _outside_code(shown)
    assert "http" not in prose and "www." not in prose  # every address sits in a code span: never autolinked
    for url in ("https://evil.example/login", "http://phish.example/kerberos", "www.fake.example",
                "https://ref.example", "https://auto.example"):
        assert f"`{url}`" in shown  # still readable
    assert "Cliquez ici (`https://evil.example/login`)" in shown


def test_the_reader_is_warned_of_every_address_the_model_wrote():
    result = SimpleNamespace(answer=FORGED, answer_urls=["https://evil.example/login", "www.fake.example"])
    flags = answer_display.answer_flags(result)
    assert len(flags) == 1 and "`https://evil.example/login`" in flags[0] and "`www.fake.example`" in flags[0]
    assert answer_display.answer_flags(SimpleNamespace(answer="Réponse [1].", answer_urls=[])) == []
