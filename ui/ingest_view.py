"""The ingest page's pieces: the source picker, the chunking preview, the export, the indexing."""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

import streamlit as st

from rag.chunking.preview import preview_chunks, preview_json
from rag.embeddings import curl
from rag.sources.uploads import documents_from_uploads, pasted_document
from ui.present import documents as document_display
from ui.present.chunks import render_html
from rag.chunking import DEFAULT_STRATEGY, STRATEGIES
from rag.demo import DEMO_DIR
from rag.documents import Document, Problem
from rag.errors import RagError
from rag.sources import WordPressSource, iter_folder
from ui import indexing
from ui import resources

WORDPRESS, UPLOAD, DEMO, PASTE = "WordPress site", "Upload files", "Demo corpus", "Pasted text"
SOURCES = (WORDPRESS, UPLOAD, DEMO, PASTE)
WP_ITEMS = "wp_items"
NEW_COLLECTION = "➕ new collection…"


def _wordpress() -> list[Document | Problem] | None:
    with st.form("wordpress"):
        url = st.text_input("Site URL", placeholder="https://blog.example.com")
        cols = st.columns(2)
        user = cols[0].text_input("Username (optional)", help="for private posts: a WordPress user")
        password = cols[1].text_input("Application password (optional)", type="password",
                                      help="Users → Profile → Application passwords; never shown or stored")
        fetch = st.form_submit_button("Fetch the posts")
    if fetch:
        try:
            with st.spinner("Reading the site's posts…"):
                source = WordPressSource(url, username=user or None, app_password=password or None)
                st.session_state[WP_ITEMS] = (url, list(source.iter_documents()))
        except RagError as exc:
            st.error(str(exc))
            return None
    fetched = st.session_state.get(WP_ITEMS)
    return fetched[1] if fetched else None


def choose_source() -> list[Document | Problem] | None:
    kind = st.radio("Source", SOURCES, index=SOURCES.index(DEMO), horizontal=True)
    if kind == WORDPRESS:
        return _wordpress()
    if kind == UPLOAD:
        files = st.file_uploader("Markdown or HTML files", type=["md", "markdown", "html", "htm"],
                                 accept_multiple_files=True)
        return documents_from_uploads([(f.name, f.getvalue()) for f in files]) if files else None
    if kind == PASTE:
        title = st.text_input("Title (optional)")
        text = st.text_area("Markdown", height=220, placeholder="# Title\n\n## A section\n\nText…")
        return [pasted_document(text, title)] if text.strip() else None
    return list(iter_folder(DEMO_DIR))


def document_table(documents: Sequence[Document], problems: Sequence[Problem]) -> None:
    st.subheader(f"{len(documents)} documents found")
    st.dataframe(document_display.document_rows(documents, problems), hide_index=True, key="documents")


def chunk_settings() -> dict[str, Any]:
    """Settings over the strategies' defaults; an empty field keeps each strategy's default."""
    cols = st.columns(4)
    fields = (("chunk_size", "Chunk size", "1000 (recursive, markdown)"),
              ("overlap", "Overlap", "200"),
              ("min_size", "Min size", "400 (sections_min_max)"),
              ("max_size", "Max size", "2000 sections, 1000 sections_min_max"))
    return {
        name: col.number_input(label, min_value=1 if name != "overlap" else 0, max_value=20000, value=None,
                               step=50, placeholder=placeholder, key=f"setting_{name}")
        for col, (name, label, placeholder) in zip(cols, fields)
    }


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:60] or "document"


