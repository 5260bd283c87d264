"""The answerability gate: answer, or refuse before any model call, and say why.

Signals, measured per question (benchmarks/README.md, "The answerability gate"):

- `cosine`: the best dense cosine among the retrieved passages (the threshold of old);
- `coverage`: the IDF-weighted share of the question's words that occur somewhere in the
  collection the reader may see (a plain word by the most frequent of its inflected forms,
  rag.store.terms.word_forms: "purgent" is known when chunks hold "purger"). Off-topic questions
  name things the blog never mentions; the cosine cannot see that, the collection's vocabulary can;
- `unknown_names`: the question's named things (Okta, S/4HANA, 0x80090308) that no chunk holds;
- `passage_coverage`: the same share within the retrieved passages only (reported, not used:
  it did not separate better than the collection's coverage).

Decision: answer when no named thing is unknown, coverage >= `min_coverage` and cosine >=
`min_cosine`. Each refusal has its reason, said in the question's language. The statistics are
document frequencies counted by the store under the reader's access filter, so a term found only
in a document the reader may not see counts as absent: a refusal never reveals that it exists.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Mapping, Sequence

from rag.answer.threshold import COLLECTION, MODEL_DEFAULT, SETTING, default_threshold
from rag.i18n.numbers import decimal
from rag.store.filters import Where, match
from rag.store.terms import TERMS_FIELD, TERMS_VERSION, QuestionWord, passage_keys, question_keys, question_words
from datetime import UTC

# The cosine floor's default is the embedding model's (rag.threshold: scores are not comparable
# across models); coverage and unknown names do not depend on the model. Measured on three
# corpora and their off-topic lists without calibration (benchmarks/README.md).
DEFAULT_MIN_COVERAGE = 0.6
# How far below the cosine floor a question may score and still be answered when every word of it,
# a name among them, is in the retrieved passages (exact_match).
LEXICAL_SLACK = 0.05


# Refusal reasons (stable codes, in JSON) and their sentences.
NO_PASSAGE, UNKNOWN_NAMES, LOW_COVERAGE, LOW_COSINE = "no_passage", "unknown_names", "low_coverage", "low_cosine"
_WHY = {
    "fr": {
        NO_PASSAGE: "aucun passage trouvé",
        UNKNOWN_NAMES: "aucun article ne parle de : {words}",
        LOW_COVERAGE: "aucun article ne parle de : {words}",
        LOW_COSINE: "aucun passage n'est assez proche de la question (meilleur score {best} < seuil {threshold})",
        "no_terms": "Cette collection a été construite avant le filtre par les termes de la question : seul le "
                    "score des passages décide. `rag ingest SOURCE --full` la reconstruit.",
    },
    "en": {
        NO_PASSAGE: "no passage found",
        UNKNOWN_NAMES: "no article mentions: {words}",
        LOW_COVERAGE: "no article mentions: {words}",
        LOW_COSINE: "no passage is close enough to the question (best score {best} < threshold {threshold})",
        "no_terms": "This collection was built before the question-terms check: only the passages' scores "
                    "decide. `rag ingest SOURCE --full` rebuilds it.",
    },
}


@dataclass(frozen=True)
class GateParams:
    """Where the gate's boundary lies. `source`: setting | collection | model default."""

    min_cosine: float
    min_coverage: float = DEFAULT_MIN_COVERAGE
    refuse_unknown_names: bool = True
    source: str = MODEL_DEFAULT

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class TermStat:
    word: str
    keys: list[str]  # the keys counted for this word (the compound, else its parts)
    df: int  # chunks (readable by the reader) holding the rarest of them
    idf: float
    named: bool


@dataclass
class Signals:
    cosine: float | None
    coverage: float | None  # None when the collection has no term statistics
    passage_coverage: float | None
    unknown_names: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # every word no readable chunk holds, as typed
    known_names: list[str] = field(default_factory=list)  # named things some readable chunk holds
    margin: float | None = None  # best cosine minus the last retrieved one
    chunks: int | None = None  # chunks the reader may see
    terms: list[TermStat] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("cosine", "coverage", "passage_coverage", "margin"):
            if data[key] is not None:
                data[key] = round(float(data[key]), 4)
        for t in data["terms"]:
            t["idf"] = round(t["idf"], 3)
        return data


@dataclass
class Decision:
    answer: bool
    reason: str | None  # one of the reason codes when refused
    signals: Signals
    params: GateParams
    note: str | None = None  # e.g. the collection lacks term statistics

    def to_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "refused": not self.answer, "reason": self.reason,
                "signals": self.signals.to_dict(), "params": self.params.to_dict(), "note": self.note}


# -- pure ------------------------------------------------------------------------------------


