"""The answer's steps before and after the chat model: the gate's verdict, the prompt within the
model's window, the citations check, the result (`AskResult`) and answers.jsonl.

The one answer path that composes them with retrieval and the model's stream is
rag.answer.engine.AnswerEngine (with its shorthands `ask` and `answer_passages`).

A refusal (no passage at or above the threshold) never calls the chat model. When the model
cannot be reached, the passages are still returned and `llm_error` says why there is no answer.
Every result says how it ended in `outcome` (an `Outcome`), the `outcome` key of `rag ask --json`
and of results.json's rows.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from enum import StrEnum
from datetime import datetime, UTC
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from rag.auth import owner_only
from rag.i18n import language as in_language, t
from rag.answer import budget, citations, prompts, refusal as refusals
from rag.errors import LLMError
from rag.answer.gate import explain as gate_explain
from rag.redact import known_secrets, redact

if TYPE_CHECKING:
    from rag.answer.retrieve import Passage

log = logging.getLogger(__name__)

DEFAULT_MAX_TOKENS = 1024  # room kept for the answer in the context window, and sent as max_tokens
TEMPERATURE = 0.2  # factual answers from extracts: little creativity wanted

ANSWER_LOG = "answers.jsonl"

class Outcome(StrEnum):
    """How a turn ended: the `outcome` key of `rag ask --json`, `rag chat --json`, results.json's rows
    and the journal (the values are the contract's strings)."""

    ANSWERED = "answered"  # the model answered
    REFUSED_GATE = "refused_gate"  # refused by the gate, before any model call
    REFUSED_MODEL = "refused_model"  # the model wrote its refusal sentence
    PASSAGES_ONLY = "passages_only"  # no model call (retrieval only, no chat model): the passages are shown
    FAILED = "failed"  # the model call failed
    STOPPED = "stopped"  # the reader stopped the answer while it streamed: what came so far is kept
    SMALL_TALK = "small_talk"  # a greeting, a thanks, a goodbye: nothing searched (rag.answer.small_talk)

    @property
    def refused(self) -> bool:
        return self in (Outcome.REFUSED_GATE, Outcome.REFUSED_MODEL)


ANSWERED, REFUSED_GATE, REFUSED_MODEL = Outcome.ANSWERED, Outcome.REFUSED_GATE, Outcome.REFUSED_MODEL
PASSAGES_ONLY, FAILED, STOPPED = Outcome.PASSAGES_ONLY, Outcome.FAILED, Outcome.STOPPED
OUTCOMES = tuple(Outcome)


@dataclass
class AskResult:
    question: str
    answer: str | None
    refused: bool
    passages: list[Passage]  # as retrieved, each as the model received it (grown, or shortened to fit)
    sources: list[Passage] = field(default_factory=list)  # the cited passages the model was sent
    invalid_citations: list[int] = field(default_factory=list)
    dropped_passages: list[int] = field(default_factory=list)
    threshold: float | None = None
    llm_error: str | None = None
    uncited: bool = False
    threshold_source: str | None = None
    best_score: float | None = None
    language: str = "fr"
    model: str | None = None
    notes: list[str] = field(default_factory=list)  # shown with the answer (also appended to it)
    warnings: list[str] = field(default_factory=list)  # shown apart (e.g. context length unknown)
    refusal_reason: str | None = None
    # Why it was refused, as data (rag.answer.refusal): what every page says again in its language.
    refusal: dict[str, Any] | None = None
    raw_answer: str | None = None  # the model's text, before notes were appended
    cited: list[int] = field(default_factory=list)
    sent_passages: list[int] = field(default_factory=list)
    accepted: list[int] = field(default_factory=list)
    usage: dict[str, Any] | None = None
    context_length: int | None = None
    collection: str | None = None
    # The cost of the passages sent: seconds until the model's first word, and until its last.
    first_token_seconds: float | None = None
    answer_seconds: float | None = None
    answer_urls: list[str] = field(default_factory=list)  # web addresses the model wrote itself
    gate: dict[str, Any] | None = None  # the answerability gate's signals and decision (rag.gate)
    journal_id: str | None = None  # its entry in the journal (rag.journal), once recorded
    outcome: str = ANSWERED  # how it ended: an Outcome
    ordering: Any = None  # what put the passages in their order (rag.answer.ordering.Ordering)
    standalone_question: str = ""  # a follow-up's standalone form, as searched ("" when asked as it stands)
    # What the gate decided on besides the question, as the page states it (ui.chat_actions.gate_inputs):
    # kept in the journal, so that a reopened refusal is offered again only once they changed.
    gate_inputs: list[Any] | None = None
    # How a follow-up was made standalone (rag.answer.followup.Understood.to_dict): said again on reload.
    understood: dict[str, Any] | None = None
    small_talk: str | None = None  # GREETING, THANKS or GOODBYE (rag.answer.small_talk): nothing was asked

    def to_json(self) -> dict[str, Any]:
        """The `rag ask --json` contract, plus extra keys."""
        accepted = set(self.accepted)
        return {
            "answer": self.answer,
            "refused": self.refused,
            "passages": [_passage_json(p, p.n in accepted) for p in self.passages],
            "sources": [{"n": p.n, "title": p.title, "section": p.section, "url": p.url} for p in self.sources],
            "invalid_citations": list(self.invalid_citations),
            "dropped_passages": list(self.dropped_passages),
            "threshold": self.threshold,
            "llm_error": self.llm_error,
            "uncited": self.uncited,
            "threshold_source": self.threshold_source,
            "best_score": self.best_score,
            "language": self.language,
            "model": self.model,
            "refusal_reason": self.refusal_reason,
            "refusal": self.refusal,
            "citations": list(self.cited),
            "sent_passages": list(self.sent_passages),
            "notes": list(self.notes),
            "warnings": list(self.warnings),
            "usage": self.usage,
            "context_length": self.context_length,
            "collection": self.collection,
            "first_token_seconds": self.first_token_seconds,
            "answer_seconds": self.answer_seconds,
            "answer_urls": list(self.answer_urls),
            "gate": self.gate,
            "outcome": self.outcome,
        }

    def source_lines(self) -> list[str]:
        return [citations.source_line(p) for p in self.sources]


def _passage_json(p: Any, accepted: bool) -> dict[str, Any]:
    out = {"n": p.n, "score": _round(p.score), "title": p.title, "section": p.section, "url": p.url,
           "text": p.text, "accepted": accepted}
    if getattr(p, "rrf_score", None) is not None:
        out["rrf_score"] = p.rrf_score
    if getattr(p, "rerank_score", None) is not None:
        out["rerank_score"] = p.rerank_score
    return out


def _round(score: float | None) -> float | None:
    return None if score is None else round(float(score), 4)


@dataclass
class Prepared:
    """Everything decided before the chat call; `result` is set when no call is to be made."""

    question: str
    language: str
    passages: list[Any]
    threshold: float
    threshold_source: str
    best_score: float | None
    accepted: list[Any]
    result: AskResult | None = None
    messages: list[dict[str, str]] = field(default_factory=list)
    sent: list[Any] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)
    model: str | None = None
    context_length: int | None = None
    max_tokens: int = DEFAULT_MAX_TOKENS
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    log_dir: Path | None = None
    gate: dict[str, Any] | None = None
    unsure_note: str | None = None  # the gate was unsure: said with the passages when no model answers
    ordering: Any = None  # rag.answer.ordering.Ordering of the passages, when the search said it

    def chat_params(self) -> dict[str, Any]:
        return {"model": self.model, "max_tokens": self.max_tokens, "temperature": TEMPERATURE}

    def base_result(self, **values: Any) -> AskResult:
        fields: dict[str, Any] = dict(
            question=self.question, answer=None, refused=False, passages=self.passages,
            dropped_passages=list(self.dropped), threshold=self.threshold,
            threshold_source=self.threshold_source, best_score=_round(self.best_score),
            language=self.language, model=self.model, notes=list(self.notes),
            warnings=list(self.warnings), sent_passages=[p.n for p in self.sent],
            accepted=[p.n for p in self.accepted], context_length=self.context_length, gate=self.gate,
            ordering=self.ordering,
        )
        fields.update(values)
        if fields.get("outcome") == PASSAGES_ONLY and self.unsure_note:
            fields["notes"] = [*fields["notes"], self.unsure_note]
        return AskResult(**fields)


