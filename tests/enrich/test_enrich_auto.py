"""A new collection's enrichment follows its documents: articles with sections get `lead`, short
pages without sections (an FAQ) get none; the choice is recorded, said, and kept by later runs;
an explicit --enrich still wins."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.documents import Document
from rag.enrich.auto import AUTO_SAMPLE, choose_from
from rag.store.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"
DOCS_FR = DATA / "docs-fr" / "docs"  # Windows Server pages: long, in sections
CNIL = DATA / "cnil-md" / "cnil"  # the CNIL FAQ: a question and its short answer, no sections


def _store(data_dir: Path) -> Store:
    return Store(Settings(data_dir=data_dir))


def _payloads(data_dir: Path, collection: str = "blog") -> list[dict]:
    return [p.payload for p in _store(data_dir).scroll(collection)]


def _copy(source: Path, tmp_path: Path, name: str) -> Path:
    return Path(shutil.copytree(source, tmp_path / name))


def test_articles_with_sections_get_lead_and_the_run_says_why(tmp_path, fake_embeddings_env, data_dir, capsys):
    assert main(["ingest", str(_copy(DOCS_FR, tmp_path, "docs")), "--collection", "blog"]) == 0
    out, err = capsys.readouterr()
    said = "Enrichment lead, chosen from the documents: 34 of 36 have sections"
    assert said in out and said in err  # at the end, and before the first document is embedded
    payloads = _payloads(data_dir)
    assert payloads and all(p.get("context") for p in payloads)  # every chunk has its heading trail
    info = _store(data_dir).collection_info("blog")
    assert info["enrichment"] == {"mode": "lead", "model": None,
                                  "chosen": {"by": "auto", "mode": "lead", "documents": 36, "with_sections": 34}}
    assert main(["status"]) == 0
    assert "enrichment lead (chosen from the documents: 34 of 36 have sections" in capsys.readouterr().out


def test_faq_pages_without_sections_get_none_said_in_french(tmp_path, fake_embeddings_env, data_dir, capsys,
                                                            monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    assert main(["ingest", str(_copy(CNIL, tmp_path, "faq")), "--collection", "blog"]) == 0
    out = capsys.readouterr().out
    assert "Enrichissement none, choisi d'après les documents : 0 sur 12 ont des sections" in out
    assert all("context" not in p for p in _payloads(data_dir))
    assert _store(data_dir).collection_info("blog")["enrichment"]["chosen"]["mode"] == "none"
    assert main(["status"]) == 0
    assert "enrichissement none (choisi d'après les documents : 0 sur 12" in capsys.readouterr().out


def test_the_json_report_and_status_carry_the_choice(tmp_path, fake_embeddings_env, data_dir, capsys):
    assert main(["ingest", str(_copy(CNIL, tmp_path, "faq")), "--collection", "blog", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["enrichment_choice"] == {"by": "auto", "mode": "none", "documents": 12, "with_sections": 0}
    assert main(["status", "--json"]) == 0
    [blog] = [c for c in json.loads(capsys.readouterr().out)["qdrant"]["collections"] if c["name"] == "blog"]
    assert blog["enrichment"]["chosen"]["mode"] == "none"
    assert main(["ingest", str(tmp_path / "faq"), "--collection", "blog", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["enrichment_choice"] is None  # decided once, by the first run


def test_a_collection_keeps_the_mode_it_was_built_with(tmp_path, fake_embeddings_env, data_dir, capsys):
    faq = _copy(CNIL, tmp_path, "faq")
    assert main(["ingest", str(faq), "--collection", "blog"]) == 0  # none, chosen by its FAQ pages
    # Articles in sections join it later: the collection stays as built, nothing is mixed.
    shutil.copytree(DOCS_FR, faq / "articles")
    capsys.readouterr()
    assert main(["ingest", str(faq), "--collection", "blog"]) == 0
    out = capsys.readouterr().out
    assert "chosen from the documents" not in out  # decided once, not again
    payloads = _payloads(data_dir)
    assert any(p["url"].startswith("articles/") for p in payloads)
    assert all("context" not in p for p in payloads)
    assert _store(data_dir).collection_info("blog")["enrichment"]["chosen"] == {
        "by": "auto", "mode": "none", "documents": 12, "with_sections": 0}
    assert main(["status"]) == 0
    assert "enrichment none (chosen from the documents: 0 of 12" in capsys.readouterr().out

    # A collection built before the automatic choice (no record, or an explicit none) keeps none too.
    assert main(["ingest", str(_copy(DOCS_FR, tmp_path, "docs")), "--collection", "older", "--enrich", "none"]) == 0
    assert main(["ingest", str(tmp_path / "docs"), "--collection", "older"]) == 0
    assert all("context" not in p for p in _payloads(data_dir, "older"))
    assert _store(data_dir).collection_info("older")["enrichment"] == {"mode": "none", "model": None}


def test_an_explicit_choice_wins_over_the_documents(tmp_path, fake_embeddings_env, data_dir, capsys):
    assert main(["ingest", str(_copy(CNIL, tmp_path, "faq")), "--collection", "blog", "--enrich", "lead"]) == 0
    out = capsys.readouterr().out
    assert "chosen from the documents" not in out and "Enrichment lead: " in out
    assert all("context" in p for p in _payloads(data_dir))
    assert "chosen" not in _store(data_dir).collection_info("blog")["enrichment"]
    # Asking for auto on a built collection keeps its own mode, whatever the documents.
    assert main(["ingest", str(tmp_path / "faq"), "--collection", "blog", "--enrich", "auto"]) == 0
    assert _store(data_dir).collection_info("blog")["enrichment"]["mode"] == "lead"


def test_a_site_read_ahead_for_the_choice_is_indexed_whole(make_wp_server, fake_embeddings_env, data_dir, capsys):
    from tests.fixtures.wordpress import load_real_posts

    posts = load_real_posts()
    assert len(posts) > AUTO_SAMPLE  # the choice reads a first batch, the run the rest
    site = make_wp_server(posts=posts)
    assert main(["ingest", site.url, "--collection", "blog"]) == 0
    out = capsys.readouterr().out
    assert f"of {AUTO_SAMPLE} have sections" in out
    # The same site indexed with no choice to make: the same documents, none lost or doubled.
    assert main(["ingest", site.url, "--collection", "plain", "--enrich", "none"]) == 0
    assert out.split(":", 1)[1].split(",")[0] in capsys.readouterr().out  # "134 new"
    urls = [p["url"] for p in _payloads(data_dir) if p["order"] == 0]
    assert sorted(urls) == sorted(p["url"] for p in _payloads(data_dir, "plain") if p["order"] == 0)
    assert len(urls) > AUTO_SAMPLE


def test_the_read_ahead_gives_back_every_item_in_order_and_what_the_source_tells():
    class Listing:
        total = 3

        def __iter__(self):
            yield Document(url="a", title="A", markdown="# A\n\n## Une section\n\nTexte.")
            yield "a problem"  # problems pass through, and are not counted as documents
            yield Document(url="b", title="B", markdown="# B\n\nTexte court.")
            yield Document(url="c", title="C", markdown="# C\n\n```\n## pas une section\n```\n")

    items, choice = choose_from(Listing())
    assert items.total == 3
    assert [getattr(i, "url", i) for i in items] == ["a", "a problem", "b", "c"]
    assert (choice.mode, choice.documents, choice.with_sections) == ("none", 3, 1)  # code is not a section


@pytest.mark.parametrize("sectioned, total, mode", [(2, 4, "lead"), (1, 3, "none"), (0, 0, "none")])
def test_half_of_the_documents_with_sections_is_enough_for_lead(sectioned, total, mode):
    docs = [Document(url=str(i), title=str(i), markdown="# T\n\n" + ("## S\n\nx" if i < sectioned else "x"))
            for i in range(total)]
    assert choose_from(docs)[1].mode == mode
