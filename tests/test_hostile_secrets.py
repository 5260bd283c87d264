"""Secrets never leave: the Qdrant API key, the WordPress application password and the LLM key are
set to recognisable values, every command is run (including failures, and servers that echo the
key back in their errors), and no output, log or results file may contain them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.redact import redact
from tests.fixtures.embeddings_server import FakeEmbeddingsServer, _handler
from tests.fixtures.net import free_port, start_http_server, stop_http_server
from tests.fixtures.wordpress import load_real_posts

QDRANT_KEY = "qdrant-SECRET-5a1b7e"
LLM_KEY = "llm-SECRET-9c8d2f"
WP_PASSWORD = "Zq9x SECR 7Tw2 Lm4k Pp0o Rr8s"
WRONG_WP_PASSWORD = "Wr0n SECR g5Pa ss0w rd11 zzzz"
SECRETS = [QDRANT_KEY, LLM_KEY, WP_PASSWORD, WP_PASSWORD.replace(" ", ""), WRONG_WP_PASSWORD,
           WRONG_WP_PASSWORD.replace(" ", "")]


def _leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


@pytest.fixture
def setup(fake_embeddings_env, lmstudio, make_wp_server, monkeypatch, capsys):
    wp = make_wp_server(posts=load_real_posts("frontity")[:2])
    wp.users[wp.username] = WP_PASSWORD
    wp.add_post("Runbook interne", "<p>La rotation des clés a lieu le lundi.</p>", status="private")
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    monkeypatch.setenv("RAG_LLM_API_KEY", LLM_KEY)
    monkeypatch.setenv("RAG_QDRANT_API_KEY", QDRANT_KEY)  # set, though the embedded store ignores it
    monkeypatch.setenv("RAG_WP_USER", wp.username)
    monkeypatch.setenv("RAG_WP_APP_PASSWORD", WP_PASSWORD)
    monkeypatch.setenv("RAG_TIMEOUT", "5")
    return wp


class Transcript:
    """Everything the commands printed."""

    def __init__(self, capsys) -> None:
        self.capsys = capsys
        self.text: list[str] = []

    def run(self, *argv: str) -> int:
        status = main(list(argv))
        out, err = self.capsys.readouterr()
        self.text += [out, err]
        return status

    def all(self) -> str:
        return "\n".join(self.text)


def _files_text(root: Path) -> str:
    parts = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".json", ".jsonl", ".csv", ".txt", ".log", ".md"):
            parts.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


def test_no_secret_in_any_output_log_or_results_file(setup, lmstudio, data_dir, tmp_path, capsys, monkeypatch):
    wp = setup
    t = Transcript(capsys)

    # Ingest with the password from the environment, then in the URL, then a wrong one.
    assert t.run("ingest", wp.url) == 0
    host = wp.url.split("://", 1)[1]
    assert t.run("ingest", f"http://{wp.username}:{WP_PASSWORD.replace(' ', '%20')}@{host}", "--json") == 0
    assert t.run("ingest", wp.url, "--app-password", WRONG_WP_PASSWORD) == 2
    assert "refused the credentials" in t.text[-1] + t.text[-2]

    # Status, as text and as JSON.
    assert t.run("status") == 0
    assert t.run("status", "--json") == 0

    # Answers: one citing an extract that was not given (logged to answers.jsonl), one where the
    # server's error echoes the key back.
    lmstudio.answer = "La rotation a lieu le lundi [1] [9]."
    assert t.run("ask", "Quand a lieu la rotation des clés ?", "--threshold", "-1", "--min-coverage", "0") == 0
    assert (data_dir / "logs" / "answers.jsonl").exists()
    lmstudio.force_error = (401, {"error": {"message": f"Invalid API key: {LLM_KEY}", "code": "invalid_api_key"}})
    assert t.run("ask", "Quand a lieu la rotation des clés ?", "--threshold", "-1", "--min-coverage", "0", "--json") == 1
    assert "401" in t.text[-2]

    # An evaluation with the chat model, results written to a folder.
    lmstudio.force_error = None
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"id": "q1", "question": "Quand a lieu la rotation des clés ?",
                                     "expected_source": None, "in_base": False}) + "\n", encoding="utf-8")
    t.run("eval", "--questions", str(questions), "--out", str(tmp_path / "eval"))

    # Qdrant server mode, nothing listening: the error names the URL, not the key.
    monkeypatch.setenv("RAG_QDRANT_URL", f"http://127.0.0.1:{free_port()}")
    assert t.run("status") == 1
    assert t.run("ask", "Une question ?") == 2

    assert _leaks(t.all()) == [], t.all()
    assert _leaks(_files_text(data_dir)) == []
    assert _leaks(_files_text(tmp_path / "eval")) == []
    assert (tmp_path / "eval" / "results.json").exists()


def test_chat_server_errors_never_carry_the_key(lmstudio):
    from rag.servers.chat import LLMClient

    lmstudio.force_error = (403, {"error": f"forbidden for Authorization: Bearer {LLM_KEY}"})
    client = LLMClient(lmstudio.url, api_key=LLM_KEY)
    with pytest.raises(Exception) as caught:
        client.chat([{"role": "user", "content": "bonjour"}])
    assert LLM_KEY not in str(caught.value) and "403" in str(caught.value)


class _EchoingEmbeddings(FakeEmbeddingsServer):
    """An embeddings server behind a proxy that quotes the refused key in its error."""

    refuse = False

    def answer(self, method, path, body):
        if self.refuse and method == "POST" and path == "/v1/embeddings":
            return 401, {"error": {"message": f"Incorrect API key provided: {LLM_KEY}"}}
        return super().answer(method, path, body)


def test_embeddings_server_errors_never_carry_the_key():
    from rag.embeddings.remote import OpenAIEmbedder
    from rag.errors import EmbeddingError

    state = _EchoingEmbeddings(url="", root="", dimension=8)
    httpd, thread, port = start_http_server(_handler(state))
    try:
        embedder = OpenAIEmbedder(f"http://127.0.0.1:{port}/v1", state.model, api_key=LLM_KEY)
        embedder.dimension  # noqa: B018 - measured once while the server accepts the key
        state.refuse = True
        with pytest.raises(EmbeddingError) as caught:
            embedder.embed_documents(["texte"])
        assert LLM_KEY not in str(caught.value) and "401" in str(caught.value)
        embedder.close()
    finally:
        stop_http_server(httpd, thread)


def test_redaction_covers_the_forms_a_secret_takes():
    text = f"key={LLM_KEY} url=http://u:{WP_PASSWORD.replace(' ', '%20')}@h/ raw {WP_PASSWORD.replace(' ', '')}"
    assert _leaks(redact(text, [LLM_KEY, WP_PASSWORD])) == []
