"""The answerability gate: answer, or refuse before any model call, and say why.

The signals are the passages' cosine and the question's words (rag.answer.gate_words: which words
the collection and the passages hold, which are names, which describe the reader's situation),
measured per question (benchmarks/README.md, "The answerability gate").

Verdict (`decide_verdict`): refuse when an unknown name is the subject and the rest of the
question is not what the passages are about, when the core coverage is below `min_coverage` by
more than UNSURE_BAND, when the cosine (or the core's) is below `min_cosine`, when a word of
the subject no chunk holds meets passages within CLEAR_MARGIN of that floor, or when only the
core's cosine reaches the floor and by less than CLEAR_MARGIN, or when a place set aside
(`Signals.places`) meets a question under the floor as written; unsure when one
unknown name or a core coverage just under the floor leaves the question in doubt while its
passages are close (the chat model then decides, with the prompt's refusal rule); else answer.
Each refusal has its reason, said in the question's language. The statistics are document
frequencies counted by the store under the reader's access filter, so a term found only in a
document the reader may not see counts as absent, for every signal: a refusal never reveals that
it exists, and the core cosine is computed on passages the reader may see only.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Callable, Mapping, Sequence

from rag.answer import refusal
from rag.answer.gate_words import SUBJECT_COVERED, Signals, correction_keys, signals_from, without_context
from rag.answer.language_words import common
from rag.answer.threshold import COLLECTION, MODEL_DEFAULT, SETTING, default_threshold
from rag.i18n import language as in_language, t
from rag.store.filters import Where, match
from rag.store.terms import EXACT_FROM, READABLE_VERSIONS, TERMS_FIELD, question_keys, question_words
from datetime import UTC

# The cosine floor's default is the embedding model's (rag.threshold: scores are not comparable
# across models); coverage and unknown names do not depend on the model. Measured on three
# corpora and their off-topic lists without calibration (benchmarks/README.md).
DEFAULT_MIN_COVERAGE = 0.6
# How far below the cosine floor a question may score and still be answered when every word of it,
# a name among them, is in the retrieved passages (exact_match).
LEXICAL_SLACK = 0.05
# How far under `min_coverage` the core coverage may fall and leave the question to the chat
# model (verdict unsure) rather than refuse it; and (SUBJECT_COVERED, rag.answer.gate_words) the
# share of the question's weight the known words must carry in the retrieved passages for one
# unknown name to leave it in doubt. Shares of the question's own words: they do not depend on the
# collection's size (benchmarks/README.md).
UNSURE_BAND = 0.05
MAX_DOUBTFUL_NAMES = 2
# Everyday words a collection lacks leave the question in doubt only when the passages are
# clearly closer than the floor: everyday off-topic questions score at the floor itself.
CLEAR_MARGIN = 0.01
COSINE_SLOPE = 6.0

ANSWER, UNSURE, REFUSE = "answer", "unsure", "refuse"

__all__ = [
    "ANSWER", "CLEAR_MARGIN", "COSINE_SLOPE", "DEFAULT_MIN_COVERAGE", "LEXICAL_SLACK", "LOW_COSINE", "LOW_COVERAGE",
    "MAX_DOUBTFUL_NAMES", "NO_PASSAGE", "REFUSE", "SUBJECT_COVERED", "UNKNOWN_NAMES", "UNSURE", "UNSURE_BAND",
    "Decision", "GateParams", "core_cosine", "decide", "decide_verdict", "document_frequencies",
    "exact_match", "explain", "gate", "gate_for", "has_exact_terms", "has_terms", "no_terms_note", "resolve_params",
    "save_calibration",
]


# Refusal reasons (stable codes, in JSON); their sentences are the catalogue's `gate.<code>`.
NO_PASSAGE, UNKNOWN_NAMES, LOW_COVERAGE, LOW_COSINE = "no_passage", "unknown_names", "low_coverage", "low_cosine"


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
class Decision:
    answer: bool  # the question goes on to the passages and the model (verdict answer or unsure)
    reason: str | None  # one of the reason codes when refused, or what left it unsure
    signals: Signals
    params: GateParams
    note: str | None = None  # e.g. the collection lacks term statistics
    verdict: str | None = None  # answer | unsure | refuse

    def __post_init__(self) -> None:
        if self.verdict is None:
            self.verdict = ANSWER if self.answer else REFUSE

    @property
    def unsure(self) -> bool:
        return self.verdict == UNSURE

    def to_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "refused": not self.answer, "verdict": self.verdict, "reason": self.reason,
                "signals": self.signals.to_dict(), "params": self.params.to_dict(), "note": self.note}


# -- pure ------------------------------------------------------------------------------------


def decide(signals: Signals, params: GateParams) -> tuple[bool, str | None]:
    """(goes on to the passages?, reason code): `decide_verdict` with unsure counted as going on."""
    verdict, reason = decide_verdict(signals, params)
    return verdict != REFUSE, reason


def decide_verdict(signals: Signals, params: GateParams) -> tuple[str, str | None]:
    """(answer | unsure | refuse, reason code). The order is the order of the refusal's explanation.

    What the question asks is its core: the words of the situation (`context_words`) are set
    aside, and the cosine is the better of the whole question's and the core's."""
    if signals.cosine is None:
        return REFUSE, NO_PASSAGE
    cosine = max(signals.cosine, signals.cosine_core or 0.0)
    close = cosine >= params.min_cosine or (
        exact_match(signals) and cosine >= params.min_cosine - LEXICAL_SLACK)
    verdict = ANSWER
    reason = None
    subject = signals.unknown_subject if signals.core_coverage is not None else signals.unknown_names
    if params.refuse_unknown_names and subject:
        # One unknown name beside words the passages hold: a laptop's brand, or the product asked
        # about? The chat model reads both; more than one, or a thin rest, is another subject,
        # unless each is a word of the language (a first name, a town: "que Marc veut lancer
        # sur l'OU Paris").
        covered = max(signals.core_passage_coverage or 0.0, signals.specific_passage_coverage or 0.0)
        # A name of the language (a first name, a town, a brand: "Paul", "Dell") may be the
        # reader's situation; one the language does not use ("Okta", "keepalived") is a product.
        of_language = len(subject) <= MAX_DOUBTFUL_NAMES and all(common(w) for w in subject)
        if close and (len(subject) == 1 or of_language) and covered >= SUBJECT_COVERED:
            verdict, reason = UNSURE, UNKNOWN_NAMES
        else:
            return REFUSE, UNKNOWN_NAMES
    share = signals.core_coverage if signals.core_coverage is not None else signals.coverage
    if signals.other_language and signals.specific_coverage is not None:
        # An English question on French articles: its everyday words ("shows", "listening") are
        # words of another language, which the articles cannot hold; its specific words decide.
        share = signals.specific_coverage
    if share is not None and share < params.min_coverage:
        # The closer the passages, the more of the question's words a small vocabulary may lack;
        # and everyday words it lacks ("reçois", "cesse") leave the doubt, while a missing
        # specific word ("corbeille") is what is asked about.
        band = UNSURE_BAND + COSINE_SLOPE * max(0.0, cosine - params.min_cosine)
        specific = signals.specific_coverage if signals.specific_coverage is not None else share
        clear = cosine >= params.min_cosine + CLEAR_MARGIN
        doubt = (share >= params.min_coverage - band or (clear and specific >= params.min_coverage)) \
            and specific >= params.min_coverage - UNSURE_BAND
        if doubt and close and params.min_coverage > 0:
            verdict, reason = UNSURE, reason or LOW_COVERAGE
        else:
            return REFUSE, LOW_COVERAGE
    if not close:
        return REFUSE, LOW_COSINE
    if params.min_coverage > 0 and cosine < params.min_cosine + CLEAR_MARGIN and _subject_missing(signals):
        # A word of what is asked that no chunk holds, with passages not clearly closer than the
        # floor: everyday off-topic questions score at the floor itself ("tailler une glycine",
        # "entretenir un parquet ciré"), where the articles' other words make the share.
        return REFUSE, LOW_COVERAGE
    if params.min_coverage > 0 and signals.places and signals.cosine < params.min_cosine:
        # A place is set aside for a question its passages are close to as written ("médecin
        # généraliste en Auvergne"); one that only its details lift to the floor ("ouvrir le
        # dimanche en Bretagne", 0.817 as written) may be asking about that place.
        return REFUSE, UNKNOWN_NAMES
    if (params.min_coverage > 0 and signals.context_words and signals.cosine < params.min_cosine
            and cosine < params.min_cosine + CLEAR_MARGIN):
        # The passages reach the floor only once the reader's details are set aside (the whole
        # question under it, the core just over it): what is left is an everyday question the
        # articles' words happen to make ("Quel temps fera-t-il à Lyon ce week-end ?", "les
        # horaires du musée du Louvre le dimanche"); the details are what no article mentions.
        # The core must clear the floor by CLEAR_MARGIN to lift the question.
        return REFUSE, UNKNOWN_NAMES
    return verdict, reason


def _subject_missing(signals: Signals) -> bool:
    """Whether a word no chunk holds is neither the reader's situation nor an everyday word."""
    aside = set(signals.context_words) | set(signals.ordinary_words)
    return any(w not in aside for w in signals.missing)


