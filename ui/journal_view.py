"""The Journal page's parts: filters, the entries, subjects with no article, weeks, CSV, and the
step from an entry into a question set. The logic lives in rag.journal and rag.evaluate."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st

from rag.answer import refusal as refusals
from rag.errors import QuestionSetError, RagError
from rag.evaluate.question_sets import DEMO, add_question, article_titles, saved_sets
from rag.journal import report
from rag.journal.readers import reader_labels
from rag.journal.recheck import recheck_for
from rag.journal.records import OUTCOMES, Entry
from rag.journal.store import Journal
from rag.journal.subjects import Subject, embed_questions
from rag.redact import known_secrets
from ui import lang
from ui.i18n import t, tn
from ui.present.answer import refusal_said
from ui.present.charts import journal_weeks_chart, plotly_config
from ui.present.safe_markdown import link_markdown, sanitize_markdown
from ui.present.times import browser_zone, local_day, local_minute

PAGE = 50  # entries shown before "show more"
SHOWN = "journal_shown"
PERIODS = (7, 30, 90, 0)  # days; 0 = everything kept
_ICONS = {"answered": ":material/check_circle:", "refused_gate": ":material/block:",
          "refused_model": ":material/do_not_disturb_on:", "passages_only": ":material/list:",
          "failed": ":material/error:", "stopped": ":material/stop_circle:"}


@st.cache_resource(show_spinner=False)
def _journal(data_dir: str, days: int) -> Journal:
    # Once per process and data folder: the retention is applied when the dashboard starts.
    journal = Journal.open(Path(data_dir), secrets=known_secrets())
    journal.purge(days)
    return journal


def journal(settings: Any) -> Journal | None:
    """The journal of the settings' data folder, past-retention entries deleted at the first call."""
    try:
        return _journal(str(settings.data_dir), settings.journal_days)
    except RagError as exc:
        lang.error(t("jr.cannot_open"), str(exc))
        return None


def at_start(settings: Any) -> None:
    """The dashboard's start: the journal opened once, the retention applied (silently here)."""
    try:
        _journal(str(settings.data_dir), settings.journal_days)
    except RagError:
        pass  # the Journal page says why; the Ask page still answers


def labels(journal: Journal, settings: Any) -> dict[str, str]:
    return reader_labels(journal.readers(), settings.journal_names, lambda n: t("jr.reader_n", n=n),
                         t("jr.no_account"), lambda n: t("jr.editor_n", n=n))


def filters(journal: Journal) -> dict[str, Any]:
    """The filters row; returns Journal.entries keywords."""
    outcome_col, collection_col, period_col, vote_col = st.columns(4)
    # Words fixed now, in this run's language: Streamlit may call format_func outside the run.
    outcome_words = {o: report.outcome_label(o) for o in OUTCOMES}
    outcomes = outcome_col.multiselect(t("jr.outcome"), OUTCOMES, format_func=outcome_words.get,
                                       key="jr_outcome", placeholder=t("jr.all"))
    collections = [""] + journal.collections()
    everything = t("jr.all")
    collection = collection_col.selectbox(t("jr.collection"), collections, key="jr_collection",
                                          format_func=lambda c: c or everything, placeholder=t("select.choose"))
    period_words = {d: tn("jr.last_days", d) if d else t("jr.all_kept") for d in PERIODS}
    days = period_col.selectbox(t("jr.period"), PERIODS, index=3, key="jr_period", format_func=period_words.get,
                                placeholder=t("select.choose"))
    vote = vote_col.selectbox(t("jr.votes"), (0, -1, 1), key="jr_vote",
                              format_func={0: t("jr.all"), -1: t("jr.disliked"), 1: t("jr.liked")}.get,
                              placeholder=t("select.choose"))
    text = st.text_input(t("jr.search"), key="jr_search", placeholder=t("jr.search_hint"))
    return {"outcome": outcomes or None, "collection": collection or None,
            "since": datetime.now(UTC) - timedelta(days=days) if days else None,
            "rating": vote or None, "text": text or None}


HIDDEN = "journal_hidden"


def visible(entries: list[Entry]) -> list[Entry]:
    """The entries as this editor may read them (their groups; an administrator reads all)."""
    from ui import resources

    shown, hidden = report.visible_to(entries, resources.groups())
    st.session_state[HIDDEN] = hidden
    return shown


