"""The demo's shipped vectors: the same as the bundled model's, used only where model, strategy,
settings and text are the same, and a changed article embedded again."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from rag.chunking import DEFAULT_STRATEGY, default_settings
from rag.config import Settings
from rag.demo import DEMO_COLLECTION, DEMO_DIR, QUESTIONS_PATH, load_demo
from rag.demo import vectors as shipped_vectors
from rag.demo.vectors import RecordingEmbedder, ReplayingEmbedder, read, replaying, text_key
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.evaluate.questions import load_questions
from rag.store.store import Store
from rag.sources.files import iter_folder


class _Seen(ReplayingEmbedder):
    """Keeps the texts it was asked for, and which of them went to the model."""

    def __init__(self, inner, shipped) -> None:
        super().__init__(inner, shipped)
        self.texts: dict[str, str] = {}  # label -> text
        self.sent: list[str] = []

    def embed_documents(self, texts, labels=None):
        for label, text in zip(labels or [], texts):
            self.texts[label] = text
            if text_key(text) not in self.shipped.documents:
                self.sent.append(label)
        return super().embed_documents(texts, labels)


@pytest.fixture(scope="module")
def model() -> EmbeddedEmbedder:
    return EmbeddedEmbedder(threads=1)


@pytest.fixture
def store(tmp_path):
    store = Store(Settings(data_dir=tmp_path / "data", qdrant_url=None))
    yield store
    store.close()


def _cosine(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_the_shipped_file_is_small_and_names_what_made_it(model):
    shipped = read()
    assert shipped is not None
    assert shipped_vectors.VECTORS_PATH.stat().st_size < 200_000
    assert shipped.fits(model.model_id, DEFAULT_STRATEGY, default_settings(DEFAULT_STRATEGY))
    assert shipped.dimension == model.dimension


def test_loading_the_demo_needs_no_model_call_and_matches_the_model(store, model):
    shipped = read()
    seen = _Seen(model, shipped)
    loaded = load_demo(store, seen, use_shipped=False)  # `seen` already replays
    assert loaded.report.ok and loaded.report.new == 14
    assert seen.sent == [] and seen.embedded == 0  # every chunk and question came from the file
    assert loaded.threshold is not None
    # A sample of chunks and questions, embedded now by the bundled model: the shipped vectors
    # are the same to within int8's rounding.
    labels = sorted(seen.texts)[:: max(1, len(seen.texts) // 6)]
    fresh = model.embed_documents([seen.texts[label] for label in labels])
    for label, vector in zip(labels, fresh):
        assert _cosine(vector, shipped.documents[text_key(seen.texts[label])]) > 0.9995, label
    questions = [q.question for q in load_questions(QUESTIONS_PATH)]
    for question in (questions[0], questions[-1]):
        assert _cosine(model.embed_query(question), shipped.queries[text_key(question)]) > 0.9995


def test_a_changed_article_is_embedded_again(store, model, tmp_path):
    folder = tmp_path / "articles"
    shutil.copytree(DEMO_DIR, folder)
    changed = folder / "setspn-doublons.md"
    text = changed.read_text(encoding="utf-8")
    changed.write_text(text.replace("\n## ", "\n\nUne phrase ajoutée depuis.\n\n## ", 1), encoding="utf-8")
    seen = _Seen(model, read())
    loaded = load_demo(store, seen, use_shipped=False, items=list(iter_folder(folder)))
    assert loaded.report.ok and loaded.report.new == 14
    assert seen.sent and all(label.startswith("setspn-doublons.md#") for label in seen.sent)
    assert loaded.embedded == len(seen.sent) and loaded.replayed > 0
    # What was stored for the changed chunk is the model's vector of its new text.
    label = seen.sent[0]
    [point] = store.get_points(DEMO_COLLECTION, [_point_id(store, label)], with_vectors=True)
    expected = model.embed_documents([seen.texts[label]])[0]
    assert _cosine(point.vector, expected) > 0.99999


def _point_id(store, label: str) -> str:
    from rag.store.points import point_id

    url, index = label.rsplit("#", 1)
    return point_id(url, int(index))


def test_another_model_strategy_or_setting_is_embedded_as_before(model, tmp_path):
    chosen = replaying(model, DEFAULT_STRATEGY, default_settings(DEFAULT_STRATEGY))
    assert isinstance(chosen, ReplayingEmbedder)
    assert replaying(model, "sections", default_settings("sections")) is model
    assert replaying(model, DEFAULT_STRATEGY, {**default_settings(DEFAULT_STRATEGY), "chunk_size": 500}) is model
    other = RecordingEmbedder(model)
    other.model_id = "lmstudio:text-embedding-bge-m3"
    assert replaying(other, DEFAULT_STRATEGY, default_settings(DEFAULT_STRATEGY)) is other
    damaged = tmp_path / "vectors.npz"
    damaged.write_bytes(shipped_vectors.VECTORS_PATH.read_bytes()[:1000])
    assert read(damaged) is None
    assert replaying(model, DEFAULT_STRATEGY, default_settings(DEFAULT_STRATEGY), path=damaged) is model
    assert read(Path(tmp_path / "absent.npz")) is None


def test_quantization_keeps_every_digest_and_direction(tmp_path):
    # A digest may end with NUL bytes: numpy's fixed-width bytes would strip them.
    rng = np.random.default_rng(3)
    keys = [bytes(31) + b"\x01", bytes(31) + b"\x00", bytes(range(32))]
    vectors = rng.standard_normal((3, 8)).astype(np.float32)
    shipped = shipped_vectors.ShippedVectors("m", 8, "markdown", {"chunk_size": 1}, dict(zip(keys, vectors)),
                                             {keys[1]: vectors[0]})
    back = read(shipped_vectors.write(shipped, tmp_path / "v.npz"))
    assert back is not None and set(back.documents) == set(keys) and set(back.queries) == {keys[1]}
    for key, vector in zip(keys, vectors):
        assert _cosine(back.documents[key], vector) > 0.9995


def test_the_demo_s_saved_floor_is_the_one_its_questions_suggest_on_the_evaluate_page(model, store):
    """Bug: the load-time calibration replayed the shipped questions with retrieval's bare defaults,
    not the context options readers get: it saved 0.834 where a run of the same questions on the
    Evaluate page (rag eval's replay) suggested 0.820."""
    from rag.evaluate.results import Results
    from rag.evaluate.session import EvalSession

    saved = load_demo(store, model).threshold
    session = EvalSession(store.settings, store, load_questions(QUESTIONS_PATH), question_set="demo")
    suggested = Results.of(session.run(DEMO_COLLECTION)).summary.suggested_threshold
    assert saved is not None and saved == suggested
    assert store.collection_info(DEMO_COLLECTION)["threshold"] == saved
