"""Evaluation results in sentences a non-developer can read (CLI output, dashboard captions)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping


_LABELS = {
    "hit_at_1": "hit@1", "hit_at_3": "hit@3", "hit_at_k": "hit@k", "mrr": "MRR",
    "answer_in_context": "answer in context", "in_base_accepted": "in-base accepted",
    "out_of_base_refused": "off-topic refused", "threshold": "threshold",
    "suggested_threshold": "suggested threshold", "answer_contains_expected": "answer contains expected",
    "refusal_rate_out_of_base": "off-topic refusals", "refusal_rate_in_base": "in-base refusals",
    "invalid_citation_rate": "invalid citations", "uncited_rate": "uncited answers",
    "prompt_tokens_mean": "prompt tokens (mean)", "first_token_seconds_median": "seconds to first word (median)",
}
_SCORES = {"mrr", "threshold", "suggested_threshold"}
_AMOUNTS = {"prompt_tokens_mean", "first_token_seconds_median"}  # not shares: shown as numbers


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.0f}%"


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _of(n: int, total: int, what: str) -> str:
    return f"{n} of {total} {what}"


def _build_line(s: Mapping[str, Any]) -> str:
    parts = [f"model {s.get('model')}", f"strategy {s.get('strategy')}"]
    if s.get("mode"):
        parts.append(f"{s['mode']} retrieval")
    parts.append(f"top {s.get('k')}")
    return f"Collection {s.get('collection')} ({', '.join(parts)})"


def incomplete_notes(summary: Mapping[str, Any]) -> list[str]:
    """Sentences saying which questions were not scored, and why the run stopped (if it did)."""
    notes = []
    failed = summary.get("failed_questions") or []
    if failed:
        notes.append(f"warning: {len(failed)} question(s) failed and are not scored: "
                     f"{_ids([f['id'] for f in failed], 5)}")
    if summary.get("stopped"):
        notes.append(f"warning: stopped after {summary['questions']} of {summary.get('question_set_size')} "
                     f"questions ({summary['stopped']}); the figures cover the questions scored")
    return notes


def format_summary(results: Mapping[str, Any]) -> str:
    """A summary a non-developer can read."""
    s = results["summary"]
    c = s.get("counts", {})
    n_in, n_out, k = s["in_base"], s["out_of_base"], s["k"]
    lines = [_build_line(s), f"{s['questions']} questions: {n_in} in-base, {n_out} off-topic"]
    lines += incomplete_notes(s)
    unknown = s.get("unknown_sources") or []
    if unknown:
        lines.append(
            f"warning: {len(unknown)} expected source url(s) are not in the collection, so their questions "
            f"cannot be found (a typo, or the article was not ingested): {_ids(unknown, 5)}"
        )
    if n_in:
        lines += [
            f"hit@1 {_pct(s['hit_at_1'])} ({_of(c.get('hit_at_1', 0), n_in, 'in-base questions')} "
            "find the right article first)",
            f"hit@3 {_pct(s['hit_at_3'])} ({c.get('hit_at_3', 0)} of {n_in} find it in the first 3 passages)",
            f"hit@{k} {_pct(s['hit_at_k'])} ({c.get('hit_at_k', 0)} of {n_in} find it among the {k} "
            "passages retrieved)",
            f"MRR {_num(s['mrr'])} (1.00 = always first, 0.50 = second on average)",
        ]
    else:
        lines.append("no in-base question: retrieval quality cannot be measured")
    if s.get("answer_in_context") is None:
        lines.append("answer in context n/a (no in-base question has an expected_answer)")
    else:
        lines.append(
            f"answer in context {_pct(s['answer_in_context'])} ({c.get('answer_in_context', 0)} of "
            f"{c.get('with_expected_answer', 0)} expected answers appear word for word in the passages)"
        )
    if s.get("threshold") is not None:
        lines.append(
            f"at threshold {_num(s['threshold'])}: {c.get('in_base_accepted', 0)} of {n_in} in-base questions "
            f"answered ({_pct(s['in_base_accepted'])}), {c.get('out_of_base_refused', 0)} of {n_out} "
            f"off-topic refused ({_pct(s['out_of_base_refused'])})"
        )
    cal = s.get("calibration") or {}
    if s.get("suggested_threshold") is not None:
        at = cal.get("at_suggested") or {}
        now = (cal.get("at_current") or {}).get("balanced_accuracy")
        versus = f"; {_num(now)} at the current threshold" if now is not None else ""
        lines.append(
            f"suggested threshold {_num(s['suggested_threshold'])}: {at.get('in_base_accepted_count')} of {n_in} "
            f"answered, {at.get('out_of_base_refused_count')} of {n_out} refused "
            f"(balanced accuracy {_num(cal.get('balanced_accuracy'))}{versus})"
        )
    elif cal.get("reason"):
        lines.append(f"no suggested threshold: {cal['reason']}")
    if cal.get("overlap_sentence") and n_in and n_out:
        lines.append(cal["overlap_sentence"])
    asked = sum(1 for r in results.get("questions", []) if not r.get("refused"))
    if s.get("llm") and asked and c.get("llm_errors", 0) >= asked:
        lines.append(f"the chat model could not be reached ({c['llm_errors']} of {asked} questions got no answer): "
                     "no answer metrics; start LM Studio and run again")
    elif s.get("llm"):
        answered = c.get("answered", 0)
        if c.get("with_expected_answer"):
            lines.append(
                f"answers containing the expected text {_pct(s.get('answer_contains_expected'))} "
                f"({c.get('answer_contains_expected', 0)} of {c.get('with_expected_answer', 0)})"
            )
        if n_out:
            lines.append(
                f"off-topic questions refused {_pct(s.get('refusal_rate_out_of_base'))} "
                f"({c.get('out_of_base_answer_refused', 0)} of {n_out})"
            )
        lines.append(
            f"answers citing an extract that does not exist {_pct(s.get('invalid_citation_rate'))} "
            f"({c.get('with_invalid_citations', 0)} of {answered} answers)"
        )
        lines.append(
            f"answers with no citation {_pct(s.get('uncited_rate'))} ({c.get('uncited', 0)} of {answered} answers)"
        )
        if s.get("prompt_tokens_mean") is not None or s.get("first_token_seconds_median") is not None:
            tokens = s.get("prompt_tokens_mean")
            first = s.get("first_token_seconds_median")
            lines.append(
                "cost of the passages sent: "
                + (f"{tokens:,.0f} prompt tokens on average" if tokens is not None else "prompt tokens not reported")
                + (f", first word after {first:.2f} s (median)" if first is not None else "")
            )
        if c.get("llm_errors"):
            lines.append(f"{c['llm_errors']} questions got no answer from the chat model (see llm_error in the CSV)")
    return "\n".join(lines)


def _delta(key: str, d: Mapping[str, Any]) -> str:
    if key in _AMOUNTS:
        spec = ",.0f" if key == "prompt_tokens_mean" else ".2f"
        unit = "" if key == "prompt_tokens_mean" else " s"
        a, b = (("n/a" if v is None else f"{v:{spec}}{unit}") for v in (d["a"], d["b"]))
        return f"{a} -> {b}" + ("" if d["delta"] is None else f" ({d['delta']:+{spec}}{unit})")
    fmt = _num if key in _SCORES else _pct
    text = f"{fmt(d['a'])} -> {fmt(d['b'])}"
    if d["delta"] is None:
        return text
    if key in _SCORES:
        return f"{text} ({d['delta']:+.2f})" if abs(d["delta"]) >= 0.005 else f"{text} (same)"
    points = round(d["delta"] * 100)
    return f"{text} ({points:+d} points)" if points else f"{text} (same)"


def _ids(ids: Iterable[str], limit: int = 12) -> str:
    ids = list(ids)
    shown = ", ".join(ids[:limit])
    return shown + (f" ... (+{len(ids) - limit})" if len(ids) > limit else "")


def format_comparison(cmp: Mapping[str, Any]) -> str:
    """A readable diff of two runs."""
    a = cmp["a"].get("collection") or "A"
    b = cmp["b"].get("collection") or "B"
    if a == b:
        a, b = f"{a} ({cmp['a'].get('date')})", f"{b} ({cmp['b'].get('date')})"
    def side(label: str, name: str, info: Mapping[str, Any]) -> str:
        return (f"{label} = {name} (strategy {info.get('strategy')}, model {info.get('model')}, "
                f"{info.get('mode')} retrieval, top {info.get('k')})")

    lines = [side("A", a, cmp["a"]), side("B", b, cmp["b"])]
    thresholds = cmp["metrics"].get("threshold") or {}
    if thresholds.get("a") is not None and thresholds.get("a") == thresholds.get("b"):
        lines.append(f"both measured at the threshold {_num(thresholds['a'])}")
    elif thresholds.get("a") is not None and thresholds.get("b") is not None:
        lines.append(
            f"measured at two thresholds (A {_num(thresholds['a'])}, B {_num(thresholds['b'])}, two embedding "
            "models): the accepted and refused shares differ partly because of that"
        )
    if not cmp["same_question_set"]:
        lines.append(
            f"the question sets differ: {cmp['common_questions']} questions in common "
            "(only those are compared question by question)"
        )
    for key, d in cmp["metrics"].items():
        label = _LABELS.get(key, key)
        if key == "hit_at_k" and cmp["a"].get("k") == cmp["b"].get("k") and cmp["a"].get("k"):
            label = f"hit@{cmp['a']['k']}"
        lines.append(f"  {label}: {_delta(key, d)}")
    found = cmp["found"]
    lines.append(
        f"found by both {len(found['both'])}, by A only {len(found['a_only'])}, "
        f"by B only {len(found['b_only'])}, by neither {len(found['neither'])}"
    )
    if found["a_only"]:
        lines.append(f"  found by A only: {_ids(found['a_only'])}")
    if found["b_only"]:
        lines.append(f"  found by B only: {_ids(found['b_only'])}")
    changes = cmp["rank_changes"]
    if changes:
        better = sum(
            1 for c in changes if c["rank_a"] is None or (c["rank_b"] is not None and c["rank_b"] < c["rank_a"])
        )
        lines.append(f"rank changed for {len(changes)} questions ({better} better in B, {len(changes) - better} worse)")
        for c in changes[:12]:
            ra = c["rank_a"] if c["rank_a"] is not None else "missed"
            rb = c["rank_b"] if c["rank_b"] is not None else "missed"
            lines.append(f"  {c['id']}: {ra} -> {rb}")
    return "\n".join(lines)
