"""The chat client over real HTTP against the LM Studio emulator."""

from __future__ import annotations

import pytest

from rag.servers import chat as llm_module
from rag.errors import LLMError
from rag.servers.chat import (
    ContextOverflow,
    IncompleteAnswer,
    LLMClient,
    LLMTimeout,
    ModelNotFound,
    NoModelLoaded,
    ServerUnreachable,
)
from rag.servers.models import ModelInfo
from tests.fixtures.lmstudio import DEFAULT_MODEL

MESSAGES = [{"role": "system", "content": "Réponds brièvement."}, {"role": "user", "content": "Bonjour ?"}]


def test_lists_models_with_type_state_and_loaded_context_length(lmstudio):
    lmstudio.models.append({"id": "text-embedding-nomic-embed-text-v1.5", "type": "embeddings",
                            "state": "not-loaded", "max_context_length": 2048, "loaded_context_length": None})
    models = {m.id: m for m in LLMClient(lmstudio.url).list_models()}
    assert models[DEFAULT_MODEL] == ModelInfo(id=DEFAULT_MODEL, type="llm", state="loaded",
                                              max_context_length=32768, loaded_context_length=4096)
    assert models["text-embedding-nomic-embed-text-v1.5"].type == "embeddings"
    assert models["text-embedding-nomic-embed-text-v1.5"].state == "not-loaded"


def test_falls_back_to_the_v1_native_api_then_to_plain_openai_models(lmstudio):
    lmstudio.native_api = "v1"
    lmstudio.load("qwen2-vl-7b-instruct", context_length=8192, type="vlm")
    models = {m.id: m for m in LLMClient(lmstudio.url).list_models()}
    assert models[DEFAULT_MODEL].loaded_context_length == 4096
    assert models["qwen2-vl-7b-instruct"].type == "vlm"

    lmstudio.native_api = None
    models = LLMClient(lmstudio.url).list_models()
    assert {m.type for m in models} == {"unknown"}
    assert LLMClient(lmstudio.url).context_length(DEFAULT_MODEL) is None


def test_chat_model_is_the_loaded_llm_not_the_embedding_model(lmstudio):
    lmstudio.models.insert(0, {"id": "text-embedding-qwen3-embedding-0.6b", "type": "embeddings",
                               "state": "loaded", "max_context_length": 32768, "loaded_context_length": 32768})
    client = LLMClient(lmstudio.url)
    assert client.chat_model() == DEFAULT_MODEL
    assert client.context_length(DEFAULT_MODEL) == 4096
    assert LLMClient(lmstudio.url, model="my-model").chat_model() == "my-model"


def test_no_chat_model_loaded_is_a_clear_error(lmstudio):
    lmstudio.unload_all()
    lmstudio.load("text-embedding-nomic-embed-text-v1.5", context_length=2048, type="embeddings")
    with pytest.raises(NoModelLoaded) as info:
        LLMClient(lmstudio.url).chat_model()
    message = str(info.value)
    assert "No chat model is loaded" in message and "lms load" in message
    assert "text-embedding-nomic-embed-text-v1.5" in message


def test_chat_request_with_nothing_loaded_gets_lm_studio_404_explained(lmstudio):
    lmstudio.unload_all()
    with pytest.raises(NoModelLoaded) as info:
        LLMClient(lmstudio.url, model=DEFAULT_MODEL).chat(MESSAGES)
    assert "no chat model loaded" in str(info.value)
    assert lmstudio.chat_calls == 1


def test_unknown_model_names_it_and_lists_the_loaded_ones(lmstudio):
    with pytest.raises(ModelNotFound) as info:
        LLMClient(lmstudio.url, model="mistral-7b-instruct").chat(MESSAGES)
    message = str(info.value)
    assert "'mistral-7b-instruct'" in message and DEFAULT_MODEL in message and "RAG_LLM_MODEL" in message


def test_streaming_assembles_the_same_text_as_non_streaming_and_exposes_usage(lmstudio):
    lmstudio.answer = "Kerberos utilise des tickets [1]. La commande `klist purge` les efface [2]."
    client = LLMClient(lmstudio.url)
    whole = client.chat(MESSAGES)
    stream = client.stream_chat(MESSAGES)
    pieces = list(stream)
    assert len(pieces) > 1
    assert "".join(pieces) == whole == lmstudio.answer == stream.text
    assert stream.usage["completion_tokens"] > 0 and stream.usage["prompt_tokens"] > 0
    assert stream.finish_reason == "stop"
    request = lmstudio.requests[-1]["body"]
    assert request["stream"] is True and request["model"] == DEFAULT_MODEL


