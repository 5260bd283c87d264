"""Replay a question set against a collection: each question's row of results.json, through the
answer engine's retrieval, gate and answers (rag.answer.engine).

The other jobs of an evaluation live beside it: the summary of the rows (rag.evaluate.summary),
the comparison of two runs (rag.evaluate.compare), the session that `rag eval` and the Evaluate page
share (rag.evaluate.session), the saved runs (rag.evaluate.runs).
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any, Callable, Mapping, Sequence

from rag.i18n import t
from rag.config import Settings
from rag.errors import RagError
from rag.evaluate.metrics import contains_answer, hit_rank
from rag.evaluate.questions import Question
from rag.evaluate.summary import summarize
# Importable from here as before the split, for callers written then.
from rag.evaluate.compare import chat_model_down, compare, shared_threshold, write_comparison  # noqa: F401
from rag.evaluate.summary import CONTRACT_SUMMARY_KEYS, LLM_SUMMARY_KEYS  # noqa: F401

__all__ = ["answer_cost", "collection_context", "make_answer_fn", "question_row", "replay", "run_eval",
           "unknown_sources"]

ProgressFn = Callable[[int, int, str], None]
# (question text, passages) -> passages, in rank order; each has .url, .score, .text
RetrieveFn = Callable[[str], Sequence[Any]]
# (question text, passages, threshold) -> an AskResult-like object
AnswerFn = Callable[[str, Sequence[Any], "float | None"], Any]
# (question text, passages) -> rag.gate.Decision
GateFn = Callable[[str, Sequence[Any]], Any]


# -- running -------------------------------------------------------------------------------

_MAX_FAILURES_IN_A_ROW = 3  # the server is down, not one question bad: stop and keep what was scored


def _top1(passages: Sequence[Any]) -> float | None:
    # The threshold applies to the dense cosine; in hybrid mode the RRF order may put a lower
    # cosine first, and the ask path refuses only when no passage reaches the threshold.
    scores = [p.score for p in passages if getattr(p, "score", None) is not None]
    return max(scores) if scores else None


def _citations(result: Any) -> list[int]:
    """Every extract number the answer cites, valid or not."""
    cited = getattr(result, "cited", None)
    if cited is None:
        cited = [s.get("n") if isinstance(s, Mapping) else getattr(s, "n", None)
                 for s in (getattr(result, "sources", None) or [])]
        cited += list(getattr(result, "invalid_citations", None) or [])
    return sorted({int(n) for n in cited if n is not None})


def question_row(
    q: Question,
    passages: Sequence[Any],
    threshold: float | None,
    result: Any | None = None,
    decision: Any | None = None,
) -> dict[str, Any]:
    """The results.json row of one question, from its retrieved passages (and its answer).

    `decision` (rag.gate.Decision): the gate's; `refused` is then its decision, and the row
    carries its signals. Without it, `refused` is the cosine threshold alone.
    """
    top1 = _top1(passages)
    rank = hit_rank([p.url for p in passages], q.accepted_urls) if q.in_base else None
    row: dict[str, Any] = q.to_dict()
    row.update(
        {
            "top1_score": top1,
            "top1_url": passages[0].url if passages else None,
            "rank": rank,
            "retrieved": [{"url": p.url, "score": p.score} for p in passages],
            # Refused at the threshold: no passage reaches it (what the ask path does).
            "refused": top1 is None or (threshold is not None and top1 < threshold),
            "answer_in_context": contains_answer(q.expected_answer, [p.text for p in passages]),
        }
    )
    if decision is not None:
        sig = decision.signals
        # Unrounded: the evaluation replays the gate's decision from these (rag.evaluate.calibration).
        row.update({
            "refused": not decision.answer,
            "refusal_reason": decision.reason,
            "verdict": decision.verdict,
            "gate_score": decision.score,
            "cosine": sig.cosine,
            "coverage": sig.coverage,
            "passage_coverage": sig.held,
            "unknown": sig.unknown,
            "background": sig.background,
            "rare_held": sig.rare_held,
            "rare_unknown": sig.rare_unknown,
            "drift": sig.drift,
            "other_language": sig.other_language,
            "missing_terms": list(sig.missing),
            # What a refusal names and the journal calls the unknown terms: the same words here.
            "subject_words": list(sig.subject_words),
            "unknown_names": list(sig.subject_words),
        })
    # How the question ended (rag.answer.pipeline.OUTCOMES): retrieval only, the gate's refusal or the passages.
    row["outcome"] = "refused_gate" if row["refused"] else "passages_only"
    if result is not None:
        row["outcome"] = getattr(result, "outcome", None) or row["outcome"]
        # The model's own text: notes appended for the reader are not part of what it wrote.
        answer = getattr(result, "raw_answer", None) or getattr(result, "answer", None) or ""
        refused = bool(getattr(result, "refused", False))
        invalid = sorted(int(n) for n in (getattr(result, "invalid_citations", None) or []))
        citations = _citations(result)
        uncited = getattr(result, "uncited", None)
        if uncited is None:  # an answer that cites no extract it was given
            uncited = bool(answer.strip()) and not refused and not (set(citations) - set(invalid))
        row.update(
            {
                "answer": answer,
                "answer_refused": refused,
                "citations": citations,
                "invalid_citations": invalid,
                "uncited": bool(uncited),
                "answer_contains_expected": (
                    None if not q.expected_answer
                    else not refused and bool(contains_answer(q.expected_answer, [answer]))
                ),
                "dropped_passages": list(getattr(result, "dropped_passages", None) or []),
                "llm_error": getattr(result, "llm_error", None),
                **answer_cost(result),
            }
        )
    return row


def answer_cost(result: Any) -> dict[str, Any]:
    """What the passages sent cost the model: the prompt's tokens (as the server counted them)
    and the seconds to its first word and to the end. None when the model was not called."""
    usage = getattr(result, "usage", None) or {}
    prompt = usage.get("prompt_tokens") if isinstance(usage, Mapping) else None
    return {
        "prompt_tokens": prompt if isinstance(prompt, int) else None,
        "first_token_seconds": getattr(result, "first_token_seconds", None),
        "answer_seconds": getattr(result, "answer_seconds", None),
    }


def replay(
    questions: Sequence[Question],
    retrieve_fn: RetrieveFn,
    *,
    k: int,
    threshold: float | None,
    answer_fn: AnswerFn | None = None,
    progress: ProgressFn | None = None,
    context: Mapping[str, Any] | None = None,
    gate_fn: GateFn | None = None,
    gate_params: Any | None = None,
    searched_fn: Callable[[Question], str] | None = None,
) -> dict[str, Any]:
    """Replay `questions`: retrieval for each, the answer too when `answer_fn` is given.

    `searched_fn(question)`: what a follow-up (a question with `previous`) is searched as, played as
    a conversation's turn after its previous question (rag.answer.engine.AnswerEngine.chat); the
    retrieval, the gate and the answer then see that text, and the row says it (`standalone_question`).

    `gate_fn(question, passages)` gives the answerability gate's decision (rag.gate), which is
    then each row's `refused`; `gate_params` are its settings, reported in the summary.

    `context` (collection, model, strategy, chunk_settings, mode...) is merged into the summary
    so a results file says how the collection it measured was built.
    Returns {"summary": {...}, "questions": [...]}.

    Finished work is never lost: a question that fails (RagError) is named in the summary's
    `failed_questions` and the others go on; after several failures in a row, an unexpected error
    or an interrupt, the run stops and the summary's `stopped` says why, with the questions
    scored so far kept and summarised.
    """
    started = time.monotonic()
    rows: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    stopped: str | None = None
    in_a_row = 0
    total = len(questions)
    for done, q in enumerate(questions, start=1):
        try:
            text = searched_fn(q) if searched_fn is not None and q.previous else q.question
            found = retrieve_fn(text)
            passages = found if isinstance(found, list) else list(found)  # Passages keep the question's vector
            decision = gate_fn(text, passages) if gate_fn is not None else None
            result = None
            if answer_fn is not None:
                result = (answer_fn(text, passages, threshold) if decision is None
                          else answer_fn(text, passages, threshold, decision=decision))
        except RagError as exc:
            failed.append({"id": q.id, "line": q.line, "error": str(exc)})
            in_a_row += 1
            if in_a_row >= _MAX_FAILURES_IN_A_ROW:
                stopped = t("run.in_a_row", n=in_a_row, error=exc)
                break
            if progress is not None:
                progress(done, total, q.id)
            continue
        except Exception as exc:  # noqa: BLE001 - whatever broke, the scored questions are written
            stopped = t("run.raised", id=repr(q.id), error=f"{type(exc).__name__}: {exc}")
            break
        except KeyboardInterrupt:
            stopped = t("run.interrupted", id=repr(q.id))
            break
        in_a_row = 0
        rows.append(question_row(q, passages, threshold, result, decision))
        if q.previous:
            rows[-1]["standalone_question"] = text
        if progress is not None:
            progress(done, total, q.id)
    summary = summarize(rows, k, threshold, with_llm=answer_fn is not None, gate_params=gate_params)
    summary["question_set_size"] = total
    summary["failed_questions"] = failed
    summary["stopped"] = stopped
    summary.update(dict(context or {}))
    summary["llm"] = answer_fn is not None
    summary.setdefault("date", datetime.now().astimezone().isoformat(timespec="seconds"))
    summary["seconds"] = round(time.monotonic() - started, 2)
    return {"summary": summary, "questions": rows}


def collection_context(info: Mapping[str, Any], mode: str, embedder_id: str | None = None) -> dict[str, Any]:
    """How the measured collection was built, from Store.collection_info()."""
    return {
        "collection": info.get("name"),
        "model": info.get("embedding_model"),
        "dimension": info.get("dimension"),
        "strategy": info.get("strategy"),
        "chunk_settings": info.get("chunk_settings") or {},
        "points": info.get("points"),
        "collection_updated": info.get("updated"),
        "mode": mode,
        "query_embedder": embedder_id,
    }


def unknown_sources(store: Any, collection: str, questions: Sequence[Question],
                    groups: Sequence[str] | None = None) -> list[str]:
    """Expected urls with no point in the collection that `groups` may read: a typo, an article
    not ingested, or one the runner may not read (which must look the same as absent).

    Such questions can never be hits, whatever the chunking: worth saying before reading hit@k.
    """
    from rag.store.filters import Where, both, match, readable_by

    urls = sorted({u for q in questions if q.in_base for u in q.accepted_urls})
    missing = []
    for url in urls:
        flt = both(Where(must=(match("url", url),)), readable_by(groups))
        if next(iter(store.scroll(collection, payload=False, flt=flt, limit=1)), None) is None:
            missing.append(url)
    return missing


def run_eval(
    questions: Sequence[Question],
    store: Any,
    embedder: Any,
    collection: str,
    *,
    top_k: int = 6,
    mode: str = "auto",
    threshold: float | None = None,
    with_llm: bool = False,
    llm: Any = None,
    settings: Settings | None = None,
    progress: ProgressFn | None = None,
    groups: Sequence[str] | None = None,
    question_set: str | None = None,
    threshold_source: str | None = None,
    gate_params: Any | None = None,
    retrieve_options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Replay `questions` against a real collection through the answer engine (rag.answer.engine),
    the retrieval, gate and answers `rag ask` gives a reader of `groups`.

    `threshold` None: the collection's calibrated value, else the model's default (as `rag ask`).
    `gate_params` (rag.gate.GateParams): measure the gate at these settings instead; else they are
    resolved as `rag ask` resolves them, RAG_MIN_COVERAGE included (`settings`).
    `with_llm` adds the chat model's answers (`llm`, else the settings' server) and their checks.
    `retrieve_options`: the context options (rag.answer.retrieve.retrieve_options(settings), as
    `rag eval` and the Evaluate page pass them); None: retrieval's own defaults.
    `progress(done, total, question_id)` is called after each question.
    """
    from rag.answer.engine import AnswerEngine
    from rag.answer.gate import has_terms, resolve_params
    from rag.answer.retrieve import options_record, resolve_mode
    from rag.answer.threshold import SETTING

    settings = settings if settings is not None else Settings.from_env()
    info = store.collection_info(collection)
    if info is None:
        raise store.no_collection(collection)
    effective_mode = resolve_mode(mode, info)
    if gate_params is None:
        explicit = threshold if threshold is not None and threshold_source in (None, SETTING) else None
        gate_params = resolve_params(explicit, info, info.get("embedding_model"), settings.min_coverage)
    threshold, threshold_source = gate_params.min_cosine, gate_params.source
    engine = AnswerEngine(settings, store, collection=collection, info=info, embedder=embedder, llm=llm,
                          with_llm=with_llm, groups=groups, mode=mode, top_k=top_k, gate_params=gate_params,
                          retrieve_options=dict(retrieve_options or {}), origin="eval")

    def answer_fn(text: str, passages: Sequence[Any], threshold: float | None, decision: Any = None) -> Any:
        return engine.respond(text, passages, decision).result

    context = collection_context(info, effective_mode, getattr(embedder, "model_id", None))
    # Counts and lists under the runner's groups: a run must not reveal what they may not read.
    if groups is not None:
        context["points"] = store.count(collection, groups=groups)
    context["unknown_sources"] = unknown_sources(store, collection, questions, groups)
    context["groups"] = sorted(groups) if groups is not None else None
    context["threshold_source"] = threshold_source
    context["retrieve_options"] = options_record(dict(retrieve_options or {}))
    if question_set:
        context["question_set"] = question_set
    context["gate_note"] = None if has_terms(info) else t("run.no_terms")
    def searched_fn(q: Question) -> str:
        """A follow-up as the Ask page and `rag chat` play it, after its previous question."""
        from rag.answer.followup import Turn

        return engine.chat(q.question, [Turn(q.previous or "")]).understood.standalone

    return replay(
        questions, engine.retrieve, k=engine.top_k, threshold=threshold, answer_fn=answer_fn if with_llm else None,
        progress=progress, context=context, gate_fn=engine.gate, gate_params=gate_params, searched_fn=searched_fn,
    )


def make_answer_fn(settings: Settings, threshold_source: str = "setting", llm: Any = None) -> AnswerFn:
    """Answers through the answer engine (rag.answer.engine), from passages already retrieved."""
    from rag.answer.engine import AnswerEngine
    from rag.answer.gate import GateParams
    from rag.answer.threshold import default_threshold

    engine = AnswerEngine(settings, retriever=lambda text: [], llm=llm, gate_params=GateParams(
        default_threshold(None), source=threshold_source), origin="eval")

    def answer_fn(question: str, passages: Sequence[Any], threshold: float | None, decision: Any = None) -> Any:
        return engine.respond(question, passages, decision, threshold).result

    return answer_fn
