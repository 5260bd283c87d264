"""A new collection's enrichment follows its documents (`auto`): articles with sections get the
`lead` context, short pages without sections (an FAQ) get none; said before and after the run and
by `rag status`; recorded, so later runs follow the same rule; older collections keep their mode;
an explicit --enrich still wins."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.documents import Document
from rag.enrich import make_enricher
from rag.enrich.auto import has_sections
from rag.store.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"
DOCS_FR = DATA / "docs-fr" / "docs"  # Windows Server pages: long, most in sections
CNIL = DATA / "cnil-md" / "cnil"  # the CNIL FAQ: a question and its short answer, no sections


def _store(data_dir: Path) -> Store:
    return Store(Settings(data_dir=data_dir))


def _payloads(data_dir: Path, collection: str = "blog") -> list[dict]:
    return [p.payload for p in _store(data_dir).scroll(collection)]


def _copy(source: Path, tmp_path: Path, name: str) -> Path:
    return Path(shutil.copytree(source, tmp_path / name))


def _sectioned(folder: Path) -> set[str]:
    """The urls of the folder's documents that have sections, read by hand."""
    out = set()
    for path in folder.rglob("*.md"):
        text = path.read_text(encoding="utf-8")
        in_code = False
        for line in text.splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                in_code = not in_code
            elif not in_code and line.startswith("##"):
                out.add(path.relative_to(folder).as_posix())
                break
    return out


def test_articles_with_sections_get_lead_and_the_run_says_so(tmp_path, fake_embeddings_env, data_dir, capsys):
    docs = _copy(DOCS_FR, tmp_path, "docs")
    assert main(["ingest", str(docs), "--collection", "blog", "--enrich", "auto"]) == 0
    out, err = capsys.readouterr()
    assert "Enrichment auto: 34 of 36 documents have sections and will get lead, the others none." in err
    assert "Enrichment auto: lead for the 34 of 36 documents with sections" in out
    sectioned = _sectioned(docs)
    payloads = _payloads(data_dir)
    assert {p["url"] for p in payloads if p.get("context")} == sectioned  # each document by its own shape
    # The heading trail first; a chunk near the model's window keeps only what fits of it.
    assert all(p["context"].startswith(p["title"]) or p["title"].startswith(p["context"])
               for p in payloads if p.get("context"))
    assert _store(data_dir).collection_info("blog")["enrichment"] == {"mode": "auto", "model": None}
    assert main(["status"]) == 0
    assert "enrichment auto (lead for the documents with sections, none for the others)" in capsys.readouterr().out