def idf(df: int, n: int) -> float:
    """BM25's IDF, never negative; a term no chunk holds weighs the most."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def term_stats(words: Sequence[QuestionWord], df: Mapping[str, int], n: int) -> list[TermStat]:
    """One statistic per question word. A compound counts whole when some chunk holds it whole
    (msDS-SupportedEncryptionTypes), else by its parts, each its own word (S/4HANA -> 4hana).
    A plain word counts by the most frequent of its inflected forms ("purgent" is known when
    chunks hold "purger"); `keys` stays the word's own key, as typed."""
    stats: list[TermStat] = []
    seen: set[str] = set()
    for w in words:
        keys = [w.whole] if w.whole and df.get(w.whole, 0) > 0 else list(w.parts)
        keys = [k for k in keys if k not in seen]
        if not keys:
            continue
        seen.update(keys)
        count = min(df.get(k, 0) for k in keys)  # an identifier is absent when one of its parts is
        if w.forms:
            count = max([count] + [df.get(k, 0) for k in w.forms])
        stats.append(TermStat(w.text, keys, count, idf(count, n), w.named))
    return stats


def coverage(stats: Sequence[TermStat]) -> float | None:
    """IDF-weighted share of the words some chunk holds; None for a question with no content word."""
    total = sum(s.idf for s in stats)
    if total <= 0:
        return None
    return sum(s.idf for s in stats if s.df > 0) / total


def passage_coverage(words: Sequence[QuestionWord], stats: Sequence[TermStat], passage_texts: Sequence[str]) -> float | None:
    found = passage_keys(list(passage_texts))
    total = sum(s.idf for s in stats)
    if total <= 0:
        return None
    # A plain word is in the passages when one of its forms is, as for the collection.
    forms = {k: set(w.forms) for w in words if w.forms for k in w.parts}
    return sum(s.idf for s in stats
               if all(k in found or forms.get(k, set()) & found for k in s.keys)) / total


def signals_from(
    question: str, passages: Sequence[Any], df: Mapping[str, int] | None, n: int | None,
) -> Signals:
    """The gate's signals from retrieved passages (`score`, `text`) and document frequencies.

    `df` None: the collection has no term statistics (built before them); coverage is then None.
    """
    scores = [float(p.score) for p in passages if getattr(p, "score", None) is not None]
    best = max(scores) if scores else None
    margin = (best - min(scores)) if len(scores) > 1 else None
    if df is None or n is None:
        return Signals(best, None, None, margin=margin)
    words = question_words(question)
    stats = term_stats(words, df, n)
    return Signals(
        cosine=best,
        coverage=coverage(stats),
        passage_coverage=passage_coverage(words, stats, [getattr(p, "text", "") for p in passages]),
        unknown_names=[s.word for s in stats if s.named and s.df == 0],
        known_names=[s.word for s in stats if s.named and s.df > 0],
        missing=[s.word for s in stats if s.df == 0],
        margin=margin,
        chunks=n,
        terms=stats,
    )


def decide(signals: Signals, params: GateParams) -> tuple[bool, str | None]:
    """(answer?, reason code when not). The order is the order of the refusal's explanation."""
    if signals.cosine is None:
        return False, NO_PASSAGE
    if params.refuse_unknown_names and signals.unknown_names:
        return False, UNKNOWN_NAMES
    if signals.coverage is not None and signals.coverage < params.min_coverage:
        return False, LOW_COVERAGE
    if signals.cosine < params.min_cosine and not (
        exact_match(signals) and signals.cosine >= params.min_cosine - LEXICAL_SLACK
    ):
        return False, LOW_COSINE
    return True, None


def exact_match(signals: Signals) -> bool:
    """Every word of the question is in the retrieved passages, a named one among them: a bare
    identifier (0x80090308) embeds poorly, but the passage that holds it is about it."""
    return bool(signals.known_names) and (signals.passage_coverage or 0.0) >= 0.999


def _low_cosine(text: Mapping[str, str], decision: Decision, language: str) -> str:
    return text[LOW_COSINE].format(best=decimal(decision.signals.cosine, 3, lang=language),
                                   threshold=decimal(decision.params.min_cosine, 3, lang=language))


def explain(decision: Decision, language: str) -> str | None:
    """Why the gate refused, in the question's language; None when it answers."""
    if decision.answer:
        return None
    text = _WHY.get(language, _WHY["fr"])
    s = decision.signals
    if decision.reason == UNKNOWN_NAMES:
        return text[UNKNOWN_NAMES].format(words=", ".join(s.unknown_names))
    if decision.reason == LOW_COVERAGE:
        if s.missing:
            return text[LOW_COVERAGE].format(words=", ".join(s.missing))
        return _low_cosine(text, decision, language)
    if decision.reason == LOW_COSINE:
        return _low_cosine(text, decision, language)
    return text[NO_PASSAGE]


