"""A collection keeps one strategy and one embedding model: re-runs follow them, changes are refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.store.store import Store
from tests.fixtures.files import write_file

ARTICLE = (
    "---\ntitle: Tickets Kerberos\n---\n\n## Lister\n\n" + "La commande klist affiche les tickets. " * 40
    + "\n\n## Purger\n\n" + "La commande klist purge vide le cache. " * 40 + "\n"
)


@pytest.fixture
def folder(tmp_path) -> Path:
    return write_file(tmp_path / "blog", "klist.md", ARTICLE).parent


@pytest.fixture
def server(data_dir, fake_embeddings_server, monkeypatch):
    server = fake_embeddings_server(dimension=16)
    monkeypatch.setenv("RAG_EMBED_URL", server.url)
    monkeypatch.setenv("RAG_LLM_URL", server.url)
    return server


@pytest.fixture(scope="module")
def built_offline(tmp_path_factory) -> Path:
    """A data folder whose collection 'offline' was built from ARTICLE with the bundled model,
    once for the module (the model's time is the slow part); each test works on a copy."""
    root = tmp_path_factory.mktemp("offline")
    (root / "blog").mkdir()
    (root / "blog" / "klist.md").write_text(ARTICLE, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAG_DATA_DIR", str(root / "data"))
        mp.setenv("RAG_EMBED_MODEL", "embedded")
        assert main(["ingest", str(root / "blog"), "--collection", "offline"]) == 0
    return root / "data"


@pytest.fixture
def offline(built_offline, data_dir, monkeypatch) -> str:
    shutil.copytree(built_offline, data_dir)
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    return "offline"


def _info(data_dir: Path, collection: str) -> dict:
    return Store(Settings(data_dir=data_dir)).collection_info(collection)


def test_a_rerun_without_strategy_keeps_the_collections_own(folder, server, data_dir, monkeypatch, capsys):
    monkeypatch.setenv("RAG_EMBED_MODEL", server.model)
    assert main(["ingest", str(folder), "--collection", "base", "--strategy", "recursive"]) == 0
    points = _info(data_dir, "base")["points"]
    capsys.readouterr()

    (folder / "klist.md").write_text(ARTICLE + "\n## Ajout\n\nUne section de plus.\n", encoding="utf-8")
    assert main(["ingest", str(folder), "--collection", "base"]) == 0
    err = capsys.readouterr().err
    assert "strategy recursive" in err
    info = _info(data_dir, "base")
    assert info["strategy"] == "recursive"
    assert info["points"] >= points


def test_another_strategy_on_a_built_collection_is_refused_and_changes_nothing(folder, server, data_dir, monkeypatch, capsys):
    monkeypatch.setenv("RAG_EMBED_MODEL", server.model)
    assert main(["ingest", str(folder), "--collection", "base", "--strategy", "sections"]) == 0
    before = {p.id: p.payload for p in Store(Settings(data_dir=data_dir)).scroll("base")}
    capsys.readouterr()

    assert main(["ingest", str(folder), "--collection", "base", "--strategy", "recursive"]) == 2
    err = capsys.readouterr().err
    assert "sections" in err and "recursive" in err and "--full" in err
    after = {p.id: p.payload for p in Store(Settings(data_dir=data_dir)).scroll("base")}
    assert after == before and _info(data_dir, "base")["strategy"] == "sections"

    assert main(["ingest", str(folder), "--collection", "base", "--strategy", "recursive", "--full"]) == 0
    assert _info(data_dir, "base")["strategy"] == "recursive"


def test_auto_mode_reuses_the_model_that_built_the_collection(offline, folder, server, data_dir, monkeypatch,
                                                              capsys):

    # Later an embeddings server answers, and RAG_EMBED_MODEL is unset (auto): the collection
    # was built with the bundled model, so that model keeps being used, with no mixed vectors.
    monkeypatch.delenv("RAG_EMBED_MODEL")
    (folder / "klist.md").write_text(ARTICLE + "\n## Ajout\n\nUne section de plus.\n", encoding="utf-8")
    # The copied collection was built from another folder: its document is this folder's to
    # replace only when asked (a file's identity includes its folder).
    assert main(["ingest", str(folder), "--collection", "offline", "--replace"]) == 0
    out, err = capsys.readouterr()
    assert "embedded" in err.splitlines()[0]
    assert "1 changed" in out
    assert server.embedding_requests == []
    assert _info(data_dir, "offline")["embedding_model"].startswith("embedded")


@pytest.mark.parametrize("command", [["ingest", "FOLDER"], ["ask", "Quelle commande purge les tickets ?", "--json"]])
def test_another_embedding_model_of_another_size_names_both_models(offline, folder, server, data_dir, monkeypatch,
                                                                    capsys, command):
    built_with = _info(data_dir, "offline")["embedding_model"]
    before = {p.id: p.payload for p in Store(Settings(data_dir=data_dir)).scroll("offline")}
    capsys.readouterr()

    monkeypatch.setenv("RAG_EMBED_MODEL", server.model)  # 16 dimensions, the collection has 384
    args = [str(folder) if a == "FOLDER" else a for a in command]
    assert main([*args, "--collection", "offline"]) == 2
    err = capsys.readouterr().err
    assert built_with in err and server.model in err, err
    assert "384 dimensions" in err
    after = {p.id: p.payload for p in Store(Settings(data_dir=data_dir)).scroll("offline")}
    assert after == before