def preview(document: Document, given: dict[str, Any]) -> list[tuple[Any, list[Any]]] | None:
    try:
        previews = preview_chunks(document, given)
    except RagError as exc:
        st.error(f"These settings do not work: {exc}")
        return None
    st.dataframe(document_display.stats_rows(previews), hide_index=True, key="chunk_stats")
    for chunker, chunks in previews:
        for sentence in document_display.warning_sentences(chunks):
            st.warning(f"**{chunker.name}**: {sentence}")
    side_by_side = st.toggle("Side by side", help="all strategies next to each other instead of tabs")
    panes = st.columns(len(previews)) if side_by_side else st.tabs([c.name for c, _ in previews])
    for pane, (chunker, chunks) in zip(panes, previews):
        with pane:
            if side_by_side:
                st.markdown(f"**{chunker.name}**")
            # render_html escapes the document's text: only its own spans carry markup.
            st.html(render_html(document.markdown, chunks))
            st.dataframe(document_display.chunk_rows(chunks), hide_index=True, key=f"chunks_{chunker.name}")
    return previews


def export(document: Document, given: dict[str, Any], previews: Sequence[tuple[Any, list[Any]]], settings: Any,
           store: Any) -> None:
    st.download_button(
        "Download the chunks (JSON)", json.dumps(preview_json(document, given), ensure_ascii=False, indent=1),
        file_name=f"{_slug(document.url)}.chunks.json", mime="application/json", key="export_json",
    )
    with st.expander("Embed these chunks by hand with curl"):
        cols = st.columns(3)
        server = cols[0].radio("Server", curl.TARGETS, format_func={"lmstudio": "LM Studio", "ollama": "Ollama"}.get,
                               horizontal=True)
        names = [c.name for c, _ in previews]
        strategy = cols[1].selectbox("Chunks of", names, index=names.index(DEFAULT_STRATEGY))
        model = cols[2].text_input("Model id", value=curl.suggested_model(settings.embed_model, _embedding_pick(settings, store)))
        default_url = settings.embed_url if server == curl.TARGET_LMSTUDIO else curl.DEFAULT_URLS[curl.TARGET_OLLAMA]
        url = st.text_input("Server URL", value=default_url, key=f"curl_url_{server}")
        chunks = dict((c.name, ch) for c, ch in previews)[strategy]
        try:
            st.code(curl.curl_command([c.embedding_text for c in chunks], model, url, server), language="bash")
        except RagError as exc:
            st.error(str(exc))


def _embedding_pick(settings: Any, store: Any) -> str | None:
    return resources.status(settings, store)["llm"]["embedding_pick"]


def index_section(items: Sequence[Document | Problem], previews: Sequence[tuple[Any, list[Any]]],
                  settings: Any, store: Any) -> None:
    st.subheader("Index")
    existing = store.list_collections()
    options = existing + [NEW_COLLECTION]
    current = settings.collection if settings.collection in existing else NEW_COLLECTION
    cols = st.columns(3)
    choice = cols[0].selectbox("Collection", options, index=options.index(current), key="target_collection")
    name = choice
    if choice == NEW_COLLECTION:
        name = cols[0].text_input("New collection name", value=settings.collection if not existing else "",
                                  key="new_collection").strip()
    info = store.collection_info(name) if name and name in existing else None
    strategies = list(STRATEGIES)
    default = (info or {}).get("strategy") or DEFAULT_STRATEGY
    strategy = cols[1].selectbox("Strategy", strategies, index=strategies.index(default), key="target_strategy")
    chunker = dict((c.name, c) for c, _ in previews).get(strategy)
    cols[2].caption("Chunk settings: " + (", ".join(f"{k}={v}" for k, v in chunker.settings().items()) if chunker else "defaults"))
    if info:
        cols[2].caption(f"{info.get('points')} points, model `{info.get('embedding_model')}`: unchanged documents are skipped.")
    documents = sum(1 for i in items if isinstance(i, Document))
    if st.button(f"Index {documents} documents", type="primary", disabled=not name, key="index"):
        report = indexing.run(items, settings, store, name, strategy, chunker.settings() if chunker else None)
        if report is not None:
            st.session_state[indexing.REPORT] = report
            st.session_state[resources.NEXT_COLLECTION] = name
            st.rerun()
    report = st.session_state.get(indexing.REPORT)
    if report is not None:
        indexing.show_report(report)