def no_terms_note(language: str) -> str:
    return _WHY.get(language, _WHY["fr"])["no_terms"]


def resolve_params(
    explicit_cosine: float | None,
    collection_info: Mapping[str, Any] | None,
    model_id: str | None,
    explicit_coverage: float | None = None,
) -> GateParams:
    """Order: an explicit setting (RAG_THRESHOLD, --threshold, the sidebar) > the collection's
    calibration (`rag eval --save-threshold`) > the embedding model's defaults."""
    info = collection_info or {}
    saved = info.get("gate") if isinstance(info.get("gate"), Mapping) else {}
    model = model_id or info.get("embedding_model")
    if saved.get("min_cosine") is not None:
        params = GateParams(float(saved["min_cosine"]), float(saved.get("min_coverage", DEFAULT_MIN_COVERAGE)),
                            bool(saved.get("refuse_unknown_names", True)), COLLECTION)
    elif info.get("threshold") is not None:  # calibrated before the gate: the cosine only
        params = GateParams(float(info["threshold"]), DEFAULT_MIN_COVERAGE, True, COLLECTION)
    else:
        params = GateParams(default_threshold(model), DEFAULT_MIN_COVERAGE, True, MODEL_DEFAULT)
    if explicit_cosine is not None:
        params = replace(params, min_cosine=float(explicit_cosine), source=SETTING)
    if explicit_coverage is not None:
        # 0 turns the word checks off: the cosine alone decides, as before the gate.
        params = replace(params, min_coverage=float(explicit_coverage), source=SETTING,
                         refuse_unknown_names=float(explicit_coverage) > 0)
    return params


def has_terms(collection_info: Mapping[str, Any] | None) -> bool:
    """Whether every point of the collection carries term keys of the current version."""
    return (collection_info or {}).get("terms_version") == TERMS_VERSION


# -- thin I/O --------------------------------------------------------------------------------


def document_frequencies(
    store: Any, collection: str, keys: Sequence[str], groups: Sequence[str] | None,
) -> tuple[dict[str, int], int]:
    """({key: chunks holding it}, chunks in all), both counted by the store among the points a
    reader of `groups` may see (None: every point), exact."""
    n = store.count(collection, groups=groups)
    return {k: store.count(collection, where=Where(must=(match(TERMS_FIELD, k),)), groups=groups) for k in keys}, n


def gate(
    question: str,
    passages: Sequence[Any],
    params: GateParams,
    store: Any = None,
    collection: str | None = None,
    groups: Sequence[str] | None = None,
    collection_info: Mapping[str, Any] | None = None,
    language: str = "fr",
) -> Decision:
    """Signals and decision for one question; term statistics from the store when the
    collection has them, else the cosine alone and a note that says how to get them."""
    note = None
    df = n = None
    if store is not None and collection and has_terms(collection_info):
        keys = question_keys(question_words(question))
        df, n = document_frequencies(store, collection, keys, groups)
    elif store is not None and collection:
        note = no_terms_note(language)
    signals = signals_from(question, passages, df, n)
    answer, reason = decide(signals, params)
    return Decision(answer, reason, signals, params, note)


def save_calibration(
    store: Any, collection: str, suggested: Mapping[str, Any], question_set: str | None,
    date: str | None = None,
) -> dict[str, Any]:
    """Record the gate's calibrated settings in the collection's metadata, with the question set
    they come from and when; `threshold` gets the cosine floor too (what older readers use)."""
    from datetime import datetime

    record = {
        "min_cosine": float(suggested["min_cosine"]),
        "min_coverage": float(suggested["min_coverage"]),
        "refuse_unknown_names": bool(suggested.get("refuse_unknown_names", True)),
        "question_set": question_set,
        "date": date or datetime.now(UTC).isoformat(timespec="seconds"),
        "in_base_answered": suggested.get("in_base_answered"),
        "off_topic_refused": suggested.get("off_topic_refused"),
    }
    store.update_metadata(collection, threshold=record["min_cosine"], gate=record)
    return record


def gate_for(
    question: str, passages: Sequence[Any], settings: Any, store: Any, collection: str,
    collection_info: Mapping[str, Any] | None, model_id: str | None, groups: Sequence[str] | None,
    threshold: float | None = None,
) -> Decision:
    """The gate as `rag ask` and the Ask page apply it: the settings' overrides (RAG_THRESHOLD,
    RAG_MIN_COVERAGE), else the collection's calibration, else the model's defaults."""
    from rag.i18n.detect import detect_language

    explicit = threshold if threshold is not None else getattr(settings, "threshold", None)
    params = resolve_params(explicit, collection_info, model_id, getattr(settings, "min_coverage", None))
    return gate(question, passages, params, store, collection, groups, collection_info, detect_language(question))
