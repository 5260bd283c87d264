"""The ingest page's pieces: the source picker, the chunking preview, the export, the indexing."""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

import streamlit as st

import rag.i18n

from rag.answer.gate import has_terms
from rag.chunking import DEFAULT_STRATEGY, STRATEGIES, setting_names
from rag.chunking._measure import CHARS, CHARS_PER_TOKEN, TOKENS, UNITS
from rag.i18n.numbers import decimal, integer
from rag.chunking.preview import chunkers, preview_chunks, preview_json
from rag.demo import DEMO_DIR
from rag.documents import Document, Problem
from rag.embeddings import curl
from rag.errors import ConfigError, RagError
from rag.ingest.strategy_choice import settings_mismatch
from rag.ingest.editor_groups import within_groups
from rag.ingest.replacements import hold_back, holds_others, replacements
from rag.redact import strip_userinfo
from rag.sources.files import iter_folder
from rag.sources.limits import max_document_bytes
from rag.sources.wordpress import WordPressSource
from rag.sources.uploads import documents_from_uploads, pasted_document
from ui import enrichment_view, indexing, lang, stop_button, uploads
from ui import resources
from rag.store.names import name_problem
from ui.i18n import formatter, t, tn
from ui.kept import kept
from ui.present import documents as document_display
from ui.present.chunks import render_html
from ui.present.safe_markdown import escape_link_text

WORDPRESS, UPLOAD, DEMO, PASTE = "wordpress", "upload", "demo", "paste"
SOURCES = (WORDPRESS, UPLOAD, DEMO, PASTE)
SOURCE = "ingest_source"  # session key of the chosen source (kept across pages)
WP_ITEMS = "wp_items"
WP_FORM = "wp_form"  # the site address and user last sent with "Read the posts"
WP_FAILED = "wp_failed"  # the last reading failed: (language, why), shown until the next reading
NEW_COLLECTION = "__new__"
SETTINGS = ("chunk_size", "overlap", "min_size", "max_size")
LABELS = {"chunk_size": "ing.chunk_size", "overlap": "ing.overlap", "min_size": "ing.min_size",
          "max_size": "ing.max_size"}


def _wordpress() -> list[Document | Problem] | None:
    # A form's fields reach the session only when it is sent: the site and user sent last are
    # drawn again when the form comes back (another source chosen meanwhile, the language
    # switched). The application password is not kept: it is typed again.
    last = st.session_state.get(WP_FORM, {})
    with st.form("wordpress"):
        url = st.text_input(t("ing.site_url"), value=last.get("url", ""), placeholder="https://blog.example.com")
        cols = st.columns(2)
        user = cols[0].text_input(t("ing.wp_user"), value=last.get("user", ""), help=t("ing.wp_user_help"))
        password = cols[1].text_input(t("ing.wp_password"), type="password", help=t("ing.wp_password_help"))
        # As sent last: back from another source, the posts listed below were read with it.
        pages = st.checkbox(t("ing.wp_pages"), value=bool(last.get("pages")), key="wp_pages")
        fetch = st.form_submit_button(t("ing.fetch"))
    if fetch:
        st.session_state[WP_FORM] = {"url": url, "user": user, "pages": pages}
        st.session_state.pop(WP_FAILED, None)
        try:
            with st.spinner(t("ing.fetching")):
                source = WordPressSource(url, username=user or None, app_password=password or None,
                                         types=("posts", "pages") if pages else ("posts",))
                st.session_state[WP_ITEMS] = (url, list(source.iter_documents()))
        except RagError as exc:
            # The posts of a site read before are not this site's: never offered under its address.
            st.session_state.pop(WP_ITEMS, None)
            st.session_state[WP_FAILED] = (rag.i18n.current(), str(exc))
    if _wordpress_failure():
        st.error(t("ing.fetch_failed", why=escape_link_text(st.session_state[WP_FAILED][1])), icon=":material/error:")
        return None
    fetched = st.session_state.get(WP_ITEMS)
    return fetched[1] if fetched else None


