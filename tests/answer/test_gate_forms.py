"""A question whose verb is inflected otherwise than in the articles ("purgent", "purges" against
"purger", "purge") is answered, by `rag ask` and by an evaluation alike; a named thing the
articles never mention is never answered with no doubt. Three demo articles, the embedded model,
the store."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rag.answer.engine import ask
from rag.config import Settings
from rag.demo import DEMO_DIR
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.evaluate.questions import load_questions
from rag.evaluate.runner import run_eval
from rag.ingest.run import ingest
from rag.store.store import Store
from rag.sources.files import iter_folder

ARTICLES = ("kerberos-klist.md", "kerberos-erreurs.md", "ldap-bind-80090308.md")
PURGENT = "Quelles commandes purgent les tickets Kerberos ?"
PURGES = "Which command purges Kerberos tickets?"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    settings = Settings(data_dir=tmp_path_factory.mktemp("gate-forms") / "data")
    store = Store(settings)
    embedder = EmbeddedEmbedder(threads=1)
    docs = [d for d in iter_folder(DEMO_DIR) if d.url.rsplit("/", 1)[-1] in ARTICLES]
    report = ingest(docs, store, embedder, "kb")
    assert report.ok and report.new == len(ARTICLES)
    yield store, embedder, settings
    store.close()


def _ask(kb, lmstudio, question):
    store, embedder, settings = kb
    return ask(question, replace(settings, llm_url=lmstudio.url), store=store, embedder=embedder, collection="kb")


@pytest.mark.parametrize("question", [PURGENT, PURGES])
def test_an_inflected_verb_the_articles_write_otherwise_is_answered(kb, lmstudio, question):
    result = _ask(kb, lmstudio, question)
    assert not result.refused, result.refusal_reason
    gate = result.to_json()["gate"]
    assert gate["signals"]["missing"] == [] and gate["signals"]["coverage"] == 1.0


@pytest.mark.parametrize("question", ["Quelles commandes purgent les tickets Okta ?",
                                      "Which command purges the Okta session tickets?"])
def test_a_named_thing_the_articles_lack_is_never_answered_with_no_doubt(kb, lmstudio, question):
    gate = _ask(kb, lmstudio, question).to_json()["gate"]
    assert gate["verdict"] != "answer" and gate["signals"]["subject_words"] == ["Okta"]


def test_an_evaluation_judges_the_inflected_question_as_rag_ask_does(kb, tmp_path):
    store, embedder, _ = kb
    path = tmp_path / "set.jsonl"
    rows = [{"id": "fr", "question": PURGENT, "expected_source": "kerberos-klist.md", "in_base": True},
            {"id": "en", "question": PURGES, "expected_source": "kerberos-klist.md", "in_base": True},
            {"id": "okta", "question": "Quelles commandes purgent les tickets Okta ?", "expected_source": None,
             "in_base": False}]
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    results = run_eval(load_questions(path), store, embedder, "kb", top_k=4)
    verdicts = {q["id"]: q["verdict"] for q in results["questions"]}
    assert verdicts["fr"] != "refuse" and verdicts["en"] != "refuse" and verdicts["okta"] != "answer"
    assert results["summary"]["gate"]["in_base_answered"] == 1.0
