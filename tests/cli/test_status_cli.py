"""`rag status`: what runs, what is indexed; never an API key."""

from __future__ import annotations

import json

from rag.cli.main import main
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.remote import OpenAIEmbedder
from rag.ingest.run import ingest
from rag.status import gather_status
from rag.store.store import Store


def _index(data_dir, server) -> None:
    store = Store(Settings(data_dir=data_dir))
    embedder = OpenAIEmbedder(server.url, server.model, timeout=10)
    docs = [Document(url="a.md", title="A", markdown="## Un\n\nPremier texte.\n\n## Deux\n\nSecond texte.")]
    ingest(docs, store, embedder, "blog", strategy="sections")
    store.set_threshold("blog", 0.79)
    embedder.close()


def test_status_json_lists_the_collection_with_its_metadata(data_dir, fake_embeddings_server, monkeypatch, capsys):
    server = fake_embeddings_server(dimension=16)
    _index(data_dir, server)
    monkeypatch.setenv("RAG_LLM_URL", server.url)
    monkeypatch.setenv("RAG_LLM_API_KEY", "llm-secret-value")
    assert main(["status", "--json"]) == 0
    out = capsys.readouterr().out
    assert "llm-secret-value" not in out
    status = json.loads(out)
    assert status["llm"]["reachable"] is True
    models = {m["id"]: m for m in status["llm"]["models"]}
    assert models[server.model]["type"] == "embeddings" and models[server.model]["loaded"] is True
    assert models["qwen3-4b-chat"]["context_length"] == 8192
    qdrant = status["qdrant"]
    assert qdrant["backend"] == "embedded" and qdrant["location"] == str((data_dir / "qdrant").resolve())
    [blog] = qdrant["collections"]
    assert blog["name"] == "blog" and blog["points"] == 2
    assert blog["embedding_model"] == server.model and blog["dimension"] == 16
    assert blog["distance"] == "Cosine" and blog["strategy"] == "sections"
    assert blog["threshold"] == 0.79 and blog["created"] and blog["updated"]
    assert isinstance(blog["chunk_settings"], dict)


def test_status_text_when_lm_studio_is_down(data_dir, monkeypatch, capsys):
    monkeypatch.setenv("RAG_LLM_URL", "http://127.0.0.1:9/v1")
    assert main(["status"]) == 0
    out = capsys.readouterr().out
    assert "LM Studio: NOT reachable at http://127.0.0.1:9/v1" in out
    assert "Qdrant: embedded at" in out and "0 collections" in out


def test_server_backend_unreachable_is_reported_without_the_key(data_dir):
    settings = Settings(data_dir=data_dir, qdrant_url="http://127.0.0.1:9", qdrant_api_key="qdrant-secret",
                        llm_url="http://127.0.0.1:9/v1", timeout=2)
    status = gather_status(settings)
    assert status["qdrant"]["backend"] == "server" and status["qdrant"]["reachable"] is False
    assert "http://127.0.0.1:9" in status["qdrant"]["error"]
    assert "qdrant-secret" not in json.dumps(status)


def test_status_says_which_embedding_model_a_new_collection_gets(data_dir, fake_embeddings_server, monkeypatch, capsys):
    server = fake_embeddings_server(dimension=16)
    monkeypatch.delenv("RAG_EMBED_MODEL", raising=False)
    monkeypatch.setenv("RAG_LLM_URL", server.url)
    monkeypatch.delenv("RAG_EMBED_URL", raising=False)
    main(["status"])
    assert f"the server's embedding model {server.model}" in capsys.readouterr().out

    monkeypatch.setenv("RAG_LLM_URL", "http://127.0.0.1:9/v1")
    main(["status"])
    assert "no server answers, so the bundled multilingual-e5-small" in capsys.readouterr().out

    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    main(["status"])
    assert "RAG_EMBED_MODEL=embedded" in capsys.readouterr().out


def test_status_says_when_a_collection_changed_in_local_time_to_the_minute(monkeypatch):
    """It printed the stored UTC stamp, 'updated 2026-11-30T14:28:05+00:00', to a reader in Paris."""
    import time

    from rag.status import format_status

    status = {
        "llm": {"reachable": False, "url": "http://127.0.0.1:9/v1"},
        "embeddings": {"choice": "RAG_EMBED_MODEL=embedded"},
        "qdrant": {"backend": "embedded", "location": "/data/qdrant", "reachable": True, "collections": [
            {"name": "blog", "points": 7, "embedding_model": "embedded:multilingual-e5-small", "dimension": 384,
             "strategy": "markdown", "threshold": None, "updated": "2026-11-30T14:28:05+00:00"}]},
    }
    monkeypatch.setenv("TZ", "CET-1")  # one hour east of UTC, as Paris in winter
    time.tzset()
    try:
        text = format_status(status)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert text.rstrip().endswith("updated 2026-11-30 15:28")
