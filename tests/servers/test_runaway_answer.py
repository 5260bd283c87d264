"""A chat server that ignores max_tokens cannot stream without end: the answer is stopped at a
size set by max_tokens, after a time set by RAG_TIMEOUT, and at a line no answer holds; the Ask
page renders a streaming answer a bounded number of times, not once a piece."""

from __future__ import annotations

import json
import time

import pytest

from rag.servers.chat import LLMClient, RunawayAnswer
from rag.cli.main import main
from ui.ask_view import REDRAW_EVERY, stream_live

MESSAGES = [{"role": "user", "content": "Qui délivre les tickets Kerberos ?"}]
GUARD_CHARS = 5_000_000  # the test's own stop, far past the cap, so that it ends before a fix too


def _drain(stream, seconds: float = 20.0) -> int:
    received, began = 0, time.monotonic()
    for piece in stream:
        received += len(piece)
        assert received < GUARD_CHARS and time.monotonic() - began < seconds, "the answer never stopped"
    return received


def test_an_answer_past_what_max_tokens_allows_is_stopped(lmstudio):
    lmstudio.runaway = "encore "
    with LLMClient(lmstudio.url) as llm:
        stream = llm.stream_chat(MESSAGES, max_tokens=100)
        with pytest.raises(RunawayAnswer, match="ignores max_tokens"):
            _drain(stream)
        assert len(stream.text) <= 100 * 8


def test_an_answer_still_streaming_after_its_time_is_stopped(lmstudio):
    lmstudio.runaway, lmstudio.runaway_delay = "x", 0.05  # a trickle: each read is quick
    with LLMClient(lmstudio.url, timeout=1.0) as llm:  # the answer may take five of them
        with pytest.raises(RunawayAnswer, match="still streaming"):
            _drain(llm.stream_chat(MESSAGES, max_tokens=10_000_000))


def test_a_line_no_answer_holds_is_not_read_whole(lmstudio):
    lmstudio.runaway, lmstudio.runaway_line, lmstudio.runaway_bytes = "x" * 1000, True, 20_000_000
    with LLMClient(lmstudio.url) as llm:
        with pytest.raises(RunawayAnswer, match="a line of more than"):
            _drain(llm.stream_chat(MESSAGES, max_tokens=100))


def test_rag_ask_says_why_the_runaway_answer_was_stopped(lmstudio, data_dir, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "k.md").write_text("# Kerberos\n\nLe KDC délivre les tickets Kerberos.\n", encoding="utf-8")
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    assert main(["ingest", str(folder), "--collection", "k"]) == 0
    capsys.readouterr()
    lmstudio.runaway = "encore "
    main(["ask", "Qui délivre les tickets Kerberos ?", "--collection", "k", "--json", "--threshold", "0"])
    data = json.loads(capsys.readouterr().out)
    assert data["answer"] is None and "ignores max_tokens" in data["llm_error"]
    assert data["passages"]  # the passages are still shown


class _Live:
    def __init__(self) -> None:
        self.shown: list[str] = []

    def markdown(self, text: str) -> None:
        self.shown.append(text)


class _Stream:
    def __init__(self, pieces: int) -> None:
        self.pieces, self.text = pieces, ""

    def __iter__(self):
        for _ in range(self.pieces):
            self.text += "mot "
            yield "mot "


def test_the_ask_page_renders_a_long_stream_a_bounded_number_of_times():
    clock = iter(i * 0.001 for i in range(100_000))  # a piece every millisecond
    live = _Live()
    assert stream_live(_Stream(10_000), live, clock=lambda: next(clock)) is None
    # ten seconds of pieces: one render per REDRAW_EVERY, not 10,000 whole-text sanitisations
    assert 1 <= len(live.shown) <= 10 / REDRAW_EVERY + 1
    assert live.shown[0].strip() == "mot"
