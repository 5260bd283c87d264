"""An evaluation is made under its runner's groups (break 9 of the security review) and a session
sees only the runs made with groups it holds (break 10)."""

from __future__ import annotations

import dataclasses

import pytest

from rag.config import Settings
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.evaluate.questions import parse_jsonl
from rag.evaluate.runner import run_eval
from rag.evaluate.runs import list_runs, new_run_dir, write_results
from rag.evaluate.runs import visible_to
from rag.ingest.run import ingest
from rag.store.store import Store
from tests.evaluate.eval_corpus import DOCS

QUESTIONS = parse_jsonl(
    '{"id": "q1", "question": "Comment effacer les tickets Kerberos en cache ?", "expected_source": "kerberos.md", '
    '"in_base": true}\n'
    '{"id": "q2", "question": "Qui change le mot de passe administrateur local ?", "expected_source": "laps.md", '
    '"in_base": true}\n'
    '{"id": "q3", "question": "Qui change le mot de passe administrateur local ?", "expected_source": "nowhere.md", '
    '"in_base": true}\n'
)


@pytest.fixture(scope="module")
def staff_index(tmp_path_factory):
    """The tiny corpus with laps.md readable by "staff" only."""
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"))
    store = Store(settings)
    embedder = EmbeddedEmbedder(threads=1)
    docs = [dataclasses.replace(d, access=["staff"]) if d.url == "laps.md" else d for d in DOCS]
    assert ingest(docs, store, embedder, "blog", strategy="sections").ok
    yield settings, store, embedder
    store.close()


def test_a_private_expected_source_looks_exactly_like_a_missing_one(staff_index):
    settings, store, embedder = staff_index
    public = run_eval(QUESTIONS, store, embedder, "blog", top_k=3, groups=["public"])["summary"]
    assert public["unknown_sources"] == ["laps.md", "nowhere.md"]  # private and absent: the same
    assert public["points"] == store.count("blog", groups=["public"]) < store.count("blog")
    assert public["groups"] == ["public"]

    staff = run_eval(QUESTIONS, store, embedder, "blog", top_k=3, groups=["public", "staff"])["summary"]
    assert staff["unknown_sources"] == ["nowhere.md"] and staff["points"] == store.count("blog")
    everything = run_eval(QUESTIONS, store, embedder, "blog", top_k=3)["summary"]
    assert everything["unknown_sources"] == ["nowhere.md"] and everything["groups"] is None


def test_a_session_sees_only_runs_made_with_groups_it_holds(staff_index, tmp_path):
    _, store, embedder = staff_index
    settings = Settings(data_dir=tmp_path / "data")
    for groups in (["public"], ["public", "staff"], None):
        results = run_eval(QUESTIONS, store, embedder, "blog", top_k=3, groups=groups)
        write_results(results, new_run_dir(settings, "blog"))

    def seen(groups):
        return sorted(str(r["groups"]) for r in list_runs(settings, groups))

    assert seen(["public"]) == ["['public']"]
    assert seen(["public", "staff"]) == ["['public', 'staff']", "['public']"]
    assert seen(None) == ["None", "['public', 'staff']", "['public']"]  # the command line sees every run


@pytest.mark.parametrize("run_groups, session, visible", [
    (["public"], ["public", "staff"], True),
    (["public", "staff"], ["public"], False),
    (None, ["public", "staff"], False),  # an unfiltered run (or one from before runs kept groups)
    ("public", ["public"], False),  # not a list: not trusted
    (None, None, True),
])
def test_which_runs_a_session_may_see(run_groups, session, visible):
    assert visible_to(run_groups, session) is visible