def unsure_note(question: str, decision: Any, language: str) -> str:
    """The plain note shown with the passages of a question the gate is unsure of, when no chat
    model writes an answer: they may not answer it, and why."""
    with in_language(language):
        return t("ask.unsure_note", question=question.strip(), why=gate_explain(decision, language) or "")


def refusal_line(result: AskResult) -> str:
    """`(refused: why)`, all in the language of the question, as the refusal itself."""
    with in_language(result.language):
        return t("answer.refused", reason=result.refusal_reason)


def decide(
    question: str,
    passages: Sequence[Any],
    threshold: float,
    threshold_source: str = "setting",
    language: str | None = None,
    decision: Any = None,
) -> Prepared:
    """Apply the answerability gate's `decision` (rag.gate), else the threshold alone. When the
    question is refused, `result` is the refusal, with the reason in the question's language
    (no chat call). Passages at or above the threshold are the ones sent to the model.

    The gate's verdict is read here and only here: a refusal stops the question (REFUSED_GATE);
    anything else goes on to the model (an "unsure" verdict, with the prompt's refusal rule)."""
    language = language or prompts.detect_language(question)
    retrieved, passages = passages, list(passages)  # `retrieved` may carry notes (Passages)
    best = max((p.score for p in passages), default=None)
    floor = threshold
    if decision is not None and decision.answer and getattr(decision.params, "passage_floor", None) is not None:
        floor = min(threshold, decision.params.passage_floor)
    accepted = [p for p in passages if p.score >= floor]
    prepared = Prepared(question=question, language=language, passages=passages, threshold=threshold,
                        threshold_source=threshold_source, best_score=best, accepted=accepted)
    if decision is not None:
        prepared.gate = decision.to_dict()
        if decision.note:
            prepared.warnings.append(decision.note)
        if getattr(decision, "unsure", False):
            prepared.unsure_note = unsure_note(question, decision, language)
        if decision.answer and not accepted and passages:
            # Let through on the question's core (its context words set aside) or an exact match:
            # the passages the gate judged are the ones the model reads.
            accepted = prepared.accepted = [p for p in passages if p.score >= best - 0.02]
    if decision is not None and not decision.answer and decision.reason in ("unknown_names", "low_coverage"):
        refusal = prompts.refusal_sentence(language)
        prepared.result = prepared.base_result(answer=refusal, raw_answer=refusal, refused=True,
                                               refusal_reason=gate_explain(decision, language),
                                               refusal=refusals.from_decision(decision), outcome=REFUSED_GATE)
    elif not accepted or (decision is not None and not decision.answer):
        # Refused by the score: the best score against the threshold, and where that came from.
        why = refusals.from_score(best, threshold, threshold_source)
        refusal = prompts.refusal_sentence(language)
        prepared.result = prepared.base_result(answer=refusal, raw_answer=refusal, refused=True,
                                               refusal_reason=refusals.text(why, language), refusal=why,
                                               outcome=REFUSED_GATE)
    _keep_retrieval_notes(prepared, retrieved)
    return prepared


