"""The gate's word checks alone, on the three sets, in seconds (no embedding model):

    RAG_CORPORA=/path/to/corpora .venv/bin/python benchmarks/gate_words.py

Coverage (the IDF-weighted share of the question's words the collection holds) and unknown
names, with document frequencies counted from the `markdown` chunks as the store counts them for
a reader who sees everything; the gate's default (no unknown name, coverage >= 0.6). The cosine
floor comes on top in the full gate (benchmarks/quality.py): it can only refuse more. Writes
benchmarks/results/gate_word_checks.json.
"""
import json
import sys

sys.path.insert(0, "benchmarks")
from collections import Counter
from pathlib import Path
from _common import CNIL_DIR, CNIL_QUESTIONS, DOCS_FR, corpus_path, load_documents
from rag.chunking import make_chunker
from rag.store.terms import chunk_terms, question_words, question_keys
from rag.answer.gate import signals_from
from rag.evaluate.questions import load_questions
from rag.demo import DEMO_DIR, QUESTIONS_PATH
SETS = {"demo": (DEMO_DIR, [QUESTIONS_PATH]),
        "cnil": (corpus_path(CNIL_DIR), [corpus_path(CNIL_QUESTIONS), Path("benchmarks/data/cnil_off_topic.jsonl")]),
        "docsfr": (corpus_path(DOCS_FR), [Path("benchmarks/data/docsfr_questions.jsonl")])}
def auc(pos, neg):
    return sum(1 if p > n else 0.5 if p == n else 0 for p in pos for n in neg) / (len(pos) * len(neg))
out = {}
for name, (folder, files) in SETS.items():
    docs = load_documents(folder)
    chunks = [c for d in docs for c in make_chunker("markdown").chunk(d.markdown, title=d.title)]
    df = Counter(k for c in chunks for k in chunk_terms(c.embedding_text))
    rows = []
    for q in (q for f in files for q in load_questions(f)):
        counts = {k: df.get(k, 0) for k in question_keys(question_words(q.question))}
        s = signals_from(q.question, [type("P", (), {"score": 1.0, "text": ""})()], counts, len(chunks))
        ok = not s.unknown_names and (s.coverage is None or s.coverage >= 0.6)
        rows.append({"in_base": q.in_base, "coverage": s.coverage, "unknown": s.unknown_names, "ok": ok, "q": q.question})
    pos = [r["coverage"] for r in rows if r["in_base"] and r["coverage"] is not None]
    neg = [r["coverage"] for r in rows if not r["in_base"] and r["coverage"] is not None]
    ins = [r for r in rows if r["in_base"]]
    outs = [r for r in rows if not r["in_base"]]
    res = {"chunks": len(chunks), "coverage_auc": round(auc(pos, neg), 4),
           "word_checks_in_base_answered": round(sum(r["ok"] for r in ins) / len(ins), 4),
           "word_checks_off_topic_refused": round(sum(not r["ok"] for r in outs) / len(outs), 4),
           "in_base_refused": [r["q"] for r in ins if not r["ok"]],
           "off_topic_answered": [r["q"] for r in outs if r["ok"]]}
    out[name] = res
    print(name, {k: v for k, v in res.items() if not isinstance(v, list)}, "off answered:", len(res["off_topic_answered"]), flush=True)
json.dump(out, open("benchmarks/results/gate_word_checks.json", "w"), ensure_ascii=False, indent=1)
