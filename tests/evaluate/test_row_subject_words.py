"""A results.json row names what the question asked that no article holds, in the same words as
the gate of `rag ask --json` and the journal (`subject_words`): an editor reading an evaluation's
refusals sees the same subject as on the Journal page. Real embedded model and store (the demo)."""

from __future__ import annotations

from rag.answer.engine import ask
from rag.evaluate.questions import parse_jsonl
from rag.evaluate.session import EvalSession
from rag.store.store import Store

QUESTIONS = [
    "Comment lister les conteneurs arrêtés avec podman ?",
    "Chez Airbus à Toulouse, comment purger les tickets Kerberos d'un utilisateur ?",
]


def test_each_row_carries_the_gates_subject_words(demo_index):
    settings = demo_index.settings()
    asked = [ask(q, settings, collection=demo_index.collection, with_llm=False).to_json()["gate"]["signals"]
             ["subject_words"] for q in QUESTIONS]
    assert "podman" in asked[0]  # the rare word no article holds
    assert "Kerberos" not in asked[1] and "tickets" not in asked[1]  # never a word an article holds

    lines = "".join(f'{{"id": "q{i}", "question": "{q}", "in_base": false}}\n' for i, q in enumerate(QUESTIONS))
    store = Store(settings)
    try:
        results = EvalSession(settings, store, parse_jsonl(lines)).run(demo_index.collection)
    finally:
        store.close()
    assert [row["subject_words"] for row in results["questions"]] == asked