def _keep_retrieval_notes(prepared: Prepared, passages: Sequence[Any]) -> None:
    """What retrieval had to say (rag.answer.retrieve.Passages.notes: a reranker that failed)
    goes with the answer's warnings, a refusal's included, and what ordered the passages with them."""
    notes = list(getattr(passages, "notes", None) or [])
    prepared.warnings.extend(notes)
    prepared.ordering = getattr(passages, "ordering", None)
    if prepared.result is not None:
        prepared.result.warnings.extend(notes)
        prepared.result.ordering = prepared.ordering


def prepare(
    question: str,
    passages: Sequence[Any],
    llm: Any,
    threshold: float,
    threshold_source: str = "setting",
    *,
    language: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    prompt_file: str | os.PathLike[str] | None = None,
    log_dir: Path | None = None,
    decision: Any = None,
) -> Prepared:
    """Gate, chat model, context length and prompt; passages dropped to fit, if needed."""
    prepared = decide(question, passages, threshold, threshold_source, language, decision)
    prepared.max_tokens = max_tokens
    prepared.log_dir = log_dir
    if prepared.result is not None:
        return prepared
    system = prompts.load_system_prompt(prepared.language, prompt_file)
    try:
        prepared.model, prepared.context_length = llm.model_and_context()
    except LLMError as exc:
        prepared.result = prepared.base_result(llm_error=str(exc), outcome=PASSAGES_ONLY)
        return prepared

    def build(chosen: list[Any]) -> list[dict[str, str]]:
        return prompts.build_messages(question, chosen, prepared.language, system)

    fit = budget.fit_passages(prepared.accepted, build, prepared.context_length, max_tokens)
    prepared.dropped = fit.dropped
    if prepared.context_length is None:
        prepared.warnings.append(t("ask.no_context_length", n=fit.prompt_tokens))
    if not fit.fits:
        best = max(prepared.accepted, key=lambda p: p.score)
        one = budget.estimate_messages(build([best]))
        prepared.result = prepared.base_result(
            dropped_passages=[p.n for p in prepared.accepted],
            llm_error=t("ask.best_too_big", n=best.n, tokens=one, model=repr(prepared.model), id=prepared.model,
                        context=prepared.context_length, kept=max_tokens),
            outcome=PASSAGES_ONLY,
        )
        return prepared
    prepared.sent = fit.kept
    prepared.messages = fit.messages
    if fit.shortened:  # the reader sees a passage the model read shortened as the model read it
        sent = {p.n: p for p in fit.kept}
        prepared.passages = [sent[p.n] if p.n in fit.shortened else p for p in prepared.passages]
    if fit.dropped:
        numbers = ", ".join(f"[{n}]" for n in sorted(fit.dropped))
        with in_language(prepared.language):
            prepared.notes.append(t("answer.dropped", numbers=numbers, context=prepared.context_length))
    return prepared


