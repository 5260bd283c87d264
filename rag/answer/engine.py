"""The one answer path: question -> retriever -> gate -> context -> synthesizer -> citations -> logs.

`rag ask`, the Ask page and the evaluation all answer through an `AnswerEngine`, so that one
question with one set of settings gets one decision and one set of passages wherever it is asked:

    engine = AnswerEngine(settings, store, collection="blog")
    response = engine.ask(question)                                 # retrieval and gate, at once
    for piece in response:                                          # the model's text, as it streams
        show(response.text)
    result = response.result                                        # the checked answer (AskResult)

Each step is a part of its own, and the evaluation calls them one by one on the same engine:
`retrieve(question)` (rag.answer.retrieve), `gate(question, passages)` (rag.answer.gate: the verdict),
`respond(question, passages, decision)` (the context within the model's window, rag.answer.pipeline;
the chat model's stream; the citations check; answers.jsonl). Every finished answer goes to the
engine's recorders (the journal of questions), whoever asked.

A conversation goes through `chat(question, history) -> Turn` (rag.answer.turn): small talk, the
follow-up judged as asked then made standalone, the gate before any answer call, the stream, a stop.
The gate is injected (`gate=`, a rag.answer.gating.Gate): a new gate is a new object, not a new path.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from rag.answer import followup, small_talk
from rag.answer.gate import ANSWER, UNKNOWN_NAMES, Decision, GateParams, resolve_params, term_holder
from rag.answer.gating import Gate, StoreGate, term_rarity
from rag.answer.pipeline import (
    DEFAULT_MAX_TOKENS,
    PASSAGES_ONLY,
    AskResult,
    Prepared,
    decide,
    finalize,
    prepare,
)
from rag.answer.turn import Turn, earlier
from rag.errors import LLMError
from rag.i18n.detect import detect_language

log = logging.getLogger(__name__)

# (question) -> passages in rank order, each with .n, .url, .score, .text, .title, .section
Retriever = Callable[[str], Sequence[Any]]
# Called with every finished answer and where it was asked ("cli", "ask", "eval").
Recorder = Callable[[AskResult, str], None]


class Response:
    """One question's answer. Iterate it for the model's text as it streams; `text` is the text so
    far; `result` the checked answer (iterating to the end first if needed). Without a model call
    (a refusal, no chat model, retrieval only) there is nothing to iterate and `result` is ready."""

    def __init__(self, engine: AnswerEngine | None, prepared: Prepared, decision: Decision | None, llm: Any,
                 asked: str | None = None, understood: followup.Understood | None = None) -> None:
        self.engine = engine
        self.asked = asked  # the question as the reader asked it, when the engine searched another form
        self.understood = understood  # how a follow-up was made standalone (kept with the result)
        self.prepared = prepared
        self.decision = decision
        self._llm = llm
        self._pieces: list[str] = []
        self._result: AskResult | None = None
        self._stopped = False
        self._lock = threading.Lock()
        self._iterator = self._run()

    @property
    def question(self) -> str:
        return self.prepared.question

    @property
    def passages(self) -> list[Any]:
        return self.prepared.passages

    @property
    def streams(self) -> bool:
        """Whether the chat model will be called (else iterating yields nothing)."""
        return self.prepared.result is None and self._llm is not None

    @property
    def text(self) -> str:
        return "".join(self._pieces)

    def __iter__(self) -> Iterator[str]:
        return self._iterator

    @property
    def result(self) -> AskResult:
        if self._result is not None:
            return self._result
        for _ in self._iterator:
            pass
        assert self._result is not None
        return self._result

    def _run(self) -> Iterator[str]:
        prepared = self.prepared
        if prepared.result is not None:
            self._finish(prepared.result)
            return
        if self._llm is None:  # retrieval and the gate only: the passages are the answer
            self._finish(prepared.base_result(outcome=PASSAGES_ONLY))
            return
        began = time.monotonic()
        first: float | None = None
        stream = self._llm.stream_chat(prepared.messages, **prepared.chat_params())
        try:
            for piece in stream:
                if self._stopped:
                    return
                if first is None:
                    first = time.monotonic() - began
                self._pieces.append(piece)
                yield piece
        except LLMError as exc:
            self._finish(finalize(prepared, self.text, error=exc))
            return
        result = finalize(prepared, self.text, usage=getattr(stream, "usage", None),
                          model=getattr(stream, "model", None))
        result.first_token_seconds = None if first is None else round(first, 3)
        result.answer_seconds = round(time.monotonic() - began, 3)
        self._finish(result)

    def stop(self) -> AskResult:
        """The reader stopped the stream: the text so far is the answer (checked as one), recorded
        with the outcome STOPPED. A finished answer stays as it ended. The stream may still be read
        by another thread (a page's earlier run): it ends at its next piece, recording nothing."""
        self._stopped = True
        if self._result is None:
            self._finish(finalize(self.prepared, self.text, stopped=True))
        assert self._result is not None
        return self._result

    def _finish(self, result: AskResult) -> None:
        with self._lock:
            if self._result is not None:
                return  # stopped meanwhile, or finished: one result, recorded once
            self._result = result
        if self.asked is not None and self.asked != result.question:
            result.standalone_question, result.question = result.question, self.asked
        if self.understood is not None:
            result.understood = self.understood.to_dict()
        if self.engine is None:
            return
        if self.engine.collection is not None:
            result.collection = self.engine.collection
        self.engine.record(result)


class AnswerEngine:
    """Retriever, gate, context builder, synthesizer, citations check and logs, composed once.

    The settings decide what is not given: the store (`Store(settings)`), the collection, the
    embedder that built it, the chat model (`llm`; with `with_llm` False none is called and the
    passages are the answer), top k, the gate's boundary (RAG_THRESHOLD / `threshold`,
    RAG_MIN_COVERAGE, else the collection's calibration, else the model's defaults; `gate_params`
    imposes one, as a comparison of two collections does). `retriever` replaces the retrieval
    (passages given by hand); `retrieve_options` its context options (else the settings').
    `groups`: the reader's access groups (None: every point). `origin` ("cli", "ask", "eval") says
    who asked; the finished answers go to the `recorders`, `rag ask`'s and the Ask page's to the journal
    (rag.journal.recorder.journal_recorder, given by them: the journal is a later stage).
    """

    def __init__(
        self,
        settings: Any = None,
        store: Any = None,
        *,
        collection: str | None = None,
        info: Mapping[str, Any] | None = None,
        embedder: Any = None,
        llm: Any = None,
        with_llm: bool = True,
        groups: Sequence[str] | None = None,
        mode: str = "auto",
        top_k: int | None = None,
        threshold: float | None = None,
        gate_params: GateParams | None = None,
        retriever: Retriever | None = None,
        retrieve_options: Mapping[str, Any] | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        prompt_file: str | os.PathLike[str] | None = None,
        origin: str = "cli",
        recorders: Sequence[Recorder] = (),
        gate: Gate | None = None,
    ) -> None:
        from rag.config import Settings

        self.settings = settings if settings is not None else Settings.from_env()
        self.groups = groups
        self.mode = mode
        self.top_k = top_k or self.settings.top_k
        self.max_tokens = max_tokens
        self.prompt_file = prompt_file if prompt_file is not None else self.settings.prompt_file
        self.origin = origin
        self.recorders: list[Recorder] = list(recorders)
        self.with_llm = with_llm
        self._llm = llm
        self._retriever = retriever
        self._retrieve_options = retrieve_options
        if retriever is not None and store is None:
            self.store, self.collection, self.info, self.embedder = None, collection, dict(info or {}), embedder
        else:
            from rag.store.store import Store

            self.store = store if store is not None else Store(self.settings)
            self.collection = collection or self.settings.collection
            self.info = dict(info) if info is not None else (self.store.collection_info(self.collection) or {})
            self.embedder = embedder
            if self.embedder is None and retriever is None:
                from rag.embeddings.resolve import embedder_for_collection

                self.embedder, _ = embedder_for_collection(self.settings, self.info)
        model_id = getattr(self.embedder, "model_id", None) if self.embedder is not None else None
        explicit = threshold if threshold is not None else self.settings.threshold
        self.params = gate_params or resolve_params(explicit, self.info, model_id, self.settings.min_coverage)
        self._gate: Gate = gate or StoreGate(self.params, self.store, self.collection, groups, self.info, self.embedder)

    # -- the parts, in the order of the flow ------------------------------------------------

    def retrieve(self, question: str) -> list[Any]:
        if self._retriever is not None:
            return list(self._retriever(question))
        from rag.answer.retrieve import retrieve, retrieve_options

        if self._retrieve_options is None:  # built once: the reranker's client is reused
            self._retrieve_options = retrieve_options(self.settings, self._llm)
        return retrieve(question, self.store, self.embedder, self.collection, top_k=self.top_k, mode=self.mode,
                        groups=self.groups, **self._retrieve_options)

    def gate(self, question: str, passages: Sequence[Any]) -> Decision:
        """The answerability gate's decision, with its signals (the injected Gate; by default
        rag.answer.gate on this engine's collection)."""
        return self._gate(question, passages)

    @property
    def llm(self) -> Any:
        if not self.with_llm:
            return None
        if self._llm is None:
            from rag.servers.chat import LLMClient

            self._llm = LLMClient.from_settings(self.settings)
        return self._llm

    def respond(self, question: str, passages: Sequence[Any], decision: Decision | None = None,
                threshold: float | None = None, asked: str | None = None) -> Response:
        """The answer from these passages: the gate's `decision` (without one, `threshold` or the
        engine's cosine floor alone decides), the prompt within the model's window, the stream."""
        floor = self.params.min_cosine if threshold is None or decision is not None else threshold
        source = self.params.source if threshold is None or decision is not None else "setting"
        llm = self.llm
        if llm is None:
            prepared = decide(question, passages, floor, source, decision=decision)
        else:
            prepared = prepare(question, passages, llm, floor, source, max_tokens=self.max_tokens,
                               prompt_file=self.prompt_file, log_dir=self.settings.logs_dir, decision=decision)
        return Response(self, prepared, decision, llm, asked)

    def ask(self, question: str, asked: str | None = None,
            understood: followup.Understood | None = None) -> Response:
        """Retrieve and gate now (a RagError says the search failed); the answer streams from the
        response. `asked`: the question as the reader asked it, when `question` is its standalone
        form (`understood` says how it was made)."""
        passages = self.retrieve(question)
        response = self.respond(question, passages, self.gate(question, passages), asked=asked)
        response.understood = understood
        return response

    def chat(self, question: str, history: Sequence[Turn | followup.Turn] = ()) -> Turn:
        """One turn of a conversation: small talk gets a word back, nothing searched; a question that
        leans on `history` is first judged as asked (naming what no article the reader may see holds,
        it is refused so, with no model call), then made standalone (the model's rewrite, else the
        previous question's subject terms) and gated again before the answer call; any other question
        is asked as it is. Retrieval and the gate run now (a RagError says the search failed); the
        answer streams from the turn."""
        kind = small_talk.kind_of(question)
        if kind is not None:
            # Nothing searched nor refused; recorded like any turn, so that the conversation
            # reopens with it in its place (the journal's lists leave it out).
            turn = Turn(question, followup.Understood(question, question), small_talk=kind)
            turn.result.collection = self.collection
            turn.result.language = detect_language(question)
            self.record(turn.result)
            return turn
        previous = earlier(history)
        holds = self._holds()
        if not previous or not followup.is_follow_up(question, holds):
            return Turn(question, followup.Understood(question, question), self.ask(question))
        passages = self.retrieve(question)
        decision = self.gate(question, passages)
        # Naming what no visible chunk holds, a follow-up the gate does not answer outright has changed
        # the subject: judged as asked (refused, or unsure with its own passages), never carried over.
        if decision.verdict != ANSWER and (decision.reason == UNKNOWN_NAMES or _names_unheld(question, holds)):
            return Turn(question, followup.Understood(question, question), self.respond(question, passages, decision),
                        judged_as_asked=True)
        understood = followup.standalone(question, previous, self.llm, rarity=self._rarity())
        if not understood.rewritten:
            return Turn(question, understood, self.respond(question, passages, decision))
        return Turn(question, understood, self.ask(understood.standalone, asked=question, understood=understood))

    def _holds(self) -> Any:
        """holds(terms): does a chunk the reader may see hold one of them (None without term statistics)."""
        if self.store is None:
            return None
        return term_holder(self.store, self.collection, self.info, self.groups)

    def _rarity(self) -> Any:
        return term_rarity(self.store, self.collection, self.info, self.groups)

    # -- what every answer goes to -------------------------------------------------------------

    def record(self, result: AskResult) -> None:
        """Hand the finished answer to each recorder (the journal): a recorder that fails loses a
        record, never the answer."""
        for recorder in self.recorders:
            try:
                recorder(result, self.origin)
            except Exception as exc:  # noqa: BLE001 - a broken record must not break the answer
                log.warning("could not record the answer: %s", exc)


def _names_unheld(question: str, holds: Any) -> bool:
    """Whether the question names a term of its own that no chunk the reader may see holds: refused
    as asked, it is refused, not read as a follow-up of another subject."""
    return holds is not None and any(not holds([term]) for term in followup.own_terms(question))


def answer_passages(
    question: str,
    passages: Sequence[Any],
    llm: Any,
    threshold: float,
    threshold_source: str = "setting",
    *,
    on_token: Callable[[str], None] | None = None,
    language: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    prompt_file: str | os.PathLike[str] | None = None,
    log_dir: Path | None = None,
    decision: Any = None,
) -> AskResult:
    """Answer from given passages (no retrieval). `decision`: the answerability gate's
    (rag.gate.gate); without it the threshold alone decides."""
    prepared = prepare(question, passages, llm, threshold, threshold_source, language=language,
                       max_tokens=max_tokens, prompt_file=prompt_file, log_dir=log_dir, decision=decision)
    return _stream(Response(None, prepared, decision, llm), on_token)


def _stream(response: Any, on_token: Callable[[str], None] | None) -> AskResult:
    for piece in response:
        if on_token is not None:
            on_token(piece)
    return response.result


def ask(
    question: str,
    settings: Any = None,
    store: Any = None,
    embedder: Any = None,
    llm: Any = None,
    groups: Sequence[str] | None = None,
    on_token: Callable[[str], None] | None = None,
    *,
    collection: str | None = None,
    top_k: int | None = None,
    mode: str = "auto",
    threshold: float | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    prompt_file: str | os.PathLike[str] | None = None,
    with_llm: bool = True,
    recorders: Sequence[Recorder] = (),
) -> AskResult:
    """Retrieve, then answer (rag.answer.engine). `threshold` (else settings.threshold) overrides
    the collection's. `with_llm` False: retrieval and the gate only; `answer` stays None unless refused.
    """
    engine = AnswerEngine(settings, store, collection=collection, embedder=embedder, llm=llm, with_llm=with_llm,
                          groups=groups, mode=mode, top_k=top_k, threshold=threshold, max_tokens=max_tokens,
                          prompt_file=prompt_file, recorders=recorders)
    return _stream(engine.ask(question), on_token)


__all__ = ["AnswerEngine", "Recorder", "Response", "Retriever", "answer_passages", "ask"]
