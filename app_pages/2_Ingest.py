"""Ingest: pick a source, see how each chunking strategy cuts a document, export, then index."""

import streamlit as st

from rag.auth import access
from rag.documents import split_items
from ui import frame, ingest_view
from ui.i18n import t
from ui import resources

frame.require(access.INGEST)
st.title(t("ing.title"))
settings = resources.settings()
store = resources.store(settings)

items = ingest_view.choose_source()
if not items:
    st.info(ingest_view.empty_source_hint())
    st.stop()
documents, problems = split_items(items)
ingest_view.document_table(documents, problems)
if not documents:
    st.stop()

st.subheader(t("ing.preview"))
by_url = {d.url: d for d in documents}
url = st.selectbox(t("ing.document"), list(by_url), format_func=lambda u: f"{by_url[u].title} ({u})", key="preview_doc",
                   placeholder=t("select.choose"))
given = ingest_view.chunk_settings()
previews = ingest_view.preview(by_url[url], given)
if previews is None:
    st.stop()
ingest_view.export(by_url[url], given, previews, settings, store)
ingest_view.index_section(items, previews, settings, store, document=by_url[url])