def test_streaming_without_usage_from_the_server_still_works(lmstudio):
    lmstudio.stream_usage = False
    stream = LLMClient(lmstudio.url).stream_chat(MESSAGES)
    assert "".join(stream) == lmstudio.answer
    assert stream.usage is None


def test_context_overflow_says_to_load_a_larger_context(lmstudio):
    lmstudio.set_context_length(64)
    long = [{"role": "user", "content": "mot " * 400}]
    client = LLMClient(lmstudio.url)
    for call in (lambda: client.chat(long), lambda: "".join(client.stream_chat(long))):
        with pytest.raises(ContextOverflow) as info:
            call()
        message = str(info.value)
        assert "context length" in message and "--context-length" in message and "top k" in message


def test_an_error_sent_inside_a_200_stream_is_raised(lmstudio):
    lmstudio.stream_error_style = "inline"
    lmstudio.set_context_length(64)
    with pytest.raises(ContextOverflow):
        "".join(LLMClient(lmstudio.url).stream_chat([{"role": "user", "content": "mot " * 400}]))


def test_a_stream_that_ends_unfinished_is_an_error_not_an_empty_answer(lmstudio):
    lmstudio.stream_error_style = "empty"
    lmstudio.set_context_length(64)
    with pytest.raises(IncompleteAnswer, match="closed the stream before the answer was finished"):
        "".join(LLMClient(lmstudio.url).stream_chat([{"role": "user", "content": "mot " * 400}]))


def test_server_down_names_the_url_and_what_to_do(lmstudio, tmp_path, monkeypatch):
    monkeypatch.setattr(llm_module, "DOCKERENV", tmp_path / "absent")  # as on a desktop
    url = lmstudio.url
    lmstudio.down()
    client = LLMClient(url)
    for call in (client.list_models, lambda: client.chat(MESSAGES)):
        with pytest.raises(ServerUnreachable) as info:
            call()
        message = str(info.value)
        assert url in message and "RAG_LLM_URL" in message and "lms server start" in message
        assert "host.docker.internal" not in message


def test_in_a_container_localhost_gets_the_host_docker_internal_hint(tmp_path, monkeypatch):
    marker = tmp_path / ".dockerenv"
    marker.write_text("")
    monkeypatch.setattr(llm_module, "DOCKERENV", marker)
    with pytest.raises(ServerUnreachable) as info:
        # Port 9 (discard) is closed on this machine: nothing answers there.
        LLMClient("http://localhost:9/v1").list_models()
    assert "http://host.docker.internal:1234/v1" in str(info.value)


def test_a_slow_server_times_out_with_a_clear_message(lmstudio):
    lmstudio.delay = 2.0
    client = LLMClient(lmstudio.url, model=DEFAULT_MODEL, timeout=0.3)
    with pytest.raises(LLMTimeout) as info:
        client.chat(MESSAGES)
    assert "RAG_TIMEOUT" in str(info.value)
    with pytest.raises(LLMTimeout):
        "".join(client.stream_chat(MESSAGES))


def test_a_short_calls_timeout_covers_the_model_list_it_reads_first(lmstudio):
    # No model configured: the call reads the server's list before asking. Its timeout (a lever's
    # few seconds) is the whole call's, never the client's long RAG_TIMEOUT.
    lmstudio.models_delay, lmstudio.delay = 3.0, 0.0
    with LLMClient(lmstudio.url, timeout=60) as client, pytest.raises(LLMTimeout) as info:
        client.chat(MESSAGES, timeout=0.3)
    assert "0.3 s to list its models" in str(info.value) and lmstudio.chat_calls == 0
    # Each part alone within it, both together past it: the call still stops at its timeout.
    lmstudio.models_delay, lmstudio.delay = 0.6, 0.6
    with LLMClient(lmstudio.url, timeout=60) as client, pytest.raises(LLMTimeout) as info:
        client.chat(MESSAGES, timeout=1.0)
    assert "1 s to answer" in str(info.value)
    lmstudio.models_delay = lmstudio.delay = 0.0
    with LLMClient(lmstudio.url, timeout=60) as client:
        assert client.chat(MESSAGES, timeout=1.0) == lmstudio.answer


def test_pasted_endpoint_urls_are_accepted(lmstudio):
    client = LLMClient(lmstudio.url + "/chat/completions/")
    assert client.base_url == lmstudio.url
    assert client.chat(MESSAGES) == lmstudio.answer


def test_a_password_in_the_url_never_shows_in_errors(lmstudio):
    url = lmstudio.url.replace("http://", "http://user:s3cr3t-pass@")
    lmstudio.down()
    with pytest.raises(LLMError) as info:
        LLMClient(url).list_models()
    assert "s3cr3t-pass" not in str(info.value)