def _label(entry: Entry, names: dict[str, str]) -> str:
    when = local_minute(entry.time, browser_zone())
    question = sanitize_markdown(entry.question, images=False, links=False).replace("\n", " ")
    return f"{when} · {names.get(entry.reader, entry.reader)} · {report.outcome_label(entry.outcome)} · {question}"


def entries_list(journal: Journal, entries: list[Entry], names: dict[str, str], store: Any) -> None:
    """The entries, newest first, each with its outcome, articles, answer, votes and actions."""
    st.caption(tn("jr.count", len(entries)))
    shown = st.session_state.get(SHOWN, PAGE)
    for entry in entries[:shown]:
        with st.expander(_label(entry, names), icon=_ICONS.get(entry.outcome)):
            _entry_body(journal, entry, store)
    if len(entries) > shown and st.button(t("jr.more", n=min(PAGE, len(entries) - shown)), key="jr_more"):
        st.session_state[SHOWN] = shown + PAGE
        st.rerun()


def _entry_body(journal: Journal, entry: Entry, store: Any) -> None:
    outcome = report.outcome_label(entry.outcome)
    # The reason the reader read, in the current language (an older entry: its sentence as written).
    why = refusal_said(entry.refusal) if refusals.valid(entry.refusal) else entry.refusal_reason
    st.markdown(f"**{outcome}**" + (" · " + sanitize_markdown(why, images=False, links=False) if why else ""))
    if entry.searched != entry.question:
        st.caption(t("ask.understood", question=sanitize_markdown(entry.searched, images=False, links=False)))
    if entry.unknown_terms:
        st.caption(t("jr.unknown", words=", ".join(entry.unknown_terms)))
    if entry.id in st.session_state.get(HIDDEN, ()):
        st.caption(t("jr.hidden"))
    if entry.passages:
        titles = dict.fromkeys((p.get("title") or p.get("url") or "", p.get("url")) for p in entry.passages)
        st.markdown(t("jr.articles") + "\n" + "\n".join(f"- {link_markdown(title, url)}" for title, url in titles))
    if entry.answer:
        with st.container(border=True):
            st.markdown(sanitize_markdown(entry.answer, images=False))
    up, down = report.votes(entry)
    if up or down:
        st.markdown(t("jr.votes_line", up=up, down=down))
        for vote in entry.feedback:
            if vote.comment:
                st.caption(("👍 " if vote.rating > 0 else "👎 ") + sanitize_markdown(vote.comment, images=False))
    origins = {"ask": t("jr.origin_ask"), "cli": t("jr.origin_cli")}  # the journal keeps a code
    st.caption(t("jr.meta", collection=entry.collection or "—", origin=origins.get(entry.origin, entry.origin),
                 model=entry.model or "—"))
    to_question_set(entry, store)
    if st.button(t("jr.delete"), key=f"jr_delete_{entry.id}", icon=":material/delete:"):
        journal.delete_entry(entry.id)
        st.toast(t("jr.deleted"))
        st.rerun()


