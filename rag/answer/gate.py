"""The answerability gate: answer, or refuse before any model call, and say why.

Signals, measured per question (benchmarks/README.md, "The answerability gate"):

- `cosine`: the best dense cosine among the retrieved passages (the threshold of old);
- `coverage`: the IDF-weighted share of the question's words that occur somewhere in the
  collection the reader may see (a plain word by the most frequent of its inflected forms,
  rag.store.terms.word_forms: "purgent" is known when chunks hold "purger"). Off-topic questions
  name things the blog never mentions; the cosine cannot see that, the collection's vocabulary can;
- `unknown_names`: the question's named things (Okta, S/4HANA, 0x80090308) that no chunk holds;
- `passage_coverage`: the same share within the retrieved passages only;
- `context_words`: the unknown words that describe the reader's situation, not the subject
  (rag.answer.question_roles: "chez Airbus", "le serveur de Gérard", a date). They are set
  aside: `core_coverage` and `core_passage_coverage` are the shares without them, and
  `cosine_core` the retrieved passages' best cosine to the question without them (the context
  dilutes the question's vector);
- `unknown_subject`: the unknown names that are the thing asked about (Okta, S/4HANA, podman);
- an acronym no chunk holds that a retrieved passage spells out ("CNI": "carte nationale
  d'identité", rag.answer.acronyms) counts as held by those passages (`TermStat.spelled`).

Verdict (`decide_verdict`): refuse when an unknown name is the subject and the rest of the
question is not what the passages are about, when the core coverage is below `min_coverage` by
more than UNSURE_BAND, or when the cosine (or the core's) is below `min_cosine`; unsure when one
unknown name or a core coverage just under the floor leaves the question in doubt while its
passages are close (the chat model then decides, with the prompt's refusal rule); else answer.
Each refusal has its reason, said in the question's language. The statistics are document
frequencies counted by the store under the reader's access filter, so a term found only in a
document the reader may not see counts as absent, for every signal: a refusal never reveals that
it exists, and the core cosine is computed on passages the reader may see only.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Mapping, Sequence

from rag.answer.acronyms import is_acronym, spelled
from rag.answer.language_words import common, ordinary, rare
from rag.answer.question_roles import roles
from rag.answer.threshold import COLLECTION, MODEL_DEFAULT, SETTING, default_threshold
from rag.i18n import language as in_language, t
from rag.i18n.numbers import decimal
from rag.store.filters import Where, match
from rag.store.terms import (
    EXACT_FROM, READABLE_VERSIONS, TERMS_FIELD, QuestionWord, passage_keys, question_keys, question_words,
)
from datetime import UTC

# The cosine floor's default is the embedding model's (rag.threshold: scores are not comparable
# across models); coverage and unknown names do not depend on the model. Measured on three
# corpora and their off-topic lists without calibration (benchmarks/README.md).
DEFAULT_MIN_COVERAGE = 0.6
# How far below the cosine floor a question may score and still be answered when every word of it,
# a name among them, is in the retrieved passages (exact_match).
LEXICAL_SLACK = 0.05
# How far under `min_coverage` the core coverage may fall and leave the question to the chat
# model (verdict unsure) rather than refuse it; and the share of the question's weight the known
# words must carry in the retrieved passages for one unknown name to leave it in doubt. Shares of
# the question's own words: they do not depend on the collection's size (benchmarks/README.md).
UNSURE_BAND = 0.05
SUBJECT_COVERED = 0.8
MAX_DOUBTFUL_NAMES = 2
# Everyday words a collection lacks leave the question in doubt only when the passages are
# clearly closer than the floor: everyday off-topic questions score at the floor itself.
CLEAR_MARGIN = 0.01
COSINE_SLOPE = 6.0

ANSWER, UNSURE, REFUSE = "answer", "unsure", "refuse"


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
class TermStat:
    word: str
    keys: list[str]  # the keys counted for this word (the compound, else its parts)
    df: int  # chunks (readable by the reader) holding the rarest of them
    idf: float
    named: bool
    context: bool = False  # a detail of the situation (rag.answer.question_roles), set aside
    spelled: str | None = None  # an acronym no chunk holds, spelled out by a retrieved passage thus


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
    context_words: list[str] = field(default_factory=list)  # unknown words of the situation, set aside
    unknown_subject: list[str] = field(default_factory=list)  # unknown names that are the subject
    core_coverage: float | None = None  # coverage without the context words
    core_passage_coverage: float | None = None
    cosine_core: float | None = None  # best cosine of the passages to the question without them
    # Everyday words of the language no chunk holds ("reçois", "cesse"), and the shares of the core
    # without them: what a small collection's vocabulary may lack, apart from the subject's words.
    ordinary_words: list[str] = field(default_factory=list)
    specific_coverage: float | None = None
    specific_passage_coverage: float | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("cosine", "coverage", "passage_coverage", "margin", "core_coverage",
                    "core_passage_coverage", "cosine_core", "specific_coverage", "specific_passage_coverage"):
            if data[key] is not None:
                data[key] = round(float(data[key]), 4)
        for term in data["terms"]:
            term["idf"] = round(term["idf"], 3)
        return data


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


def idf(df: int, n: int) -> float:
    """BM25's IDF, never negative; a term no chunk holds weighs the most."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def term_stats(words: Sequence[QuestionWord], df: Mapping[str, int], n: int,
               context: set[str] | frozenset[str] = frozenset(), tools: set[str] | frozenset[str] = frozenset(),
               exact: bool = False) -> list[TermStat]:
    """One statistic per question word. A compound counts whole when some chunk holds it whole
    (msDS-SupportedEncryptionTypes), else by its parts, each its own word (S/4HANA -> 4hana).
    A plain word counts by the most frequent of its inflected forms ("purgent" is known when
    chunks hold "purger"); `keys` stays the word's own key, as typed.

    A word that neither the language nor the collection uses is a name, the thing asked about
    (rag.answer.language_words: "keepalived", "cron"), and with `exact` (the collection holds
    whole keys) a word rare in the language is looked up whole: "journalctl" is not "journal"."""
    stats: list[TermStat] = []
    seen: set[str] = set()
    for w in words:
        whole_word = exact and w.exact is not None and (w.named or w.text in tools or rare(w.text))
        if whole_word:
            keys = [w.exact]
        else:
            keys = [w.whole] if w.whole and df.get(w.whole, 0) > 0 else list(w.parts)
        keys = [k for k in keys if k not in seen]
        if not keys:
            continue
        seen.update(keys)
        count = min(df.get(k, 0) for k in keys)  # an identifier is absent when one of its parts is
        if w.forms and not whole_word:
            count = max([count] + [df.get(k, 0) for k in w.forms])
        named = w.named or w.text in tools or (count == 0 and w.text not in context and rare(w.text))
        stats.append(TermStat(w.text, keys, count, idf(count, n), named, w.text in context and count == 0))
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
               if s.spelled or all(k in found or forms.get(k, set()) & found for k in s.keys)) / total


