"""The Evaluate page driven headless with AppTest: the shipped set on the demo index, and the
calibrated threshold saved into a small collection of its own."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from rag.config import Settings
from rag.documents import Document
from rag.embeddings import EmbeddedEmbedder
from rag.index.ingest import ingest
from rag.index.store import Store

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
TIMEOUT = 180


def evaluate_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.switch_page("app_pages/3_Evaluate.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_shipped_set_retrieval_only_metrics_chart_and_live_threshold(app_env, lmstudio):
    at = evaluate_page()
    assert at.multiselect(key="eval_collections").value == ["blog"]
    at.button(key="run_eval").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert lmstudio.chat_calls == 0  # retrieval only by default

    shown = metrics(at)
    for label in ("hit@1", "hit@6", "MRR", "answer in context", "in-base answered", "off-topic refused"):
        assert label in shown
    assert shown["hit@1"].endswith("%") and int(shown["hit@1"][:-1]) >= 80  # the demo set is answerable
    assert float(shown["MRR"]) >= 0.8
    captions = "\n".join(c.value for c in at.caption)
    assert "68 questions (54 in-base, 14 off-topic)" in captions and "find the right article first" in captions
    assert len(at.get("plotly_chart")) == 1
    assert at.slider(key="slider_blog").value == 0.83

    live = ("in-base answered at the slider", "off-topic refused at the slider")
    before = tuple(metrics(at)[label] for label in live)
    assert before[0] == "54 of 54" and before[1].endswith(" of 14") and before[1] != "14 of 14"
    at.slider(key="slider_blog").set_value(0.95).run()
    after = tuple(metrics(at)[label] for label in live)
    assert after == ("0 of 54", "14 of 14")  # moved live, nothing re-run
    assert lmstudio.chat_calls == 0

    at.radio(key="filter_blog").set_value("wrongly refused").run()
    table = [d.value for d in at.dataframe if "at threshold" in d.value.columns][0]
    assert len(table) == 54 and set(table["at threshold"]) == {"refused"}
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Download the results (CSV)", "Download the results (JSON)"]
    # The run is kept: it is listed among the earlier runs.
    runs = [d.value for d in at.dataframe if "path" in d.value.columns][0]
    assert "blog" in runs["collection"].tolist()


def test_uploaded_set_and_saving_the_threshold(app_env, tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("RAG_DATA_DIR", str(data))
    store = Store(Settings.from_env())
    docs = [
        Document("laps.md", "LAPS", "# LAPS\n\nWindows LAPS change le mot de passe administrateur local tous les 30 jours."),
        Document("klist.md", "klist", "# klist\n\nklist purge efface les tickets Kerberos de la session."),
    ]
    embedder = EmbeddedEmbedder(threads=1)
    assert ingest(docs, store, embedder, "blog", strategy="sections").new == 2
    assert ingest(docs, store, embedder, "other", strategy="recursive").new == 2
    csv = (b"id,question,expected_source,in_base\n"
           b"q1,Tous les combien LAPS change-t-il le mot de passe ?,laps.md,true\n"
           b"q2,Comment effacer les tickets Kerberos ?,klist.md,true\n"
           b"q3,Quelle est la recette de la tarte tatin ?,,false\n")

    at = evaluate_page()
    at.radio[0].set_value("Upload a set (JSONL or CSV)").run()
    at.file_uploader(key="question_upload").set_value(("mini.csv", csv, "text/csv")).run()
    at.multiselect(key="eval_collections").set_value(["blog", "other"]).run()
    at.button(key="run_eval").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [t.label for t in at.tabs] == ["blog", "other"]
    assert "3 questions (2 in-base, 1 off-topic)" in "\n".join(c.value for c in at.tabs[0].caption)
    assert {m.label: m.value for m in at.tabs[0].metric}["hit@1"] == "100%"
    # The two collections side by side: metric by metric, and who finds which article.
    assert "Side by side" in [h.value for h in at.subheader]
    compared = [d.value for d in at.dataframe if "B - A" in d.value.columns][0]
    assert {"hit_at_1", "mrr", "threshold"} <= set(compared["metric"])
    assert any("found by both: **2**" in m.value for m in at.markdown)

    at.slider(key="slider_blog").set_value(0.8).run()
    at.button(key="save_blog").click().run()
    assert "now use the threshold 0.800" in at.success[0].value
    assert store.collection_info("blog")["threshold"] == 0.8