def _wordpress_failure() -> bool:
    """Whether the last reading of a site failed, with its reason in the current language. The
    reason is said in words (the error above the hint) as long as the hint refers to it: back on
    the page it is still there; in another language it was written in the former one, and both
    are dropped rather than leave the hint pointing at nothing."""
    failed = st.session_state.get(WP_FAILED)
    if failed and failed[0] != rag.i18n.current():
        st.session_state.pop(WP_FAILED, None)
        return False
    return bool(failed)


def choose_source() -> list[Document | Problem] | None:
    kind = kept(st.radio, t("ing.source"), SOURCE, "source_kind", default=DEMO, options=SOURCES,
                format_func=formatter(SOURCES, lambda k: f"src.{k}"), horizontal=True)
    if kind == WORDPRESS:
        return _wordpress()
    if kind == UPLOAD:
        files = uploads.file_uploader(t("ing.files"), ["md", "markdown", "html", "htm"], _document_mb(),
                                      accept_multiple_files=True)
        return documents_from_uploads([(f.name, f.getvalue()) for f in files]) if files else None
    if kind == PASTE:
        title = kept(st.text_input, t("ing.paste_title"), "pasted_title", "paste_title", default="")
        text = kept(st.text_area, t("ing.paste_text"), "pasted_text", "paste_text", default="", height=220,
                    placeholder=t("ing.paste_placeholder"))
        return [pasted_document(text, title)] if text.strip() else None
    return list(iter_folder(DEMO_DIR))


def _document_mb() -> float | None:
    """RAG_MAX_DOC_MB in megabytes; None when it cannot be read (the import says why)."""
    try:
        return max_document_bytes() / 1_000_000
    except ConfigError:
        return None


# What to do next when the chosen source has given no document yet (the generic line said
# "choose a source" beside the source just chosen).
_EMPTY_HINTS = {WORDPRESS: "ing.choose_wordpress", UPLOAD: "ing.choose_upload", PASTE: "ing.choose_paste"}


def empty_source_hint() -> str:
    source = st.session_state.get(SOURCE)
    if source == WORDPRESS and _wordpress_failure():
        return t("ing.wordpress_retry")
    return t(_EMPTY_HINTS.get(source, "ing.choose"))


def document_table(documents: Sequence[Document], problems: Sequence[Problem]) -> None:
    st.subheader(tn("ing.found", len(documents)))
    st.dataframe(document_display.document_rows(documents, problems), hide_index=True, key="documents")


def _applies_to(name: str) -> list[str]:
    return [s for s in STRATEGIES if name in setting_names(s)]


def _defaults(name: str, unit: str = CHARS) -> dict[str, Any]:
    """Each strategy's default for a setting in `unit`, e.g. max_size: sections 2000,
    sections_min_max 1000 (590 and 290 in tokens)."""
    return {strategy: chunkers(strategy, {"unit": unit})[0].settings().get(name) for strategy in _applies_to(name)}


def _default_text(name: str, unit: str = CHARS) -> str:
    """The field's placeholder: its one default, else that it depends on the strategy (it read
    "2000 / 1000", which said neither which is which nor in what)."""
    values = set(_defaults(name, unit).values())
    return integer(values.pop()) if len(values) == 1 else t("ing.default_per_strategy")


def _applies_text(name: str, unit: str = CHARS) -> str:
    """Under the field: the strategies it applies to, each with its default when they differ."""
    defaults = _defaults(name, unit)
    if len(set(defaults.values())) == 1:
        return t("ing.applies", strategies=", ".join(defaults))
    return t("ing.applies_defaults", strategies=", ".join(
        t("ing.strategy_default", strategy=s, value=integer(v)) for s, v in defaults.items()))


