"""Evaluate: replay a question set, read the metrics, calibrate the threshold, compare collections."""

import streamlit as st

from rag.auth import access
from ui import eval_view, frame, stop_button
from ui.i18n import t
from ui.kept import kept
from ui import resources

frame.require(access.EVALUATE)
st.title(t("eval.title"))
settings = resources.settings()
store = resources.store(settings)

picked = eval_view.question_set()
names = store.list_collections()
# Streamlit's own placeholder is English ("Choose options"): every widget says it in the page's language.
chosen = st.multiselect(t("eval.collections"), names, max_selections=2, key="eval_collections",
                        placeholder=t("eval.collections_placeholder"),
                        default=[settings.collection] if settings.collection in names else None)
# Kept across pages (ui.kept): back on the page, the box shows what the next run will do.
with_llm = kept(st.checkbox, t("eval.with_llm"), "eval_with_llm_kept", "eval_with_llm", default=False)
if picked and chosen:
    st.caption(eval_view.estimate(len(picked[0]), len(chosen), with_llm, settings))
    eval_view.set_elsewhere(picked[0], chosen, store)
stop_button.said(eval_view.STOP)
if st.button(t("eval.run"), type="primary", disabled=not (picked and chosen), key="run_eval"):
    eval_view.run(picked[0], picked[1], chosen, with_llm, settings, store)
eval_view.why_no_run(picked, chosen, names, settings.collection)

results = st.session_state.get(eval_view.RESULTS)
if results:
    runs, paths = results["runs"], results["paths"]
    tabs = st.tabs(list(runs)) if len(runs) > 1 else [st.container()]
    for tab, (name, run) in zip(tabs, runs.items()):
        with tab:
            eval_view.show_run(name, run, paths[name], store)
    if len(runs) == 2:
        st.subheader(t("eval.side_by_side"))
        eval_view.comparison(*runs.values())
st.subheader(t("eval.earlier"))
eval_view.earlier_runs(settings, next(iter(results["runs"].values())) if results else None)
