"""A follow-up in a question set (`previous`) is replayed as the turn a reader gets after that
question: searched with what the turn understood, not as asked; an off-topic one after an in-base
question is judged as asked, never answered with no doubt. Over the demo articles, without a chat model."""

from __future__ import annotations

import json

from rag.evaluate.questions import load_questions
from rag.evaluate.runner import run_eval
from rag.store.store import Store

KLIST = "Comment purger les tickets Kerberos avec klist ?"
SET = "\n".join(json.dumps(q, ensure_ascii=False) for q in (
    {"id": "k1", "question": KLIST, "expected_source": "kerberos-klist.md", "in_base": True},
    {"id": "f1", "question": "Et pour un compte de service ?", "previous": KLIST,
     "expected_source": "kerberos-klist.md", "in_base": True},
    {"id": "f2", "question": "Comment configurer keepalived ?", "previous": KLIST, "expected_source": None,
     "in_base": False},
)) + "\n"


def test_a_follow_up_is_replayed_after_its_previous_question(demo_index, tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_text(SET, encoding="utf-8")
    questions = load_questions(path)
    assert questions[1].previous and questions[1].to_dict()["previous"] == questions[0].question
    store = Store(demo_index.settings())
    try:
        from rag.embeddings.embedded import EmbeddedEmbedder

        run = run_eval(questions, store, EmbeddedEmbedder(threads=1), demo_index.collection,
                       settings=demo_index.settings())
    finally:
        store.close()
    rows = {r["id"]: r for r in run["questions"]}
    assert "standalone_question" not in rows["k1"]
    assert rows["f1"]["standalone_question"].startswith("Et pour un compte de service ?")
    assert "klist" in rows["f1"]["standalone_question"]
    assert rows["f1"]["rank"] == 1 and not rows["f1"]["refused"]
    assert rows["f2"]["standalone_question"] == "Comment configurer keepalived ?"
    assert rows["f2"]["verdict"] != "answer"