def with_spelled_acronyms(stats: Sequence[TermStat], passage_texts: Sequence[str], n: int) -> list[TermStat]:
    """The stats with each unknown acronym that a retrieved passage spells out ("CNI": "carte
    nationale d'identité") counted as held by those passages: the reader used the short form of
    what the articles write in full. Only the retrieved passages are read, and they are what the
    reader may see (the access filter holds)."""
    candidates = [s.word for s in stats if s.df == 0 and is_acronym(s.word)]
    if not candidates:
        return list(stats)
    found = spelled(candidates, passage_texts)
    out: list[TermStat] = []
    for s in stats:
        phrase = found.get(s.word.upper()) if s.df == 0 and is_acronym(s.word) else None
        if phrase:
            holding = sum(1 for t in passage_texts if spelled([s.word], [t]))
            s = replace(s, df=holding, idf=idf(holding, n), spelled=phrase, context=False)
        out.append(s)
    return out


def signals_from(
    question: str, passages: Sequence[Any], df: Mapping[str, int] | None, n: int | None,
    cosine_core: float | None = None, exact: bool = False,
) -> Signals:
    """The gate's signals from retrieved passages (`score`, `text`) and document frequencies.

    `df` None: the collection has no term statistics (built before them); coverage is then None.
    `cosine_core`: the passages' best cosine to the question without its context words.
    """
    scores = [float(p.score) for p in passages if getattr(p, "score", None) is not None]
    best = max(scores) if scores else None
    margin = (best - min(scores)) if len(scores) > 1 else None
    if df is None or n is None:
        return Signals(best, None, None, margin=margin)
    words = question_words(question)
    context, tools = roles(question)
    texts = [getattr(p, "text", "") for p in passages]
    stats = with_spelled_acronyms(term_stats(words, df, n, context, tools, exact), texts, n)
    core = [s for s in stats if not s.context]
    everyday = [s for s in core if s.df == 0 and not s.named and ordinary(s.word)]
    specific = [s for s in core if s not in everyday]
    return Signals(
        cosine=best,
        coverage=coverage(stats),
        passage_coverage=passage_coverage(words, stats, texts),
        unknown_names=[s.word for s in stats if s.named and s.df == 0],
        known_names=[s.word for s in stats if s.named and s.df > 0],
        missing=[s.word for s in stats if s.df == 0],
        margin=margin,
        chunks=n,
        terms=stats,
        context_words=[s.word for s in stats if s.context],
        unknown_subject=[s.word for s in core if s.named and s.df == 0],
        core_coverage=coverage(core),
        core_passage_coverage=passage_coverage(words, core, texts),
        cosine_core=cosine_core,
        ordinary_words=[s.word for s in everyday],
        specific_coverage=coverage(specific),
        specific_passage_coverage=passage_coverage(words, specific, texts),
    )


def without_context(question: str, words: Sequence[str]) -> str:
    """The question with its context words taken out (what `cosine_core` embeds)."""
    import re

    for w in sorted(set(words), key=len, reverse=True):
        question = re.sub(r"(?<!\w)" + re.escape(w) + r"(?!\w)", " ", question)
    return " ".join(question.split())


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
    return verdict, reason


def exact_match(signals: Signals) -> bool:
    """Every word of the question is in the retrieved passages, a named one among them: a bare
    identifier (0x80090308) embeds poorly, but the passage that holds it is about it."""
    return bool(signals.known_names) and (signals.passage_coverage or 0.0) >= 0.999


def _low_cosine(decision: Decision) -> str:
    return t("gate.low_cosine", best=decimal(decision.signals.cosine, 3),
             threshold=decimal(decision.params.min_cosine, 3))


def explain(decision: Decision, language: str) -> str | None:
    """Why the gate refused (or doubts, verdict unsure), in the question's language; None when it
    answers."""
    if decision.answer and not decision.unsure:
        return None
    with in_language(language):
        return _why(decision)


def _why(decision: Decision) -> str:
    s = decision.signals
    if decision.reason == UNKNOWN_NAMES:
        return t("gate.unknown_names", words=", ".join(s.unknown_subject or s.unknown_names))
    if decision.reason == LOW_COVERAGE:
        missing = [w for w in s.missing if w not in s.context_words]
        if missing:
            return t("gate.low_coverage", words=", ".join(missing))
        return _low_cosine(decision)
    if decision.reason == LOW_COSINE:
        return _low_cosine(decision)
    return t("gate.no_passage")


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
        keys = question_keys(question_words(question))
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
