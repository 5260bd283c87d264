"""Evaluation: the report, question sets, runs, calibration."""

TEXT: dict[str, str] = {
    # rag/evaluate/report.py: an evaluation in sentences (CLI, dashboard)
    "report.l.answer_in_context": "answer in context",
    "report.l.in_base_accepted": "in-base accepted",
    "report.l.out_of_base_refused": "off-topic refused",
    "report.l.threshold": "threshold",
    "report.l.suggested_threshold": "suggested threshold",
    "report.l.answer_contains_expected": "answer contains expected",
    "report.l.refusal_rate_out_of_base": "off-topic refusals",
    "report.l.refusal_rate_in_base": "in-base refusals",
    "report.l.invalid_citation_rate": "invalid citations",
    "report.l.uncited_rate": "uncited answers",
    "report.l.prompt_tokens_mean": "prompt tokens (mean)",
    "report.l.first_token_seconds_median": "seconds to first word (median)",
    "report.na": "n/a",
    "report.model": "model {model}",
    "report.strategy": "strategy {strategy}",
    "report.mode": "{mode} retrieval",
    "report.mode_hybrid": "hybrid",
    "report.mode_dense": "dense",
    "report.collection": "Collection {name} ({parts})",
    "report.failed_one": "{n} question failed and is not scored: {ids}",
    "report.failed_other": "{n} questions failed and are not scored: {ids}",
    "report.stopped": (
        "stopped after {done} of {total} questions ({why}); the figures cover the questions "
        "scored"
    ),
    "report.questions_one": "{n} question: {n_in} in-base, {n_out} off-topic",
    "report.questions_other": "{n} questions: {n_in} in-base, {n_out} off-topic",
    "report.unknown_sources_one": (
        "warning: {n} expected source url is not in the collection, so its questions cannot be "
        "found (a typo, or the article was not ingested): {ids}"
    ),
    "report.unknown_sources_other": (
        "warning: {n} expected source urls are not in the collection, so their questions cannot be "
        "found (a typo, or the article was not ingested): {ids}"
    ),
    "report.hit1": "hit@1 {pct} ({n} of {total} in-base questions find the right article first)",
    "report.hit3": "hit@3 {pct} ({n} of {total} find it in the first 3 passages)",
    "report.hitk": "hit@{k} {pct} ({n} of {total} find it among the {k} passages retrieved)",
    "report.mrr": "MRR {value} (1.00 = always first, 0.50 = second on average)",
    "report.categories": "by category of question:",
    "report.category": "  {name} ({questions}): {parts}",
    "report.category_in": "first {first} of {n_in}, among the {k} passages {found} of {n_in}, answered {answered} of {n_in}",
    "report.category_out": "refused {refused} of {n_out}",
    "report.category_none": "(no category)",
    "cal.small_sample": (
        "warning: this threshold comes from {n_in} in-base and {n_out} off-topic questions; calibrating "
        "it takes at least {min_in} and {min_out}. It is saved, but one or two more questions may move "
        "it: add questions to the set and run the evaluation again."
    ),
    "report.no_in_base": "no in-base question: retrieval quality cannot be measured",
    "report.context_na": "answer in context n/a (no in-base question has an expected_answer)",
    "report.context": "answer in context {pct} ({n} of {total} expected answers appear word for word in the passages)",
    "report.at_threshold": (
        "at threshold {threshold}: {accepted} of {n_in} in-base questions answered ({accepted_pct}), "
        "{refused} of {n_out} off-topic refused ({refused_pct})"
    ),
    "report.versus": "; {value} at the current threshold",
    "report.suggested": (
        "suggested threshold {threshold}: {accepted} of {n_in} answered, {refused} of {n_out} refused "
        "(balanced accuracy {accuracy}{versus})"
    ),
    "report.coverage": ", coverage {value}",
    "report.gate_suggested": (
        "suggested settings: threshold {threshold}{coverage}: {accepted} of {n_in} in-base questions answered, "
        "{refused} of {n_out} off-topic refused"
    ),
    "report.no_suggested": "no suggested threshold: {reason}",
    "report.llm_down": (
        "the chat model could not be reached ({n} of {asked} questions got no answer): no answer "
        "metrics; start LM Studio and run again"
    ),
    "report.contains": "answers containing the expected text {pct} ({n} of {total})",
    "report.refused": "off-topic questions refused {pct} ({n} of {total})",
    "report.invalid": "answers citing an extract that does not exist {pct} ({n} of {total} answers)",
    "report.uncited": "answers with no citation {pct} ({n} of {total} answers)",
    "report.cost": "cost of the passages sent: ",
    "report.tokens": "{n} prompt tokens on average",
    "report.no_tokens": "prompt tokens not reported",
    "report.first_word": ", first word after {time} (median)",
    "report.no_answer": "{n} questions got no answer from the chat model (see llm_error in the CSV)",
    "report.same": "same",
    "report.points": "{n} points",
    "report.side": "{label} = {name} (strategy {strategy}, model {model}, {mode} retrieval, top {k})",
    "report.same_threshold": "both measured at the threshold {threshold}",
    "report.two_thresholds": (
        "measured at two thresholds (A {a}, B {b}, two embedding models): the accepted and refused "
        "shares differ partly because of that"
    ),
    "report.sets_differ": (
        "the question sets differ: {n} questions in common (only those are compared question by "
        "question)"
    ),
    "report.found": "found by both {both}, by A only {a}, by B only {b}, by neither {neither}",
    "report.a_only": "  found by A only: {ids}",
    "report.b_only": "  found by B only: {ids}",
    "report.rank_changed": "rank changed for {n} questions ({better} better in B, {worse} worse)",
    "report.metric_line": "  {label}: {change}",
    "report.rank_line": "  {id}: {a} -> {b}",
    "report.missed": "missed",
    # rag/evaluate: question sets, runs, calibration
    "qs.line": "line {line}: {message}",
    "qs.problems_one": "{source}: 1 problem in the question set",
    "qs.problems_other": "{source}: {n} problems in the question set",
    "qs.more": "... and {n} more",
    "qs.fix": "Fix these lines and run again.",
    "qs.text_or_null": "'{name}' must be text or null, got {kind} {value}",
    "qs.missing": "missing field '{name}'",
    "qs.text": "'{name}' must be text, got {kind} {value}",
    "qs.default_source": "question set",
    "qs.missing_in_base": "missing field 'in_base' (true or false)",
    "qs.in_base_no_source": "in_base is true but expected_source is missing: give the url of the article that answers",
    "qs.off_topic_with_source": (
        "in_base is false but expected_source is set: an off-topic question has no source (set in_base to "
        "true, or clear expected_source)"
    ),
    "qs.empty_question": "missing field 'question' (it is empty)",
    "qs.too_long": (
        "'question' is {n} characters long, over the {limit} a question may have: shorten it (a pasted "
        "article? a CSV row with an unclosed quote?)"
    ),
    "qs.in_base": "'in_base' must be true or false, got {kind} {value}",
    "qs.also_in": "'also_in' must be a list of urls, got {kind} {value}",
    "qs.duplicate": "duplicate id {id} (already used on line {first})",
    "qs.bad_json": "bad JSON ({error} at column {column})",
    "qs.not_object": "expected a JSON object {{...}}, got {kind}",
    "qs.also_in_json": "'also_in' looks like a JSON list but is not valid JSON ({error})",
    "qs.header_one": "the header row lacks the column {missing}; expected columns: {expected}",
    "qs.header_other": "the header row lacks the columns {missing}; expected columns: {expected}",
    "qs.cells": "{n} cells but the header has {columns} columns (a stray separator?)",
    "qs.in_base_csv": "'in_base' must be true/false (or 1/0, oui/non), got {value}",
    "qs.empty": "{source}: the question set is empty; add one question a line",
    "qs.not_utf8": "{source}: line {line} is not UTF-8 text; save the file as UTF-8 (in a spreadsheet: 'CSV UTF-8')",
    "qs.format": "unknown question set format {fmt}: use jsonl or csv",
    "qs.no_file": "{source}: no such file; give the path of a .jsonl or .csv question set",
    "qs.unreadable": "{source}: cannot be read ({error})",
    "runs.none": "No results at {path}: give a run folder from `rag eval` or its results.json",
    "runs.bad_json": "{path} is not valid JSON ({error}); run `rag eval` again to rewrite it",
    "runs.not_results": "{path} is not a `rag eval` results file (no summary/questions)",
    "run.in_a_row": "{n} questions in a row failed; last error: {error}",
    "run.raised": "question {id} failed: {error}",
    "run.interrupted": "interrupted at question {id}",
    "run.no_collection": (
        "The collection {name} does not exist; ingest a source into it first (rag ingest SOURCE "
        "--collection {id})."
    ),
    "cal.no_overlap": "no overlap to measure: the question set needs both in-base and off-topic questions",
    "cal.separated": (
        "the two groups are fully separated: every in-base question scores above every off-topic one "
        "(lowest in-base {worst_in}, highest off-topic {best_out})"
    ),
    "cal.in_below_one": "{n} in-base question scores below the best off-topic one ({best_out})",
    "cal.in_below_other": "{n} in-base questions score below the best off-topic one ({best_out})",
    "cal.in_tied_one": "{n} in-base question scores at or below the best off-topic one ({best_out})",
    "cal.in_tied_other": "{n} in-base questions score at or below the best off-topic one ({best_out})",
    "cal.out_above_one": (
        "and {n} off-topic question scores at or above the worst in-base one ({worst_in}): no threshold "
        "separates them all; the prompt's refusal rule has to catch the rest"
    ),
    "cal.out_above_other": (
        "and {n} off-topic questions score at or above the worst in-base one ({worst_in}): no threshold "
        "separates them all; the prompt's refusal rule has to catch the rest"
    ),
    "cal.no_scores": "no scores: the question set has no question with a retrieved passage",
    "cal.no_out": (
        "no off-topic questions (in_base false) in the set: add about ten questions the blog does not "
        "answer so a threshold can be placed between the two groups"
    ),
    "cal.no_in": "no in-base questions in the set: add questions the blog answers, with their article",
    "cal.gate_no_out": (
        "no off-topic questions (in_base false) in the set: add about ten questions the blog does not "
        "answer"
    ),
    "cal.gate_no_in": "no in-base question with a retrieved passage",
    "cal.gate_all_refused_one": "at these settings, the gate refuses all {outside} off-topic questions; {n} in-base question refused",
    "cal.gate_all_refused_other": "at these settings, the gate refuses all {outside} off-topic questions; {n} in-base questions refused",
    "cal.gate_through_one": (
        "at these settings, {n} of {outside} off-topic questions gets through the gate (closeness "
        "and words): the prompt's refusal rule must catch it"
    ),
    "cal.gate_through_other": (
        "at these settings, {n} of {outside} off-topic questions get through the gate (closeness "
        "and words): the prompt's refusal rule must catch them"
    ),
    "cal.gate_in_refused_one": "; {n} in-base question refused",
    "cal.gate_in_refused_other": "; {n} in-base questions refused",
    "cal.gate_none": "no setting answers {share} of the in-base questions",
    "cal.criterion": (
        "best balanced accuracy: (share of in-base questions accepted + share of off-topic questions "
        "refused) / 2; among equally good thresholds the lowest, so the workbench answers rather than "
        "refuses"
    ),
    "cal.gate_criterion": (
        "the most off-topic questions refused while at least {share} of in-base questions are answered; "
        "among equally good settings the lowest, so the workbench answers rather than refuses"
    ),
    "access.denied": "This needs the editor role (signed in as {role}): ask an editor.",
    "run.no_terms": (
        "the collection has no term statistics (built before them): the gate uses the cosine alone; `rag "
        "ingest SOURCE --full` rebuilds it"
    ),
    "store.no_collection_at_all": "no collection",
    "store.upgraded": (
        "The embedded store at {path} was in qdrant-client's local mode: moved to Qdrant Edge ({names}; "
        "{points} points, ids and payloads unchanged). The old files are kept in {backup}: delete that "
        "folder once you are satisfied."
    ),
    "store.upgrading": "Moving the embedded store at {path} from qdrant-client's local mode to Qdrant Edge...",
    "src.yaml_unclosed": "front matter opened by --- on line 1 is never closed by a --- line",
    "src.yaml_not_mapping": "front matter is not a list of key: value pairs",
}