def test_faq_pages_without_sections_get_none_said_in_french(tmp_path, fake_embeddings_env, data_dir, capsys,
                                                            monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    assert main(["ingest", str(_copy(CNIL, tmp_path, "faq")), "--collection", "blog", "--enrich", "auto"]) == 0
    out, err = capsys.readouterr()
    assert "Enrichissement auto : 0 documents sur 12 ont des sections" in err
    assert "Enrichissement auto : lead pour les 0 documents sur 12 qui ont des sections" in out
    assert "où le chapeau répéterait le texte de la page" in out  # why the others get none
    assert not any(p.get("context") for p in _payloads(data_dir))
    assert main(["status"]) == 0
    assert "enrichissement auto (lead pour les documents en sections, aucun pour les autres)" in capsys.readouterr().out


def test_later_runs_follow_the_rule_and_older_collections_keep_their_mode(tmp_path, fake_embeddings_env, data_dir,
                                                                          capsys):
    faq = _copy(CNIL, tmp_path, "faq")
    assert main(["ingest", str(faq), "--collection", "blog", "--enrich", "auto"]) == 0
    # Articles in sections join the FAQ later: they get lead, the FAQ pages stay as they were.
    shutil.copytree(DOCS_FR, faq / "articles")
    assert main(["ingest", str(faq), "--collection", "blog"]) == 0
    assert "12 unchanged" in capsys.readouterr().out
    payloads = _payloads(data_dir)
    assert {p["url"] for p in payloads if p.get("context")} == {f"articles/{u}" for u in _sectioned(DOCS_FR)}
    assert _store(data_dir).collection_info("blog")["enrichment"]["mode"] == "auto"

    # A collection built with none (the default) keeps none for every document.
    docs = _copy(DOCS_FR, tmp_path, "docs")
    assert main(["ingest", str(docs), "--collection", "older"]) == 0
    (docs / "new.md").write_text("# Nouveau\n\nUn article.\n\n## Une section\n\nDu texte ici.\n", encoding="utf-8")
    assert main(["ingest", str(docs), "--collection", "older"]) == 0
    assert all("context" not in p for p in _payloads(data_dir, "older"))
    assert _store(data_dir).collection_info("older")["enrichment"]["mode"] == "none"


def test_an_explicit_choice_wins_over_the_documents(tmp_path, fake_embeddings_env, data_dir, capsys):
    assert main(["ingest", str(_copy(CNIL, tmp_path, "faq")), "--collection", "blog", "--enrich", "lead"]) == 0
    out, err = capsys.readouterr()
    assert "Enrichment auto" not in err + out and "Enrichment lead: " in out
    assert all(p.get("context") for p in _payloads(data_dir))  # every FAQ page got its lead, as asked
    assert _store(data_dir).collection_info("blog")["enrichment"]["mode"] == "lead"
    # auto is a mode of its own: asking for it on a lead collection is a rebuild, said so.
    assert main(["ingest", str(tmp_path / "faq"), "--collection", "blog", "--enrich", "auto"]) == 2
    assert "--full" in capsys.readouterr().err


def test_the_json_report_and_status_say_what_auto_did(tmp_path, fake_embeddings_env, data_dir, capsys):
    assert main(["ingest", str(_copy(DOCS_FR, tmp_path, "docs")), "--collection", "blog", "--enrich", "auto",
                 "--json"]) == 0
    enrichment = json.loads(capsys.readouterr().out)["enrichment"]
    assert (enrichment["mode"], enrichment["documents"], enrichment["sectioned"]) == ("auto", 36, 34)
    assert main(["status", "--json"]) == 0
    [blog] = [c for c in json.loads(capsys.readouterr().out)["qdrant"]["collections"] if c["name"] == "blog"]
    assert blog["enrichment"]["mode"] == "auto"


def test_a_page_without_sections_stores_no_context_field_as_with_none(tmp_path, fake_embeddings_env, data_dir,
                                                                       capsys):
    # A small mixed folder, on the embedded store (Qdrant Edge): two articles in sections, two FAQ pages.
    folder = tmp_path / "mixed"
    for source in sorted(DOCS_FR.rglob("*.md"))[:2] + sorted(CNIL.glob("*.md"))[:2]:
        (folder / source.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copy(source, folder / source.parent.name / source.name)
    sectioned = _sectioned(folder)
    assert 0 < len(sectioned) < 4
    assert main(["ingest", str(folder), "--collection", "blog", "--enrich", "auto"]) == 0
    capsys.readouterr()
    payloads = _payloads(data_dir)
    assert {p["url"] for p in payloads} == {path.relative_to(folder).as_posix() for path in folder.rglob("*.md")}
    # A context is stored where one was embedded before the chunk, and only there: a page that got
    # none has no field, as in a collection built with none (not an empty one to tell apart).
    assert all(p["context"] for p in payloads if p["url"] in sectioned)
    assert all("context" not in p for p in payloads if p["url"] not in sectioned)


@pytest.mark.parametrize("markdown, sections", [
    ("# Titre\n\nUn paragraphe.\n\n## Une section\n\nTexte.", True),
    ("# Titre\n\nUne réponse courte, sans sections.", False),
    ("# Titre\n\n```bash\n## un commentaire, pas une section\n```\n", False),
    ("Texte\n\n### Une sous-section\n\nTexte.", True),
])
def test_a_document_has_sections_when_a_heading_below_the_title_is_outside_code(markdown, sections):
    assert has_sections(markdown) is sections
    doc = Document(url="a.md", title="Titre", markdown=markdown)
    from rag.chunking import make_chunker

    chunks = make_chunker("markdown").chunk(doc.markdown, title=doc.title)
    contexts = make_enricher("auto").contexts(doc, chunks)
    assert contexts == (make_enricher("lead").contexts(doc, chunks) if sections else ["" for _ in chunks])


def test_a_context_yields_to_the_body_at_the_models_window():
    from rag.chunking._measure import estimate_tokens
    from rag.enrich import enriched_text, fit_context

    doc = Document(url="a.md", title="Titre", markdown="# Titre\n\n" + "Un chapeau assez long pour compter. " * 6
                   + "\n\n## Section\n\n" + "Le corps du passage, cité tel quel. " * 60)
    from rag.chunking import make_chunker

    chunks = make_chunker("markdown").chunk(doc.markdown, title=doc.title)
    assert len(chunks) > 1
    chunk = chunks[-1]  # a chunk without the lead: its context is the trail and the lead
    context = make_enricher("auto").contexts(doc, [chunk])[0]
    window = estimate_tokens(enriched_text(chunk, "")) + 8  # room for a few words of context only
    fitted = fit_context(chunk, context, estimate_tokens, window)
    assert context.startswith(fitted) and 0 < len(fitted) < len(context)
    assert estimate_tokens(enriched_text(chunk, fitted)) <= window
    assert enriched_text(chunk, fitted).endswith(chunk.text)  # the cited body, whole
    assert fit_context(chunk, context, estimate_tokens, None) == context  # no window, nothing cut
