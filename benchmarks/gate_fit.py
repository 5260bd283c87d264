"""Fit the answerability gate's model (rag/answer/gate_model.json) and judge it on what it was not
fitted on: one command, reproducible.

    RAG_CORPORA=/path/to/corpora RAG_NEW_DOMAIN=/path/to/gimp-fr RAG_NEW_DOMAIN_LILYPOND=/path/to/lilypond-fr \\
        RAG_NEW_DOMAIN_KICAD=/path/to/kicad-fr RAG_NEW_DOMAIN_SQLITE=/path/to/sqlite-en \\
        RAG_NEW_DOMAIN_DEBIAN_REFERENCE=/path/to/debian-reference-fr RAG_NEW_DOMAIN_LIBREOFFICE=/path/to/libreoffice-fr \\
        RAG_NEW_DOMAIN_GNOME=/path/to/gnome-fr RAG_NEW_DOMAIN_EYES17=/path/to/eyes17-fr \\
        RAG_NEW_DOMAIN_SCILAB=/path/to/scilab-fr \\
        nice .venv/bin/python benchmarks/gate_fit.py [--write-model] [--full]

1. Evidence: each collection is built with the default strategy and the bundled model (vectors
   cached by benchmarks/_common.CachedEmbedder; the demo's shipped vectors replayed); each
   question is retrieved as `rag ask` does (hybrid, top 6) and what the gate reads is kept: the
   passages' cosines and texts, the document frequencies of the question's keys, and the cosines
   of its BACKGROUND_DEPTH nearest chunks (cached under the vector cache, never in the repository).
2. The rate of in-base questions the cut-off may refuse is chosen through the folds among RATES
   (`choose_rate`).
3. Leave one corpus out: for each of CORPORA (demo, cnil, docsfr, GIMP), a logistic model is
   fitted on the others (balanced classes, a little L2) and its two cut-offs chosen on them,
   asymmetrically: `refuse_below` refuses at most that rate of each kind of their in-base
   questions (plain, with readers' details, with typos), `answer_from` answers with no doubt at
   most ANSWER_OFF_TOPIC of their off-topic ones. It is then measured on the corpus left out, each
   set and kind apart, both sides; and calibrated with the product's own `--save-threshold`
   calibration on half of its questions, measured on the other half.
4. The shipped model is fitted on all of CORPORA. The sets of NEW_DOMAIN (LilyPond's, KiCad's,
   SQLite's, the Debian reference's, LibreOffice's) are never fitted on: they are measured with the
   shipped model (`gate_new_domain.json`).
   `--full` measures the shipped model on the full cnil and docs-fr collections too (FULL; an hour
   of embedding the first time), whose sets beyond the small collections' were never fitted on.

Comparisons, never written into the model: `--features` (other signals), `--corpora` (other corpora to
fit on; a new-domain set named there becomes one more fold, the others stay measured only), `--rate`
(the refusal rate fixed instead of chosen); their results go to gate_fit_<label>.json (`--label`, else
the features' names).

Writes benchmarks/results/gate_fit.json (folds, and `full`), gate_sets.json (the shipped model on
the sets it was fitted on) and, with --write-model, the model file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    RESULTS, CachedEmbedder, embed_threads, finish, machine, say, settings_for, temp_data_dir, vector_cache,
)
import gate_sets  # noqa: E402

from rag.answer import gate as gate_module, gate_signals  # noqa: E402
from rag.answer.gate import GateModel, GateParams, decide_verdict  # noqa: E402
from rag.answer.gate_signals import Signals, signals_from  # noqa: E402
from rag.answer.retrieve import retrieve  # noqa: E402
from rag.answer.threshold import default_threshold  # noqa: E402
from rag.demo.vectors import replaying  # noqa: E402
from rag.embeddings.embedded import EmbeddedEmbedder  # noqa: E402
from rag.evaluate.calibration import calibrate_gate, refusals_allowed  # noqa: E402
from rag.ingest.run import ingest  # noqa: E402
from rag.store.store import Store  # noqa: E402
from rag.store.terms import question_keys, question_words  # noqa: E402

# Version 2 of the evidence keeps the question's background cosines too (a new version recomputes it).
EVIDENCE_VERSION = 2
FEATURES = ("cosine", "peak", "rare_held", "rare_unknown", "drift")
# The asymmetry: a false refusal is silent and costs the reader the answer; an off-topic question
# let through as unsure costs one model call, whose prompt refuses. The cut-off refuses at most a
# rate of each kind of in-base question of the corpora it is fitted on; the rate is one of RATES,
# chosen through the folds (`choose_rate`).
RATES = (0.01, 0.02, 0.03, 0.05)
REFUSE_IN_BASE = RATES[0]
ANSWER_OFF_TOPIC = 0.03
L2 = 0.01
# corpus: the collections built on it (name in gate_sets.COLLECTIONS)
# GIMP's manual was the first new-domain set: measured blind twice (benchmarks/README.md), it is
# now a corpus like the others; LilyPond's, KiCad's, SQLite's, the Debian reference's and LibreOffice's
# (NEW_DOMAIN) are the sets nobody fits on.
CORPORA = {
    "demo": ("demo",),
    "cnil": ("cnil_small", "cnil_context_small", "cnil_variants_small"),
    "docsfr": ("docsfr_small", "docsfr_variants_small"),
    "gimp": ("gimp",),
}
# Measured with the shipped model, never fitted on: LilyPond's set (measured blind once, then seen),
# KiCad's (its manuals, mostly English), SQLite's (English pages), the Debian reference's (French
# system administration) and LibreOffice's (French office software guides), with questions in French.
NEW_DOMAIN = ("lilypond", "kicad", "sqlite", "debian_reference", "libreoffice", "gnome", "eyes17", "scilab")
# Full collections, measured only (--full): every article of the corpus, not just those that answer.
FULL = {"cnil (full)": ("cnil",), "docsfr (full)": ("docsfr",)}
# A set's kind of questions, for the report (plain questions, or with readers' details and typos).
DETAILS = ("context", "details", "variants", "reader")


def kind_of(set_name: str, category: str | None) -> str:
    if category in ("plain", "reader-detail", "typo-everyday"):
        return {"plain": "plain", "reader-detail": "details", "typo-everyday": "typos"}[category]
    return "details" if any(d in set_name for d in DETAILS) else "plain"


# -- 1. evidence -----------------------------------------------------------------------------------


def evidence(name: str, model: Any, store: Any, cache: Path) -> list[dict[str, Any]]:
    sets = gate_sets.sets_for(name)
    path = cache / f"gate-evidence-{EVIDENCE_VERSION}-{name}-{_sets_hash(sets)}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    docs = gate_sets.documents(name, sets)
    collection = f"fit_{name}"
    embedder = replaying(model, "markdown", {}) if name == "demo" else model
    report = ingest(docs, store, embedder, collection, strategy="markdown", full=True)
    assert report.ok, report.summary()
    info = store.collection_info(collection)
    n = store.count(collection)
    rows: dict[str, dict[str, Any]] = {}
    for set_name, (inside, outside) in sets.items():
        for q in inside + outside:
            row = rows.get(q.id)
            if row is None:
                passages = retrieve(q.question, store, embedder, collection, top_k=gate_sets.TOP_K, mode="hybrid",
                                    **gate_sets.CONTEXT)
                keys = question_keys(question_words(q.question))
                df, _ = gate_module.document_frequencies(store, collection, keys, None)
                vector = embedder.embed_query(q.question)
                dense = [h.score for h in store.search_dense(collection, vector, gate_signals.BACKGROUND_DEPTH)]
                row = rows[q.id] = {
                    "id": q.id, "question": q.question, "in_base": q.in_base, "category": q.category,
                    "collection": name, "small": gate_sets.COLLECTIONS[name][1], "sets": [],
                    "rank": next((p.n for p in passages if p.url in q.accepted_urls), None) if q.in_base else None,
                    "passages": [{"score": p.score, "text": p.text} for p in passages],
                    "df": df, "n": n, "exact": gate_module.has_exact_terms(info),
                    "dense": dense,
                    "model_id": model.model_id,
                }
            row["sets"].append(set_name)
    store.delete_collection(collection)
    out = list(rows.values())
    path.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    say(f"[{name}] {len(docs)} articles, {n} chunks, {len(out)} questions")
    return out


def _sets_hash(sets: dict[str, tuple[list, list]]) -> str:
    text = json.dumps({k: [q.question for q in a + b] for k, (a, b) in sets.items()}, sort_keys=True)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=5).hexdigest()


class _P:
    def __init__(self, score: float, text: str) -> None:
        self.score, self.text = score, text


def signals_of(row: dict[str, Any], model: Any = None) -> Signals:
    """The gate's signals of an evidence row; `drift` with `model` (the question and the question
    without its rare missing words embedded by it, as the live gate does; cached vectors)."""
    background = statistics.median(row["dense"]) if row.get("dense") else None
    signals = signals_from(row["question"], [_P(p["score"], p["text"]) for p in row["passages"]], row["df"],
                           row["n"], row["exact"], background=background)
    if model is not None and signals.held is not None and not signals.other_language:
        words, question = gate_signals.rare_missing(signals), row["question"].strip()
        signals.drift = gate_signals.drift_of(question, words, model.embed_query(question) if words else None,
                                             model.embed_query)
    return signals


# -- 2. fit ------------------------------------------------------------------------------------------


def matrix(rows: Sequence[dict[str, Any]], params: GateParams,
           means: dict[str, float] | None = None) -> tuple[np.ndarray, np.ndarray, dict[str, float]]:
    """The signals of `rows` (a signal not measured counts as its mean over `rows`, or `means`)."""
    raw = [[gate_module.features(r["signals"], params)[f] for f in FEATURES] for r in rows]
    if means is None:
        means = {f: float(np.mean([v[i] for v in raw if v[i] is not None] or [0.0])) for i, f in enumerate(FEATURES)}
    x = np.array([[means[f] if v[i] is None else v[i] for i, f in enumerate(FEATURES)] for v in raw])
    y = np.array([1.0 if r["in_base"] else 0.0 for r in rows])
    return x, y, means


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[np.ndarray, float]:
    """Weighted logistic regression by Newton's method on standardised signals (so that the L2
    penalty weighs each alike: the cosine varies by hundredths, the shares by tenths); each class
    weighs half. Returns the weights and bias of the raw signals."""
    mean, std = x.mean(axis=0), np.maximum(x.std(axis=0), 1e-6)
    weights, bias = _newton((x - mean) / std, y, l2)
    return weights / std, bias - float(np.sum(weights * mean / std))


def _newton(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    w_class = np.where(y == 1, 0.5 / max(y.sum(), 1), 0.5 / max((1 - y).sum(), 1))
    a = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(a.shape[1])
    reg = np.diag([0.0] + [l2] * x.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(a @ beta, -50, 50)))
        grad = a.T @ (w_class * (p - y)) + reg @ beta
        hess = a.T @ (a * (w_class * p * (1 - p))[:, None]) + reg
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-9:
            break
    return beta[1:], float(beta[0])


def cutoffs(p_in: dict[str, np.ndarray], p_out: np.ndarray, rate: float = REFUSE_IN_BASE) -> tuple[float, float]:
    """refuse_below: refuses at most `rate` of each kind of in-base question (`p_in`: kind ->
    probabilities); answer_from: answers with no doubt at most ANSWER_OFF_TOPIC of the off-topic
    (never under refuse_below)."""
    refuse_below = min((float(np.sort(p)[int(np.floor(rate * len(p)))]) - 1e-6 for p in p_in.values() if len(p)),
                       default=0.0)
    outs = np.sort(p_out)[::-1]
    j = int(np.floor(ANSWER_OFF_TOPIC * len(outs)))
    answer_from = float(outs[j]) + 1e-6 if len(outs) else 1.0
    return round(refuse_below, 6), round(max(answer_from, refuse_below), 6)


def fit(rows: Sequence[dict[str, Any]], params: GateParams, rate: float = REFUSE_IN_BASE) -> GateModel:
    x, y, means = matrix(rows, params)
    weights, bias = fit_logistic(x, y)
    means = {f: round(v, 6) for f, v in means.items()}
    probe = GateModel(dict(zip(FEATURES, weights.tolist())), bias, 0.0, 1.0, means)
    p = np.array([probe.probability(gate_module.features(r["signals"], params)) for r in rows])
    kinds = {k: p[[r["in_base"] and r["kind"] == k for r in rows]] for k in {r["kind"] for r in rows if r["in_base"]}}
    refuse_below, answer_from = cutoffs(kinds, p[y == 0], rate)
    return GateModel({f: round(float(w), 6) for f, w in zip(FEATURES, weights)}, round(bias, 6),
                     round(refuse_below, 6), round(answer_from, 6), means)


# -- 3. measure --------------------------------------------------------------------------------------


def verdicts(rows: Sequence[dict[str, Any]], params: GateParams, model: GateModel) -> list[str]:
    return [decide_verdict(r["signals"], params, model)[0] for r in rows]


def shares(rows: Sequence[dict[str, Any]], params: GateParams, model: GateModel) -> dict[str, Any]:
    v = verdicts(rows, params, model)
    ins = [x for x, r in zip(v, rows) if r["in_base"]]
    outs = [x for x, r in zip(v, rows) if not r["in_base"]]

    def share(items: list[str], verdict: str) -> float | None:
        return round(sum(x == verdict for x in items) / len(items), 4) if items else None
    return {"in_base": len(ins), "off_topic": len(outs),
            "in_base_refused": share(ins, "refuse"), "in_base_unsure": share(ins, "unsure"),
            "off_topic_refused": share(outs, "refuse"), "off_topic_answered": share(outs, "answer"),
            "refused_in_base": [r["question"] for x, r in zip(v, rows) if r["in_base"] and x == "refuse"],
            "answered_off_topic": [r["question"] for x, r in zip(v, rows) if not r["in_base"] and x == "answer"]}


def by_set(rows: Sequence[dict[str, Any]], params: GateParams, model: GateModel) -> dict[str, Any]:
    """Per collection and set, per kind (plain / details / typos) of in-base question and per
    category of off-topic one (near-domain, everyday) where the set names them."""
    out: dict[str, Any] = {}
    for coll in sorted({r["collection"] for r in rows}):
        mine = [r for r in rows if r["collection"] == coll]
        for set_name in sorted({s for r in mine for s in r["sets"]}):
            chosen = [r for r in mine if set_name in r["sets"]]
            out[f"{coll}/{set_name}"] = {"small": chosen[0]["small"], **shares(chosen, params, model)}
    for kind in ("plain", "details", "typos"):
        chosen = [r for r in rows if r["in_base"] and r["kind"] == kind]
        if chosen:
            out[f"all in-base, {kind}"] = shares(chosen, params, model)
    off_topic = [r for r in rows if not r["in_base"]]
    for category in sorted({r["category"] for r in off_topic if r.get("category")}):
        out[f"all off-topic, {category}"] = shares([r for r in off_topic if r.get("category") == category],
                                                    params, model)
    out["all"] = shares(rows, params, model)
    return out


def separation(rows: Sequence[dict[str, Any]], params: GateParams) -> dict[str, Any]:
    """How well each signal alone tells in-base from off-topic questions among those holding a rare
    word no visible chunk holds (the readers' details against the subjects no article treats): the
    AUC, the chance that an in-base question's value is the higher (0.5: no better than a coin)."""
    chosen = [r for r in rows if gate_signals.rare_missing(r["signals"])]
    out: dict[str, Any] = {"in_base": sum(r["in_base"] for r in chosen), "off_topic": sum(not r["in_base"] for r in chosen)}
    for name in FEATURES:
        pairs = [(gate_module.features(r["signals"], params)[name], r["in_base"]) for r in chosen]
        ins = [v for v, b in pairs if v is not None and b]
        outs = [v for v, b in pairs if v is not None and not b]
        if ins and outs:
            wins = sum((a > b) + 0.5 * (a == b) for a in ins for b in outs)
            out[name] = round(wins / (len(ins) * len(outs)), 3)
    return out


def retrieval(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """hit@6 and MRR of the in-base questions (the gate does not change retrieval: a check)."""
    ranks = [r["rank"] for r in rows if r["in_base"]]
    if not ranks:
        return {}
    return {"in_base": len(ranks), "hit_at_6": round(sum(r is not None for r in ranks) / len(ranks), 4),
            "mrr": round(sum(1 / r for r in ranks if r) / len(ranks), 4)}


def halves(rows: Sequence[dict[str, Any]], params: GateParams, model: GateModel) -> dict[str, Any]:
    """Calibrated with the product's calibration (`rag eval --save-threshold`) on every other
    question, measured on the others; and the other way round. Beside it (`cutoff`), what moving
    the model's own refusal cut-off instead of the cosine floor would give, chosen on the same half
    by the same criterion: a comparison, not what the product does."""
    out = {}
    ordered = sorted(rows, key=lambda r: r["id"])
    for name, cal, test in (("a", ordered[0::2], ordered[1::2]), ("b", ordered[1::2], ordered[0::2])):
        suggested = (calibrate_gate([_result_row(r) for r in cal], model=model,
                                    min_coverage=params.min_coverage).get("suggested") or {})
        floor = suggested.get("min_cosine", params.min_cosine)
        calibrated = GateParams(floor, params.min_coverage, True, "collection")
        moved = replace(model, refuse_below=calibrated_cutoff(cal, params, model))
        out[name] = {"min_cosine": floor, **{k: v for k, v in shares(test, calibrated, model).items()},
                     "cutoff": {"refuse_below": round(moved.refuse_below, 4), **shares(test, params, moved)}}
    return out


def calibrated_cutoff(rows: Sequence[dict[str, Any]], params: GateParams, model: GateModel) -> float:
    """The highest refusal cut-off that refuses no more in-base questions of `rows` than the
    product's calibration allows (`refusals_allowed`), never over `answer_from`."""
    p_in = sorted(model.probability(gate_module.features(r["signals"], params)) for r in rows if r["in_base"])
    if not p_in:
        return model.refuse_below
    return min(p_in[refusals_allowed(len(p_in))], model.answer_from) - 1e-9


def choose_rate(rows: dict[str, list[dict[str, Any]]], params: GateParams) -> tuple[float, dict[str, Any]]:
    """Each rate of RATES through the leave-one-corpus-out folds. A false refusal costs most, so
    only the rates whose worst in-base refusal (any fold, any kind of question) is no worse than
    the most cautious rate's are eligible; of those, the one refusing the most off-topic questions
    on average over the folds is kept (the lowest on a tie)."""
    trials: dict[str, Any] = {}
    for rate in RATES:
        folds = {c: by_set(rows[c], params, fit([r for o in rows if o != c for r in rows[o]], params, rate))
                 for c in rows}
        worst = max(v["in_base_refused"] for f in folds.values() for k, v in f.items()
                    if k.startswith("all in-base, ") and v["in_base_refused"] is not None)
        off = [f["all"]["off_topic_refused"] for f in folds.values()]
        trials[str(rate)] = {"worst_in_base_refused": worst, "mean_off_topic_refused": round(float(np.mean(off)), 4),
                             "min_off_topic_refused": min(off),
                             "max_off_topic_answered": max(f["all"]["off_topic_answered"] for f in folds.values())}
    cautious = trials[str(RATES[0])]["worst_in_base_refused"]
    eligible = [r for r in RATES if trials[str(r)]["worst_in_base_refused"] <= cautious + 1e-9]
    return max(eligible, key=lambda r: (trials[str(r)]["mean_off_topic_refused"], -r)), trials


def _result_row(r: dict[str, Any]) -> dict[str, Any]:
    """What results.json holds of a question (rag.evaluate.runner): the calibration reads that."""
    return {"id": r["id"], "in_base": r["in_base"], **r["signals"].to_dict()}


def main(argv: list[str] | None = None) -> int:
    global FEATURES
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-model", action="store_true", help="write rag/answer/gate_model.json")
    parser.add_argument("--corpora", default=",".join(CORPORA))
    parser.add_argument("--new-domain", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--full", action="store_true", help="measure the full cnil and docs-fr collections too (FULL)")
    parser.add_argument("--features", default=",".join(FEATURES),
                        help="the signals the model reads (rag.answer.gate.features), to compare sets of them "
                             "through the same folds; the results go to gate_fit_<features>.json, never the model")
    parser.add_argument("--rate", type=float, default=None,
                        help="the refusal rate, fixed instead of chosen through the folds (a comparison)")
    parser.add_argument("--label", default=None, help="a comparison's results file: gate_fit_<label>.json")
    args = parser.parse_args(argv)
    fitted_on = args.corpora.split(",")
    unknown = [c for c in fitted_on if c not in CORPORA and c not in NEW_DOMAIN]
    if unknown:
        parser.error(f"--corpora: unknown {', '.join(unknown)}; one of {', '.join([*CORPORA, *NEW_DOMAIN])}")
    # Fitting on other corpora (a new-domain set among them: it becomes one more fold), another rate
    # or other signals is a comparison: its results go beside the shipped model's, never into it.
    compared = (tuple(args.features.split(",")) != FEATURES or fitted_on != list(CORPORA)
                or args.rate is not None or args.label is not None)
    FEATURES = tuple(args.features.split(","))
    if compared and args.write_model:
        parser.error("--write-model writes the model of the default --features, --corpora and rate only")
    started = time.monotonic()
    cache = vector_cache()
    model = CachedEmbedder(EmbeddedEmbedder(threads=embed_threads()), cache)
    params = GateParams(default_threshold(model.model_id))
    corpora = {c: CORPORA.get(c, (c,)) for c in fitted_on}
    measured_only = [d for d in NEW_DOMAIN if d not in corpora] if args.new_domain else []
    sources = {**corpora, **{d: (d,) for d in measured_only}, **(FULL if args.full else {})}
    rows: dict[str, list[dict[str, Any]]] = {}
    with temp_data_dir("gate-fit") as data_dir:
        store = Store(settings_for(data_dir))
        try:
            for corpus, names in sources.items():
                rows[corpus] = [r for name in names for r in evidence(name, model, store, cache)]
        finally:
            store.close()
    for corpus_rows in rows.values():
        for r in corpus_rows:
            r["signals"] = signals_of(r, model)
            r["kind"] = kind_of(r["sets"][0], r.get("category"))
    rate, trials = choose_rate({c: rows[c] for c in corpora}, params)
    rate = rate if args.rate is None else args.rate
    say(f"rate {rate}: {json.dumps(trials)}")
    result: dict[str, Any] = {"machine": machine(), "features": FEATURES, "params": params.to_dict(),
                              "refuse_in_base": rate, "rates": trials, "answer_off_topic": ANSWER_OFF_TOPIC,
                              "folds": {}}
    for left_out in corpora:
        train = [r for c in corpora if c != left_out for r in rows[c]]
        if not train:
            continue
        fold_model = fit(train, params, rate)
        result["folds"][left_out] = {"model": _model_dict(fold_model),
                                     "measured": by_set(rows[left_out], params, fold_model),
                                     "calibrated_on_half": halves(rows[left_out], params, fold_model)}
        say(f"fold {left_out}: {json.dumps(result['folds'][left_out]['measured']['all'])[:300]}")
    shipped = fit([r for c in corpora for r in rows[c]], params, rate)
    result["shipped"] = _model_dict(shipped)
    if args.write_model:
        gate_module.MODEL_PATH.write_text(json.dumps({
            **_model_dict(shipped), "refuse_in_base": rate, "fitted_on": list(corpora),
            "command": "benchmarks/gate_fit.py --write-model",
        }, indent=2) + "\n", encoding="utf-8")
        gate_module.load_model.cache_clear()
    result["retrieval"] = {c: retrieval(rows[c]) for c in rows}
    result["separation"] = {c: separation(rows[c], params) for c in rows}
    full = [c for c in FULL if c in rows]
    if full:  # measured with the shipped model, never fitted on
        result["full"] = {c: by_set(rows[c], params, shipped) for c in full}
    if compared:
        result["fitted_on"] = list(corpora)
        result["measured_only"] = {d: by_set(rows[d], params, shipped) for d in measured_only}
        finish(result, RESULTS / f"gate_fit_{args.label or '_'.join(FEATURES)}.json", started)
        return 0
    finish(result, RESULTS / "gate_fit.json", started)
    # The shipped model on the sets it was fitted on: the current figures, not a blind measure.
    current = {"note": "fitted on these sets (every corpus but NEW_DOMAIN's): not a blind measure",
               "model": _model_dict(shipped), "params": params.to_dict(),
               "sets": by_set([r for c in corpora for r in rows[c]], params, shipped)}
    (RESULTS / "gate_sets.json").write_text(json.dumps(current, indent=2, ensure_ascii=False) + "\n",
                                            encoding="utf-8")
    new = {d: {"model": _model_dict(shipped), "chunks": rows[d][0]["n"] if rows[d] else None,
               "measured": by_set(rows[d], params, shipped),
               "calibrated_on_half": halves(rows[d], params, shipped), "retrieval": retrieval(rows[d])}
           for d in measured_only}
    if new:
        new["refusal_rates"] = other_rates([r for c in corpora for r in rows[c]], {d: rows[d] for d in new}, params)
        path = RESULTS / "gate_new_domain.json"
        old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        path.write_text(json.dumps({**old, **new}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        for d, measured in ((d, m) for d, m in new.items() if d in measured_only):
            say(f"new domain {d}: {json.dumps(measured['measured']['all'])[:300]}")
    return 0


def other_rates(train: list[dict[str, Any]], sets: dict[str, list[dict[str, Any]]],
                params: GateParams) -> dict[str, Any]:
    """What each refusal rate (0 and RATES) would do on the sets never fitted on: the shipped model
    refitted at that rate, each set's in-base questions refused by kind and its off-topic ones
    refused and answered. A measure of the trade the chosen rate makes, not a choice."""
    out: dict[str, Any] = {}
    for rate in (0.0, *RATES):
        model = fit(train, params, rate)
        out[str(rate)] = {"refuse_below": model.refuse_below}
        for name, rows in sets.items():
            measured = by_set(rows, params, model)
            out[str(rate)][name] = {
                "in_base_refused": {k.split(", ")[1]: v["in_base_refused"] for k, v in measured.items()
                                    if k.startswith("all in-base, ")},
                "off_topic_refused": measured["all"]["off_topic_refused"],
                "off_topic_answered": measured["all"]["off_topic_answered"]}
    return out


def _model_dict(m: GateModel) -> dict[str, Any]:
    return {"weights": dict(m.weights), "bias": m.bias, "refuse_below": m.refuse_below, "answer_from": m.answer_from,
            "means": dict(m.means)}


if __name__ == "__main__":
    sys.exit(main())