def to_question_set(entry: Entry, store: Any) -> None:
    """The form that adds the entry's question to a question set, in one step."""
    refused = entry.outcome in report.REFUSED
    passages = {p.get("url"): p for p in entry.passages if p.get("url")}
    st.markdown(t("jr.qs_title"))
    kinds = {"in_base": t("jr.qs_in_base"), "off_topic": t("jr.qs_off_topic")}
    # Outside the form, so that choosing an off-topic question hides the article and the span it
    # has none of (inside, they stayed shown, filled in, and were ignored on saving).
    kind = st.radio(t("jr.qs_kind"), ("in_base", "off_topic"), index=1 if refused or not passages else 0,
                    horizontal=True, key=f"jr_qs_kind_{entry.id}", format_func=kinds.get)
    picked, search, span = None, "", ""
    with st.form(f"jr_qs_{entry.id}", border=True):
        names = list(dict.fromkeys([DEMO, *saved_sets(_data_dir())]))
        name = st.selectbox(t("jr.qs_set"), names, key=f"jr_qs_set_{entry.id}", accept_new_options=True,
                            placeholder=t("jr.qs_set_placeholder"))
        question = st.text_input(t("jr.qs_question"), value=entry.searched, key=f"jr_qs_question_{entry.id}")
        if kind == "in_base":
            options = list(passages)
            picked = st.selectbox(t("jr.qs_article"), options, key=f"jr_qs_article_{entry.id}",
                                  index=0 if options else None, format_func=lambda u: passages[u].get("title") or u,
                                  placeholder=t("jr.qs_none"))
            search = st.text_input(t("jr.qs_search"), key=f"jr_qs_search_{entry.id}")
            span = st.text_input(t("jr.qs_span"), key=f"jr_qs_span_{entry.id}")
        category = st.text_input(t("jr.qs_category"), key=f"jr_qs_category_{entry.id}", value="journal")
        if not st.form_submit_button(t("jr.qs_add"), icon=":material/playlist_add:"):
            return
    source = picked
    if search.strip():
        found = [url for url, title in _titles(store, entry.collection).items() if search.casefold() in title.casefold()]
        if len(found) != 1:
            st.error(tn("jr.qs_search_found", len(found), words=search))
            return
        source = found[0]
    in_base = kind == "in_base"
    if in_base and not source:
        st.error(t("jr.qs_needs_article"))
        return
    if in_base and span.strip() and source in passages and \
            span.strip().casefold() not in (passages[source].get("text") or "").casefold():
        st.error(t("jr.qs_span_missing"))
        return
    try:
        added = add_question(_data_dir(), (name or DEMO).strip(), question.strip() or entry.searched, in_base=in_base,
                             expected_source=source if in_base else None,
                             expected_answer=span.strip() or None, category=category.strip() or None)
    except QuestionSetError as exc:
        lang.error(str(exc))
        return
    st.success(t("jr.qs_added", id=added.id, name=name))


def _data_dir() -> Path:
    from ui import resources

    return resources.settings().data_dir


def _titles(store: Any, collection: str) -> dict[str, str]:
    try:
        return article_titles(store, collection)
    except RagError:
        return {}


@st.cache_data(show_spinner=False, max_entries=8)
def _vectors(questions: tuple[str, ...]) -> np.ndarray:
    return embed_questions(list(questions))


def subjects(journal: Journal, entries: list[Entry], store: Any) -> list[Subject]:
    from ui import resources

    refused = [e for e in entries if e.outcome in report.REFUSED]
    if not refused:
        return []
    with st.spinner(t("jr.grouping")):
        vectors = _vectors(tuple(e.searched for e in refused))  # as report.subjects_of embeds them
        rechecks = recheck_for(resources.settings(), store, journal, resources.groups())
    return report.subjects_of(refused, rechecks, vectors=vectors)


def subjects_list(found: list[Subject], names: dict[str, str]) -> None:
    """The editor's list of articles to write: subjects ranked by readers, each with its questions."""
    if not found:
        st.info(t("jr.no_subjects"))
        return
    st.caption(t("jr.subjects_intro"))
    for i, subject in enumerate(found, 1):
        with st.container(border=True):
            st.markdown(f"**{i}. {sanitize_markdown(subject.label, images=False, links=False)}** · "
                        + tn("jr.readers", subject.readers) + " · " + tn("jr.questions", len(subject.entries)))
            if subject.answered:
                st.success(tn("jr.answered_now", len(subject.entries), answered=subject.answered,
                             titles=", ".join(subject.answered_by)), icon=":material/task_alt:")
            for entry in subject.entries:
                st.markdown(f"- {sanitize_markdown(entry.searched, images=False, links=False)} "
                            f"· _{names.get(entry.reader, entry.reader)}, {local_day(entry.time, browser_zone())}_")


def over_time(entries: list[Entry], found: list[Subject]) -> None:
    weeks = report.weekly(entries)
    if not weeks:
        st.info(t("jr.empty"))
        return
    st.plotly_chart(journal_weeks_chart(weeks), key="jr_weeks", config=plotly_config())
    if found:
        st.markdown(t("jr.top_subjects"))
        st.markdown("\n".join(f"{i}. {sanitize_markdown(s.label, images=False, links=False)} ({tn('jr.readers', s.readers)})"
                              for i, s in enumerate(found[:5], 1)))


def download(entries: list[Entry], names: dict[str, str]) -> None:
    st.download_button(t("jr.csv"), report.csv_text(entries, names), file_name="journal.csv", mime="text/csv",
                       key="jr_csv", icon=":material/download:")