def chunk_settings() -> dict[str, Any]:
    """Settings over the strategies' defaults; an empty field keeps each strategy's default.

    They outlive a switch of source (ui.kept): the preview, the table and the indexing all use
    what the inputs show.
    """
    st.markdown(f"**{t('ing.settings')}**")
    unit = kept(st.radio, t("ing.size_unit"), "chunk_unit", "setting_unit", default=CHARS, options=UNITS,
                format_func=formatter(UNITS, lambda u: f"ing.unit_option_{u}"), horizontal=True,
                help=t("ing.size_unit_help", chars=decimal(CHARS_PER_TOKEN, 1, trim=True)))
    cols = st.columns(len(SETTINGS))
    values: dict[str, Any] = {}
    for col, name in zip(cols, SETTINGS):
        with col:
            # value=None: a field the reader empties stays empty (each strategy's default); with
            # Streamlit's default value ("min") the browser puts the minimum back, a size of 1.
            values[name] = kept(st.number_input, t(LABELS[name]), f"chunk_{name}", f"setting_{name}",
                                value=None, min_value=1 if name != "overlap" else 0, max_value=20000,
                                step=10 if unit == TOKENS else 50, placeholder=_default_text(name, unit),
                                help=t("ing.unit" if unit == CHARS else "ing.unit_tokens"))
            st.caption(_applies_text(name, unit))
    values["unit"] = unit if unit == TOKENS else None
    return values


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:60] or "document"


@st.cache_resource(show_spinner=False)
def _tokenizer(embed_model: str | None, embed_url: str) -> tuple[Any, Any]:
    from rag.config import Settings
    from rag.embeddings.resolve import preview_tokenizer

    return preview_tokenizer(Settings(embed_model=embed_model, embed_url=embed_url))


def tokenizer() -> tuple[Any, Any]:
    """The tokenizer and window the preview counts and cuts with, the ones ingestion uses
    (a server model's window asked of the server it is on)."""
    settings = resources.settings()
    return _tokenizer(settings.embed_model, settings.embed_url)


