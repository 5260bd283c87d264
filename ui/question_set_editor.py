"""Editing a question set on the Evaluate page: a table to add, change and delete questions and
their categories, saved in the contract's JSONL under RAG_DATA_DIR/question_sets."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Sequence

import pandas as pd
import streamlit as st

from rag.errors import QuestionSetError
from rag.evaluate.question_sets import questions_from_rows, rows_of, save_set, set_path
from rag.evaluate.questions import Question
from ui import lang
from ui.i18n import t
from ui.present.evaluation import CATEGORIES, category_code, category_label


def editor(data_dir: Path, name: str, questions: Sequence[Question]) -> None:
    with st.expander(t("qse.title", name=name), icon=":material/edit_note:"):
        # Categories by the names the results use ("hors base, domaine voisin", not near_domain_out);
        # the set's file keeps the codes.
        categories = Counter(category_label(q.category) if q.category else t("qse.no_category") for q in questions)
        st.caption(t("qse.categories", categories=", ".join(f"{c} ({n})" for c, n in sorted(categories.items()))))
        rows = [{**row, "category": t(f"cat.{row['category']}") if row.get("category") in CATEGORIES
                 else row.get("category")} for row in rows_of(questions)]
        table = pd.DataFrame(rows, columns=["id", "question", "in_base", "expected_source",
                                                          "expected_answer", "category", "also_in"])
        edited = st.data_editor(
            table, num_rows="dynamic", hide_index=True, key=f"qse_table_{name}", width="stretch",
            column_config={
                "id": st.column_config.TextColumn(t("qse.id")),
                "question": st.column_config.TextColumn(t("qse.question"), width="large", required=True),
                "in_base": st.column_config.CheckboxColumn(t("qse.in_base"), default=False),
                "expected_source": st.column_config.TextColumn(t("qse.source")),
                "expected_answer": st.column_config.TextColumn(t("qse.answer")),
                "category": st.column_config.TextColumn(t("qse.category")),
                "also_in": st.column_config.TextColumn(t("qse.also_in")),
            })
        st.caption(t("qse.where", path=str(set_path(data_dir, name))))
        if st.button(t("qse.save"), key=f"qse_save_{name}", icon=":material/save:"):
            try:
                saved = questions_from_rows([{**row, "category": category_code(row.get("category"))}
                                             for row in edited.to_dict("records")], name)
                save_set(data_dir, name, saved)
            except QuestionSetError as exc:
                lang.error(t("qse.not_saved"), str(exc))
                return
            st.success(t("qse.saved", n=len(saved), name=name))