def exact_match(signals: Signals) -> bool:
    """Every word of the question is in the retrieved passages, a named one among them: a bare
    identifier (0x80090308) embeds poorly, but the passage that holds it is about it."""
    return bool(signals.known_names) and (signals.passage_coverage or 0.0) >= 0.999


def explain(decision: Decision, language: str) -> str | None:
    """Why the gate refused (or doubts, verdict unsure), in the question's language; None when it
    answers. The words named are what the reader asked about, the rarest in the language first;
    never an everyday word ("fera", "make") while a distinctive one is missing (rag.answer.refusal)."""
    if decision.answer and not decision.unsure:
        return None
    return refusal.text(refusal.from_decision(decision), language)


def no_terms_note(language: str) -> str:
    with in_language(language):
        return t("gate.no_terms")


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
    return (collection_info or {}).get("terms_version") in READABLE_VERSIONS


def has_exact_terms(collection_info: Mapping[str, Any] | None) -> bool:
    """Whether the collection's points hold long words' whole keys too (term keys version 2)."""
    return has_terms(collection_info) and (collection_info or {}).get("terms_version", 0) >= EXACT_FROM


# -- thin I/O --------------------------------------------------------------------------------


def document_frequencies(
    store: Any, collection: str, keys: Sequence[str], groups: Sequence[str] | None,
) -> tuple[dict[str, int], int]:
    """({key: chunks holding it}, chunks in all), both counted by the store among the points a
    reader of `groups` may see (None: every point), exact."""
    n = store.count(collection, groups=groups)
    return {k: store.count(collection, where=Where(must=(match(TERMS_FIELD, k),)), groups=groups) for k in keys}, n