def preview(document: Document, given: dict[str, Any]) -> list[tuple[Any, list[Any]]] | None:
    count, window = tokenizer()
    try:
        previews = preview_chunks(document, given, count, window)
    except RagError as exc:
        lang.error(t("ing.bad_settings"), str(exc))
        return None
    st.dataframe(document_display.stats_rows(previews), hide_index=True, key="chunk_stats")
    for chunker, chunks in previews:
        block = document_display.warning_block(chunker.name, chunks)
        if block:
            st.warning(block, icon=":material/warning:")
    # Kept under its own key: drawn again after a change of source, it showed off while the
    # preview stayed side by side.
    side_by_side = kept(st.toggle, t("ing.side_by_side"), "side_by_side", "side_by_side_toggle", default=False,
                        help=t("ing.side_by_side_help"))
    if side_by_side:
        # Two by two: four narrow columns would cut the chunk tables.
        rows = [st.columns(2) for _ in range((len(previews) + 1) // 2)]
        panes = [pane for row in rows for pane in row]
    else:
        panes = st.tabs([c.name for c, _ in previews])
    for pane, (chunker, chunks) in zip(panes, previews):
        with pane:
            if side_by_side:
                st.markdown(f"**{chunker.name}** · {document_display.settings_words(chunker.settings())}")
            # render_html escapes the document's text: only its own spans carry markup.
            st.html(render_html(document.markdown, chunks))
            rows = document_display.chunk_rows(chunks, count)
            st.dataframe(rows, hide_index=True, key=f"chunks_{chunker.name}", column_config={
                t("col.warnings"): st.column_config.TextColumn(width=document_display.warnings_width(rows))})
    return previews


def export(document: Document, given: dict[str, Any], previews: Sequence[tuple[Any, list[Any]]], settings: Any,
           store: Any) -> None:
    st.download_button(
        t("ing.download"), json.dumps(preview_json(document, given, *tokenizer()), ensure_ascii=False, indent=1),
        file_name=f"{_slug(document.url)}.chunks.json", mime="application/json", key="export_json",
    )
    with st.expander(t("ing.curl")):
        cols = st.columns(3)
        server = cols[0].radio(t("ing.server"), curl.TARGETS, format_func={"lmstudio": "LM Studio", "ollama": "Ollama"}.get,
                               horizontal=True)
        names = [c.name for c, _ in previews]
        strategy = cols[1].selectbox(t("ing.chunks_of"), names, index=names.index(DEFAULT_STRATEGY),
                                     placeholder=t("select.choose"))
        model = cols[2].text_input(t("ing.model_id"),
                                   value=curl.suggested_model(settings.embed_model, _embedding_pick(settings, store)))
        # Never a password typed into RAG_EMBED_URL: the command is shown, copied, pasted around.
        default_url = (strip_userinfo(settings.embed_url) if server == curl.TARGET_LMSTUDIO
                       else curl.DEFAULT_URLS[curl.TARGET_OLLAMA])
        url = st.text_input(t("ing.server_url"), value=default_url, key=f"curl_url_{server}")
        chunks = dict((c.name, ch) for c, ch in previews)[strategy]
        try:
            st.code(curl.curl_command([c.embedding_text for c in chunks], model, url, server), language="bash")
        except RagError as exc:
            st.error(str(exc))


def _embedding_pick(settings: Any, store: Any) -> str | None:
    return resources.status(settings, store)["llm"]["embedding_pick"]


def _report_key(items: Sequence[Document | Problem], name: str, strategy: str,
                settings: dict[str, Any] | None, enrichment: str = "none") -> tuple:
    """What a report is about: shown only while the page still shows that same run."""
    urls = tuple(sorted(i.url for i in items if isinstance(i, Document)))
    return (st.session_state.get(SOURCE), urls, name, strategy, tuple(sorted((settings or {}).items())), enrichment)


def _confirm_replacements(store: Any, collection: str, items: Sequence[Document | Problem]) -> bool:
    """Say which documents would replace one from another source or other groups; True when the
    editor ticked the confirmation (or there is nothing to confirm)."""
    found = replacements(store, collection, [i for i in items if isinstance(i, Document)]) if collection else []
    if not found:
        return True
    st.warning(tn("ing.replace_warning", len(found))
               + "\n\n" + "\n".join(f"- {escape_link_text(r.sentence())}" for r in found))
    return st.checkbox(tn("ing.replace_confirm", len(found)), value=False, key=f"replace_{collection}")


def _demo_may_go_into(store: Any, collection: str, items: Sequence[Document | Problem],
                      groups: Sequence[str] | None) -> bool:
    """The demo corpus into a collection of other articles (the page opens on it, after a reload
    too, with the session's collection as target): said, and only once ticked. True otherwise."""
    documents = [i for i in items if isinstance(i, Document)]
    if st.session_state.get(SOURCE) != DEMO or not holds_others(store, collection, documents, groups):
        return True
    st.warning(t("ing.demo_among_others", name=escape_link_text(collection)), icon=":material/warning:")
    return st.checkbox(t("ing.demo_among_others_confirm", name=escape_link_text(collection)), value=False,
                       key=f"demo_into_{collection}")


def _index(items: Sequence[Document | Problem], settings: Any, store: Any, name: str, strategy: str,
           chunk_settings: dict[str, Any] | None, full: bool, confirmed: bool, enrichment: str = "none") -> None:
    key = _report_key(items, name, strategy, chunk_settings, enrichment)
    # Checked again at the click: only what was confirmed may replace another source's document.
    found = replacements(store, name, [i for i in items if isinstance(i, Document)])
    if found and not confirmed:
        items = hold_back(items, found)
    report = indexing.run(items, settings, store, name, strategy, chunk_settings, full=full, enrichment=enrichment,
                          replace=confirmed)
    if report is not None:
        st.session_state[indexing.REPORT] = (key, report)
        st.session_state[resources.NEXT_COLLECTION] = name
        st.rerun()


def _bad_new_name(name: str, documents: int) -> bool:
    """A new name the store cannot keep: said plainly, the Index button kept in view but off."""
    problem = name_problem(name) if name else None
    if problem is None:
        return False
    st.warning(escape_link_text(problem), icon=":material/edit:")
    st.button(tn("ing.index", documents), type="primary", disabled=True, key="index")
    return True


def index_section(items: Sequence[Document | Problem], previews: Sequence[tuple[Any, list[Any]]],
                  settings: Any, store: Any, document: Document | None = None) -> None:
    st.subheader(t("ing.index_heading"))
    groups = resources.groups()  # an editor's groups bound what they index into (None: administrator)
    existing = [c for c in store.list_collections() if groups is None or store.count(c, groups=groups)]
    options = existing + [NEW_COLLECTION]
    current = settings.collection if settings.collection in existing else NEW_COLLECTION
    cols = st.columns(4)
    new_label = t("ing.new_collection")
    choice = cols[0].selectbox(t("ing.collection"), options, index=options.index(current), key="target_collection",
                               format_func=lambda o: new_label if o == NEW_COLLECTION else o,
                               placeholder=t("select.choose"))
    name = choice
    if choice == NEW_COLLECTION:
        # The session's collection when it does not exist yet (the sidebar names it, empty): the
        # first source goes there without typing its name again.
        name = cols[0].text_input(t("ing.new_name"), value=settings.collection if settings.collection not in existing
                                  else "", key="new_collection").strip()
        if _bad_new_name(name, sum(1 for i in items if isinstance(i, Document))):
            return
    info = store.collection_info(name) if name and name in existing else None
    strategies = list(STRATEGIES)
    default = (info or {}).get("strategy") or DEFAULT_STRATEGY
    strategy = cols[1].selectbox(t("ing.strategy"), strategies, index=strategies.index(default), key="target_strategy",
                                 placeholder=t("select.choose"))
    chunker = dict((c.name, c) for c, _ in previews).get(strategy)
    chosen = chunker.settings() if chunker else None
    enrichment = enrichment_view.choose(info, cols[2])
    cols[3].caption(t("ing.uses", settings=document_display.settings_words(chosen or {})))
    if info:
        cols[3].caption(t("ing.existing", points=tn("count.passages", int(info.get("points") or 0))))
    items = within_groups(items, groups, store, name)
    documents = sum(1 for i in items if isinstance(i, Document))
    enrichment_view.plan(enrichment, items, cols[2])
    mismatch = bool(info) and settings_mismatch(info, strategy, chosen)
    # Built before the question-word check (or by a run of before it): only a rebuild gives its
    # points the term keys the check counts.
    no_terms = bool(info) and int(info.get("points") or 0) > 0 and not has_terms(info)
    if no_terms and not mismatch:
        st.warning(t("ing.no_terms", name=escape_link_text(name)), icon=":material/warning:")
    other_enrichment = enrichment_view.mismatch(info, enrichment, name)
    if mismatch:
        st.warning(t("ing.mismatch", name=escape_link_text(name),
                     built=f"{info.get('strategy')} ({document_display.settings_words(info.get('chunk_settings') or {})})",
                     wanted=f"{strategy} ({document_display.settings_words(chosen or {})})"), icon=":material/warning:")
    if document is not None:
        chunks = dict((c.name, ch) for c, ch in previews).get(strategy) or []
        enrichment_view.preview(document, chunks, enrichment, settings, tokenizer())
    mismatch = mismatch or other_enrichment
    confirmed = _confirm_replacements(store, name, items)
    demo_allowed = not name or _demo_may_go_into(store, name, items, groups)
    stop_button.said(indexing.STOP)
    buttons = st.columns([1, 1, 3])
    if buttons[0].button(tn("ing.index", documents), type="primary", disabled=not name or mismatch or not demo_allowed,
                         key="index"):
        _index(items, settings, store, name, strategy, chosen, full=False, confirmed=confirmed, enrichment=enrichment)
    if (mismatch or no_terms) and buttons[1].button(t("ing.rebuild", name=name), key="rebuild",
                                                    icon=":material/restart_alt:"):
        _index(items, settings, store, name, strategy, chosen, full=True, confirmed=confirmed, enrichment=enrichment)
    kept_report = st.session_state.get(indexing.REPORT)
    if kept_report is not None and kept_report[0] == _report_key(items, name, strategy, chosen, enrichment):
        indexing.show_report(kept_report[1])
