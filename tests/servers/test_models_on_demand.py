"""Whether LM Studio loads a model it has not loaded at its first request (Just-In-Time loading),
read from its own lists on the emulator: `rag status` says it for each model not loaded, and an
answer's model read does not pay the extra request."""

from __future__ import annotations

import json

from rag.cli.main import main
from rag.servers.chat import LLMClient

EMBED = "text-embedding-nomic-embed-text-v1.5"


def _openai_lists(lmstudio) -> int:
    return sum(1 for r in lmstudio.requests if r["path"].rstrip("/") == "/v1/models")


def test_jit_on_off_and_unknown(lmstudio):
    with LLMClient(lmstudio.url) as client:
        assert client.models(on_demand=True).loads_on_demand is None  # everything loaded: nothing to tell
        lmstudio.download(EMBED, type="embeddings")
        server = client.models(on_demand=True)
        assert server.loads_on_demand is True
        assert [m.id for m in server.unloaded_embedding_models] == [EMBED]
        lmstudio.jit = False
        assert client.models(on_demand=True).loads_on_demand is False
        before = _openai_lists(lmstudio)
        assert client.models().loads_on_demand is None
        assert _openai_lists(lmstudio) == before  # the chat path reads one list, as before


def test_rag_status_says_how_a_model_not_loaded_gets_loaded(data_dir, lmstudio, monkeypatch, capsys):
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    lmstudio.download(EMBED, type="embeddings")
    assert main(["status"]) == 0
    assert f"{EMBED} (embeddings, not loaded, loaded at the first request (JIT)" in capsys.readouterr().out
    lmstudio.jit = False
    assert main(["status", "--json"]) == 0
    llm = json.loads(capsys.readouterr().out)["llm"]
    assert llm["loads_on_demand"] is False
    assert [m["id"] for m in llm["embedding_not_loaded"]] == [EMBED] and llm["embedding_models"] == []
    assert main(["status"]) == 0
    assert f"{EMBED} (embeddings, not loaded, to be loaded in LM Studio (JIT off)" in capsys.readouterr().out