def term_holder(store: Any, collection: str, collection_info: Mapping[str, Any] | None,
                groups: Sequence[str] | None) -> Callable[[Sequence[str]], bool] | None:
    """holds(terms): does a chunk a reader of `groups` may see hold one of `terms`, keyed as the
    gate keys a question's words? None for a collection without term statistics."""
    if store is None or not collection or not has_terms(collection_info):
        return None

    def holds(terms: Sequence[str]) -> bool:
        keys = question_keys(question_words(" ".join(terms)))
        return any(store.count(collection, where=Where(must=(match(TERMS_FIELD, k),)), groups=groups) for k in keys)
    return holds


def core_cosine(
    question: str, context_words: Sequence[str], passages: Sequence[Any], store: Any, collection: str,
    embedder: Any, groups: Sequence[str] | None,
) -> float | None:
    """The retrieved passages' best cosine to the question without its context words, computed
    by the store on those passages only, under the reader's access filter."""
    ids = [p.id for p in passages if getattr(p, "id", None)]
    core = without_context(question, context_words)
    if not ids or not core or embedder is None:
        return None
    hits = store.search_dense(collection, embedder.embed_query(core), limit=len(ids), groups=groups, ids=ids)
    return max((float(h.score) for h in hits), default=None)


def gate(
    question: str,
    passages: Sequence[Any],
    params: GateParams,
    store: Any = None,
    collection: str | None = None,
    groups: Sequence[str] | None = None,
    collection_info: Mapping[str, Any] | None = None,
    language: str = "fr",
    embedder: Any = None,
) -> Decision:
    """Signals and decision for one question; term statistics from the store when the
    collection has them, else the cosine alone and a note that says how to get them.
    `embedder` (the collection's): measures the core cosine when context words are set aside."""
    note = None
    df = n = None
    if store is not None and collection and has_terms(collection_info):
        words = question_words(question)
        keys = question_keys(words)
        # And the words of the language a word no language uses may mistype (gate_words).
        keys += [k for k in correction_keys(words) if k not in keys]
        df, n = document_frequencies(store, collection, keys, groups)
    elif store is not None and collection:
        note = no_terms_note(language)
    signals = signals_from(question, passages, df, n, exact=has_exact_terms(collection_info))
    if signals.context_words and embedder is not None and store is not None and collection:
        signals.cosine_core = core_cosine(question, signals.context_words, passages, store, collection,
                                          embedder, groups)
    verdict, reason = decide_verdict(signals, params)
    return Decision(verdict != REFUSE, reason, signals, params, note, verdict)


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
    threshold: float | None = None, embedder: Any = None,
) -> Decision:
    """The gate as `rag ask` and the Ask page apply it: the settings' overrides (RAG_THRESHOLD,
    RAG_MIN_COVERAGE), else the collection's calibration, else the model's defaults."""
    from rag.i18n.detect import detect_language

    explicit = threshold if threshold is not None else getattr(settings, "threshold", None)
    params = resolve_params(explicit, collection_info, model_id, getattr(settings, "min_coverage", None))
    return gate(question, passages, params, store, collection, groups, collection_info, detect_language(question),
                embedder)
