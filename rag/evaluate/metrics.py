"""Evaluation metrics, pure: computed from per-question rows, no index and no model.

A row is a dict as written in results.json "questions": at least `in_base`, `rank`
(1-based position of the first passage from the expected article, None if missed),
`expected_answer`, `answer_in_context`; with the LLM also `answer`, `answer_refused`,
`answer_contains_expected`, `citations`, `invalid_citations`.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from rag.textnorm import normalize_answer


def hit_rank(retrieved_urls: Sequence[str], accepted_urls: Iterable[str]) -> int | None:
    """1-based rank of the first retrieved url that is the expected source or in also_in."""
    accepted = set(accepted_urls)
    for position, url in enumerate(retrieved_urls, start=1):
        if url in accepted:
            return position
    return None


def contains_answer(expected_answer: str | None, texts: Iterable[str]) -> bool | None:
    """Whether the expected span appears in one of the texts, both sides normalised.

    None when there is no expected answer to look for.
    """
    if not expected_answer:
        return None
    span = normalize_answer(expected_answer)
    if not span:
        return None
    return any(span in normalize_answer(text or "") for text in texts)


def _share(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def retrieval_metrics(rows: Sequence[Mapping[str, Any]], k: int) -> dict[str, Any]:
    """hit@1, hit@3, hit@k, MRR and answer_in_context over the in-base rows.

    Shares are None when no in-base question exists (nothing to measure, not zero).
    `counts` holds the numerators and denominators, for sentences like "20 of 28".
    """
    in_base = [r for r in rows if r.get("in_base")]
    ranks = [r.get("rank") for r in in_base]
    n = len(in_base)
    hits1 = sum(1 for r in ranks if r is not None and r <= 1)
    hits3 = sum(1 for r in ranks if r is not None and r <= 3)
    hitsk = sum(1 for r in ranks if r is not None and r <= k)
    reciprocal = sum(1.0 / r for r in ranks if r is not None and r <= k)
    with_answer = [r for r in in_base if r.get("expected_answer")]
    found = sum(1 for r in with_answer if r.get("answer_in_context"))
    return {
        "questions": len(rows),
        "in_base": n,
        "out_of_base": len(rows) - n,
        "k": k,
        "hit_at_1": _share(hits1, n),
        "hit_at_3": _share(hits3, n),
        "hit_at_k": _share(hitsk, n),
        "mrr": (reciprocal / n) if n else None,
        "answer_in_context": _share(found, len(with_answer)),
        "counts": {
            "hit_at_1": hits1,
            "hit_at_3": hits3,
            "hit_at_k": hitsk,
            "with_expected_answer": len(with_answer),
            "answer_in_context": found,
        },
    }


def category_metrics(rows: Sequence[Mapping[str, Any]], k: int) -> list[dict[str, Any]]:
    """One entry a kind of question (the set's `category`, in the set's order), as the Evaluate
    page's table shows it at the run's own settings: how many, found among the k passages, found
    first, article questions answered and trick questions refused (the gate's `refused`), and
    handled well (an article question found and answered, a trick question refused)."""
    kinds: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        kinds.setdefault(str(row.get("category") or ""), []).append(row)
    table = []
    for category, members in kinds.items():
        inside = [r for r in members if r.get("in_base")]
        outside = [r for r in members if not r.get("in_base")]
        found = sum(1 for r in inside if r.get("rank") is not None and r["rank"] <= k)
        first = sum(1 for r in inside if r.get("rank") == 1)
        answered = sum(1 for r in inside if not r.get("refused"))
        refused = sum(1 for r in outside if r.get("refused"))
        well = sum(1 for r in inside if r.get("rank") is not None and r["rank"] <= k and not r.get("refused")) + refused
        table.append({
            "category": category, "questions": len(members), "in_base": len(inside), "out_of_base": len(outside),
            "found": found, "first": first, "answered": answered, "refused": refused, "handled_well": well,
            "hit_at_1": _share(first, len(inside)), "hit_at_k": _share(found, len(inside)),
            "in_base_accepted": _share(answered, len(inside)), "out_of_base_refused": _share(refused, len(outside)),
            "handled_well_rate": _share(well, len(members)),
        })
    return table


def threshold_shares(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Shares of in-base questions accepted and off-topic questions refused, from `refused`."""
    in_base = [r for r in rows if r.get("in_base")]
    out = [r for r in rows if not r.get("in_base")]
    accepted = sum(1 for r in in_base if not r.get("refused"))
    refused = sum(1 for r in out if r.get("refused"))
    return {
        "in_base_accepted": _share(accepted, len(in_base)),
        "out_of_base_refused": _share(refused, len(out)),
        "counts": {"in_base_accepted": accepted, "out_of_base_refused": refused},
    }


def cost_metrics(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What answering cost, over the questions that reached the model (the seed's 4 against 12
    passages): the mean prompt tokens and the median seconds to the first word of the answer."""
    prompts = [r["prompt_tokens"] for r in rows if isinstance(r.get("prompt_tokens"), int)]
    firsts = sorted(r["first_token_seconds"] for r in rows if isinstance(r.get("first_token_seconds"), (int, float)))
    middle = len(firsts) // 2
    median = None if not firsts else firsts[middle] if len(firsts) % 2 else (firsts[middle - 1] + firsts[middle]) / 2
    return {
        "prompt_tokens_mean": round(sum(prompts) / len(prompts), 1) if prompts else None,
        "first_token_seconds_median": None if median is None else round(median, 3),
        "answers_timed": len(firsts),
    }


def chat_model_down(rows: Sequence[Mapping[str, Any]]) -> bool:
    """Every question the gate let through to the chat model got no answer (the server could not
    be reached): the run's answer measures mean nothing (0 % would read as a verdict on answers
    that were never written)."""
    asked = [r for r in rows if not r.get("refused")]
    return bool(asked) and all(r.get("llm_error") for r in asked)


def llm_metrics(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Answer-level metrics, for runs made with the chat model; None each when it answered none
    (chat_model_down).

    - answer_contains_expected: in-base questions with an expected answer whose written
      answer contains it (a refusal counts as not containing it).
    - refusal_rate_out_of_base: off-topic questions that got a refusal (threshold or model).
    - refusal_rate_in_base: in-base questions refused, the cost of a strict threshold.
    - invalid_citation_rate: answers citing at least one extract number that does not exist.
    - uncited_rate: answers flagged `uncited`: no citation of an extract the model was given
      (the prompt asks for one after every claim).
    Rates over answers count only the questions that got an answer (not refused, no error).
    """
    in_base = [r for r in rows if r.get("in_base")]
    out = [r for r in rows if not r.get("in_base")]
    with_answer = [r for r in in_base if r.get("expected_answer")]
    contains = sum(1 for r in with_answer if r.get("answer_contains_expected"))
    out_refused = sum(1 for r in out if r.get("answer_refused"))
    in_refused = sum(1 for r in in_base if r.get("answer_refused"))
    answered = [r for r in rows if not r.get("answer_refused") and (r.get("answer") or "").strip()]
    invalid = sum(1 for r in answered if r.get("invalid_citations"))
    uncited = sum(1 for r in answered if r.get("uncited"))
    errors = sum(1 for r in rows if r.get("llm_error"))
    shares = {
        "answer_contains_expected": _share(contains, len(with_answer)),
        "refusal_rate_out_of_base": _share(out_refused, len(out)),
        "refusal_rate_in_base": _share(in_refused, len(in_base)),
        "invalid_citation_rate": _share(invalid, len(answered)),
        "uncited_rate": _share(uncited, len(answered)),
    }
    if chat_model_down(rows):
        shares = dict.fromkeys(shares)
    return {
        **shares,
        "counts": {
            "answer_contains_expected": contains,
            "out_of_base_answer_refused": out_refused,
            "in_base_answer_refused": in_refused,
            "answered": len(answered),
            "with_invalid_citations": invalid,
            "invalid_citations": sum(len(r.get("invalid_citations") or []) for r in answered),
            "uncited": uncited,
            "llm_errors": errors,
        },
    }