def _model_refused(language: str) -> str:
    with in_language(language):
        return t("answer.model_refused")


def finalize(
    prepared: Prepared,
    text: str | None = None,
    *,
    error: Exception | str | None = None,
    usage: dict[str, Any] | None = None,
    model: str | None = None,
    stopped: bool = False,
) -> AskResult:
    """Check the model's answer (citations, refusal) and build the result; log citation problems.
    `stopped`: the reader stopped the stream; `text` is what came before, checked as an answer."""
    if prepared.result is not None:
        return prepared.result
    if error is not None:
        message = str(error)
        if text:
            message += " " + t("ask.cut_off")
        return prepared.base_result(llm_error=message, usage=usage, outcome=FAILED)
    raw = (text or "").strip()
    sent_numbers = [p.n for p in prepared.sent]
    check = citations.check_citations(raw, sent_numbers)
    refused = prompts.contains_refusal(raw) and not check.valid and not stopped
    uncited = not refused and not check.valid
    answer = raw
    if prepared.notes:
        answer = raw + "\n\n" + "\n".join(prepared.notes)
    result = prepared.base_result(
        answer=answer, raw_answer=raw, refused=refused,
        sources=[] if refused else citations.sources(prepared.sent, check.valid),
        invalid_citations=check.invalid, uncited=uncited, cited=check.cited, usage=usage,
        model=model or prepared.model,
        refusal_reason=_model_refused(prepared.language) if refused else None,
        refusal=refusals.by_model() if refused else None,
        answer_urls=citations.answer_urls(raw),
        outcome=STOPPED if stopped else REFUSED_MODEL if refused else ANSWERED,
    )
    if check.invalid or uncited or result.answer_urls:
        if check.invalid:
            log.info("answer cites extracts that were not given: %s (question: %r)", check.invalid, prepared.question)
        if result.answer_urls:
            log.info("answer contains web addresses written by the model: %s (question: %r)",
                     result.answer_urls, prepared.question)
        _log_answer(prepared, result)
    return result


def _default_log_dir() -> Path:
    from rag.config import Settings
    from rag.environment import raw_from_env

    return Settings(data_dir=Path(raw_from_env()["data_dir"] or "data")).logs_dir


def _log_answer(prepared: Prepared, result: AskResult) -> None:
    """Append the question and answer to answers.jsonl: invalid citations are a hallucination sign."""
    secrets = known_secrets()
    record = {
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
        "question": redact(prepared.question, secrets),
        "answer": redact(result.raw_answer or "", secrets),
        "invalid_citations": result.invalid_citations,
        "uncited": result.uncited,
        "answer_urls": result.answer_urls,
        "citations": result.cited,
        "sent_passages": result.sent_passages,
        "passages": [{"n": p.n, "score": _round(p.score), "url": p.url} for p in prepared.passages],
        "model": result.model,
        "threshold": result.threshold,
    }
    directory = prepared.log_dir or _default_log_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        # Readers' questions, as in the journal: for the app's account only.
        owner_only.append(directory / ANSWER_LOG, (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
    except OSError as exc:
        # Losing a log line must not lose the answer.
        log.warning("could not write %s: %s", directory / ANSWER_LOG, exc)
