"""Journal: what readers asked, the subjects no article covers, the weeks, and the step into a question set."""

import streamlit as st

from rag.auth import access
from ui import frame, journal_view, resources
from ui.i18n import t

frame.require(access.JOURNAL)
st.title(t("jr.title"))
settings = resources.settings()
store = resources.store(settings)
journal = journal_view.journal(settings)
if journal is None:
    st.stop()

names = journal_view.labels(journal, settings)
entries = journal_view.visible(journal.entries(**journal_view.filters(journal)))
found = journal_view.subjects(journal, entries, store)
listed, subjects, weeks = st.tabs([t("jr.tab_entries"), t("jr.tab_subjects"), t("jr.tab_weeks")])
with listed:
    journal_view.download(entries, names)
    journal_view.entries_list(journal, entries, names, store)
with subjects:
    journal_view.subjects_list(found, names)
with weeks:
    journal_view.over_time(entries, found)
