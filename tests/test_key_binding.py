"""RAG_LLM_API_KEY goes only to the server it was configured for (break 1 of the security review),
and a password typed into a server URL is never shown (break 4)."""

from __future__ import annotations

import json

from rag.bounded_http import server_client, timeout
from rag.cli.main import main
from rag.config import Settings
from rag.embeddings.resolve import resolve_embedder
from rag.servers.chat import LLMClient
from rag.status import gather_status
from tests.fixtures.net import free_port

KEY = "llm-KEY-41f0c2"
PASSWORD = "hunter2-URLPASS"


def _keys_received(server) -> list[str]:
    return [r["headers"].get("Authorization", "") for r in server.requests]


def test_the_key_follows_its_server_not_a_url_changed_later(fake_embeddings_server, data_dir):
    home, elsewhere = fake_embeddings_server(), fake_embeddings_server()
    settings = Settings.from_env({"RAG_LLM_URL": home.url + "/", "RAG_LLM_API_KEY": KEY, "RAG_DATA_DIR": str(data_dir)})
    # What a session does when someone types another server in the sidebar: embeddings follow it.
    moved = settings.replace(llm_url=elsewhere.url, embed_url=elsewhere.url)

    with LLMClient.from_settings(moved) as client:
        client.list_models()
    resolve_embedder(moved)[0].embed_query("question")
    gather_status(moved)
    assert elsewhere.requests and not any(KEY in h for h in _keys_received(elsewhere))

    with LLMClient.from_settings(settings) as client:
        client.list_models()
    resolve_embedder(settings)[0].embed_query("question")
    assert home.requests and all(h == f"Bearer {KEY}" for h in _keys_received(home))


def test_a_client_sends_its_key_to_its_own_server_only(fake_embeddings_server):
    # Same host, another port: another server. Every client (chat, embeddings, rerank, model
    # lists) is built this way, so no address a server or a setting hands it later gets the key.
    home, elsewhere = fake_embeddings_server(), fake_embeddings_server()
    with server_client(home.url, KEY, timeout(5)) as http:
        http.get(home.url + "/models")
        http.get(elsewhere.url + "/models")
    assert _keys_received(home) == [f"Bearer {KEY}"]
    assert elsewhere.requests and not any(KEY in h for h in _keys_received(elsewhere))

def test_an_embeddings_server_of_its_own_never_gets_the_chat_key(fake_embeddings_server, data_dir):
    chat, embed = fake_embeddings_server(), fake_embeddings_server()
    settings = Settings.from_env({"RAG_LLM_URL": chat.url, "RAG_EMBED_URL": embed.url, "RAG_LLM_API_KEY": KEY})
    resolve_embedder(settings)[0].embed_query("question")
    assert embed.requests and not any(KEY in h for h in _keys_received(embed))


def test_a_password_in_a_server_url_is_shown_nowhere(fake_embeddings_server, data_dir, tmp_path, monkeypatch, capsys):
    server = fake_embeddings_server(dimension=16)
    secret_url = server.url.replace("http://", f"http://bob:{PASSWORD}@")
    monkeypatch.setenv("RAG_LLM_URL", secret_url)
    monkeypatch.setenv("RAG_EMBED_URL", secret_url)
    monkeypatch.delenv("RAG_EMBED_MODEL", raising=False)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Kerberos\n\nLe KDC délivre des tickets.\n", encoding="utf-8")
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": "q1", "question": "Que délivre le KDC ?", "expected_source": "a.md",
                                     "in_base": True}) + "\n", encoding="utf-8")

    shown = []
    for argv in (["status"], ["status", "--json"], ["ingest", str(docs)], ["eval", "--questions", str(questions),
                                                                           "--out", str(tmp_path / "out")]):
        main(argv)
        out, err = capsys.readouterr()
        shown.append(out + err)
    monkeypatch.setenv("RAG_EMBED_URL", f"http://bob:{PASSWORD}@127.0.0.1:{free_port()}/v1")
    main(["ingest", str(docs), "--collection", "other"])  # no server answers there: the message names it
    out, err = capsys.readouterr()
    shown.append(out + err)
    everything = "\n".join(shown)
    assert "bob:***" not in everything and PASSWORD not in everything
    assert "http://***@127.0.0.1" in everything  # the URL itself is still said
    results = (tmp_path / "out" / "results.json").read_text(encoding="utf-8")
    assert PASSWORD not in results
