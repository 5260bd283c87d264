"""The default strategy naming every section a chunk holds (its header and its citations), against
naming the first one only: retrieval on the demo set, and the gate's calibration.

    .venv/bin/python benchmarks/section_trail.py     # under a minute; writes results/section_trail.json

Both sides index the demo articles with `markdown` into a fresh store (the shipped vectors stand in
for the model's where the text is the same) and replay the shipped questions (run_eval, top 6,
retrieval only); the first-section side patches the chunker's flag off.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, embed_threads, finish, machine, say, settings_for, temp_data_dir  # noqa: E402

from rag.chunking import _finish  # noqa: E402
from rag.demo import DEMO_COLLECTION, QUESTIONS_PATH, load_demo  # noqa: E402
from rag.embeddings.embedded import EmbeddedEmbedder  # noqa: E402
from rag.evaluate.questions import load_questions  # noqa: E402
from rag.evaluate.runner import run_eval  # noqa: E402
from rag.store.store import Store  # noqa: E402

KEYS = ("hit_at_1", "hit_at_3", "hit_at_k", "mrr", "in_base_accepted", "out_of_base_refused", "threshold")


def measure(every_section: bool, embedder) -> dict:
    original = _finish.finish

    def patched(*args, **kwargs):
        kwargs["name_every_section"] = kwargs.get("name_every_section", False) and every_section
        return original(*args, **kwargs)

    with temp_data_dir("trail") as data_dir, mock.patch("rag.chunking.markdown.finish", patched):
        store = Store(settings_for(data_dir))
        try:
            loaded = load_demo(store, embedder)
            results = run_eval(load_questions(QUESTIONS_PATH), store, embedder, DEMO_COLLECTION, question_set="demo")
        finally:
            store.close()
    s = results["summary"]
    return {**{k: s.get(k) for k in KEYS}, "replayed": loaded.replayed, "embedded": loaded.embedded,
            "ranks": {r["id"]: r["rank"] for r in results["questions"] if r.get("in_base")}}


def main() -> None:
    started = time.monotonic()
    embedder = EmbeddedEmbedder(embed_threads())
    sides = {"first_section_only": measure(False, embedder), "every_section": measure(True, embedder)}
    a, b = sides["first_section_only"]["ranks"], sides["every_section"]["ranks"]
    changed = {q: [a[q], b[q]] for q in a if a[q] != b.get(q)}
    for name, side in sides.items():
        say(f"{name}: " + ", ".join(f"{k} {side[k]}" for k in KEYS))
    finish({"machine": machine(), "sides": sides, "rank_changes": changed}, RESULTS / "section_trail.json", started)


if __name__ == "__main__":
    main()
