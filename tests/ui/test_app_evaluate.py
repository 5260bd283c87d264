"""The Evaluate page driven headless with AppTest: the shipped set on the demo index, and the
calibrated threshold saved into a small collection of its own."""

from __future__ import annotations

import re

import json
import logging
import shutil
import time

from streamlit.testing.v1 import AppTest

from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.evaluate.report import format_summary
from rag.evaluate.runs import list_runs
from rag.ingest.run import ingest
from rag.store.store import Store
from tests.evaluate.eval_corpus import NEAR_DOMAIN_JSONL, build_collection
from tests.fixtures.apptest import one_document_collection, open_page, table_with
from ui.present import evaluation

TIMEOUT = 180
WIDGET_POLICIES = "streamlit.elements.lib.policies"  # logs the Session State warning; does not propagate


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def evaluate_page() -> AppTest:
    return open_page("app_pages/3_Evaluate.py", timeout=TIMEOUT)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_with_the_word_checks_off_the_page_says_so_and_charts_the_threshold_alone(app_env, lmstudio, monkeypatch):
    """Bug: with RAG_MIN_COVERAGE=0 the gate's chart was drawn empty (no question has a probability
    when the closeness alone decides), its lines over nothing."""
    monkeypatch.setenv("RAG_MIN_COVERAGE", "0")
    at = evaluate_page()
    at.button(key="run_eval").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("question-words check is off" in c.value for c in at.caption)
    charts = [c.proto.id for c in at.get("plotly_chart")]
    assert not [c for c in charts if "gate_chart" in c]
    assert [c for c in charts if c.endswith("-calibration_blog")]
    captions = "\n".join(c.value for c in at.caption)
    # Nothing says the words are weighed (the counts' and the chart's notes for a run with the checks).
    assert "with the question's words" not in captions
    # The suggestion is explained by its own criterion, the gate's calibration with the checks off.
    assert "some setting lets through" in captions and "balanced accuracy" not in captions
    # The counts at the slider are the closeness alone's, as the live gate decides with the checks off.
    shown = metrics(at)
    scores = at.session_state["eval_results"]["runs"]["blog"]["questions"]
    floor = at.select_slider(key="slider_blog").value
    answered = sum(1 for r in scores if r["in_base"] and r["top1_score"] is not None and r["top1_score"] >= floor)
    assert shown["article questions let through at this threshold"].startswith(f"{answered} of ")


def test_shipped_set_retrieval_only_metrics_chart_and_live_threshold(app_env, lmstudio):
    at = evaluate_page()
    assert at.multiselect(key="eval_collections").value == ["blog"]
    # How long it will take, said before it starts, with "1 collection" in the singular.
    assert any(c.value.startswith("68 questions on 1 collection: about ") for c in at.caption)
    at.button(key="run_eval").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert lmstudio.chat_calls == 0  # retrieval only by default

    shown = metrics(at)
    for label in ("right article first", "right article in the top 6", "average rank", "answer in the passages",
                  "article questions let through", "trick questions refused"):
        assert label in shown
    first = shown["right article first"]
    assert first.endswith("%") and int(first[:-1]) >= 80  # the demo set is answerable
    assert float(shown["average rank"]) <= 1.2
    captions = "\n".join(c.value for c in at.caption)
    assert "68 questions (54 on the articles, 14 to refuse)" in captions
    assert "find the right article first" in captions
    assert len(at.get("plotly_chart")) == 3  # the gate's scatter, the calibration, and the kinds of question
    assert at.select_slider(key="slider_blog").value == 0.83
    # One threshold control: the gate's closeness floor and the threshold were two sliders, each
    # with its own save button, for the same setting.
    # The gate's words have no control of their own: its fitted model weighs them, the floor is the
    # one thing a writer sets (a share slider and a names checkbox changed nothing any more).
    assert [s.label for s in at.select_slider] == ["Threshold"]
    assert not [c for c in at.checkbox if (c.key or "").startswith("gate_")]
    assert [b.key for b in at.button if b.key and b.key.startswith(("save_", "gate_save_"))] == ["save_blog"]

    live = ("article questions let through at this threshold", "trick questions refused at this threshold")
    # With word statistics the threshold counts what the gate does at that floor with the word
    # checks: at the suggestion (floor and share at once), `rag eval`'s suggested line
    # (it showed the cosine alone's, e.g. 4 of 14 refused beside the gate's 13 of 14).
    results = at.session_state["eval_results"]["runs"]["blog"]
    gate_suggested = results["summary"]["gate"]["calibration"]["suggested"]
    at.button(key="suggest_blog").click().run()
    assert at.select_slider(key="slider_blog").value == round(gate_suggested["min_cosine"], 3)
    suggested = tuple(metrics(at)[label] for label in live)
    [line] = [line for line in format_summary(results).splitlines() if line.startswith("suggested settings: ")]
    assert line.endswith(f"{suggested[0].split()[0]} of 54 in-base questions let through, "
                         f"{suggested[1].split()[0]} of 14 off-topic refused")
    assert any(c.value.startswith("Counted with the answerability gate, which weighs ") for c in at.caption)
    assert any(c.value.startswith("The score alone (without the words): suggested threshold ") for c in at.caption)
    overlap = [c.value for c in at.caption if c.value.startswith("at these settings, ")]
    through = 14 - int(suggested[1].split()[0])
    assert overlap and (f"{through} of 14" in overlap[0] if through else "refuses all 14" in overlap[0])
    # Below them, the filters, the verdict column and the kinds table make the same decisions
    # (they judged the score alone: e.g. 10 trick questions "wrongly accepted" beside 13 of 14 refused).
    answered, refused = (int(count.split()[0]) for count in suggested)
    for which, expected in (("wrongly_accepted", 14 - refused), ("wrongly_refused", 54 - answered)):
        at.radio(key="filter_blog").set_value(which).run()
        table = table_with(at, "at the threshold")
        assert len(table) == expected and f"{expected} of 68 questions" in [c.value for c in at.caption]
        assert set(table["at the threshold"]) <= {"answered" if which == "wrongly_accepted" else "refused"}
    kinds = table_with(at, "handled well (%)")

    def total(column: str) -> tuple[int, int]:
        pairs = [cell.split(" of ") for cell in kinds[column] if cell]
        return sum(int(n) for n, _ in pairs), sum(int(of) for _, of in pairs)

    assert total("refused") == (refused, 14) and total("answered") == (answered, 54)
    at.select_slider(key="slider_blog").set_value(0.95).run()
    after = tuple(metrics(at)[label] for label in live)
    # Moved live, nothing re-run; an exact match of the question's rare words keeps the gate's slack.
    assert after[1] == "14 of 14" and int(after[0].split()[0]) < int(suggested[0].split()[0])
    assert lmstudio.chat_calls == 0

    at.radio(key="filter_blog").set_value("wrongly_refused").run()
    table = table_with(at, "at the threshold")
    assert len(table) == 54 - int(after[0].split()[0]) and set(table["at the threshold"]) == {"refused"}
    kinds = table_with(at, "handled well (%)")
    assert {"identifier", "paraphrase", "out of base, near domain", "off topic"} <= set(kinds["kind"])
    assert kinds["questions"].sum() == 68
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Download the results (CSV)", "Download the results (JSON)"]
    # The run is kept: it is listed among the earlier runs.
    runs = table_with(at, "suggested")
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
    at.radio(key="question_set_kind").set_value("uploaded").run()
    at.file_uploader(key="question_upload").set_value(("mini.csv", csv, "text/csv")).run()
    at.multiselect(key="eval_collections").set_value(["blog", "other"]).run()
    at.button(key="run_eval").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [t.label for t in at.tabs] == ["blog", "other"]
    assert "3 questions (2 on the articles, 1 to refuse)" in "\n".join(c.value for c in at.tabs[0].caption)
    assert {m.label: m.value for m in at.tabs[0].metric}["right article first"] == "100%"
    # The two collections side by side: metric by metric, and who finds which article.
    assert "Side by side" in [h.value for h in at.subheader]
    compared = table_with(at, "B - A")
    assert {"right article first", "average rank (1 = always first)", "threshold"} <= set(compared["measure"])
    assert any("found by both: **2**" in m.value for m in at.markdown)
    assert "Both measured at the threshold 0.830." in [c.value for c in at.caption]

    at.select_slider(key="slider_blog").set_value(0.8).run()
    at.button(key="save_blog").click().run()
    assert "now use the threshold 0.800" in at.success[0].value
    assert store.collection_info("blog")["threshold"] == 0.8
    # Three questions cannot calibrate a threshold: it is saved, and the page says so.
    assert any("comes from 2 in-base and 1 off-topic questions" in w.value for w in at.warning)


def test_a_saved_threshold_shows_at_once_and_the_suggestion_sets_the_slider_cleanly(app_env, tmp_path, monkeypatch):
    """Bug: the sidebar and the chart kept the old threshold until the next rerun, and the
    "set to suggested" button logged a Session State warning."""
    monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "data"))
    store = Store(Settings.from_env())
    build_collection(store, EmbeddedEmbedder(threads=1), "blog")
    warnings = _Records()
    logging.getLogger(WIDGET_POLICIES).addHandler(warnings)
    try:
        at = evaluate_page()
        at.radio(key="question_set_kind").set_value("uploaded").run()
        at.file_uploader(key="question_upload").set_value(("q.jsonl", NEAR_DOMAIN_JSONL.encode(), "text/plain")).run()
        at.button(key="run_eval").click().run()
        assert "threshold 0.830 (model default)" in "\n".join(c.value for c in at.sidebar.caption)
        at.button(key="suggest_blog").click().run()
        chosen = at.select_slider(key="slider_blog").value
        assert chosen != 0.83
        at.button(key="save_blog").click().run()
    finally:
        logging.getLogger(WIDGET_POLICIES).removeHandler(warnings)
    assert not at.exception, [e.value for e in at.exception]
    assert f"threshold {chosen:.3f} (calibrated)" in "\n".join(c.value for c in at.sidebar.caption)
    chart = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-calibration_blog")][0]
    assert f"current {chosen:.3f}" in chart.proto.spec  # the chart's current line moved too
    assert f"now use the threshold {chosen:.3f}" in at.success[0].value
    assert not [m for m in warnings.messages if "Session State" in m], warnings.messages


def test_evaluation_with_the_chat_model_down_says_so_and_shows_no_answer_metrics(app_env, lmstudio):
    """Bug: "answer contains expected 0%" with no warning when LM Studio was down."""
    lmstudio.down()
    at = evaluate_page()
    at.checkbox(key="eval_with_llm").check().run()
    assert "about" in "\n".join(c.value for c in at.caption)  # how long, before it starts
    at.button(key="run_eval").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "The chat model could not be reached" in at.error[0].value
    labels = [m.label for m in at.metric]
    assert "right article first" in labels
    assert not {"answers with the expected text", "invalid citations"} & set(labels)


def test_runs_with_the_chat_model_are_compared_on_prompt_tokens_and_first_word(app_env_empty, lmstudio, tmp_path,
                                                                              monkeypatch):
    # The seed's question, what more passages cost: two runs at top 1 and top 2, side by side.
    from rag.cli.main import main

    store = Store(Settings.from_env())
    docs = [
        Document("laps.md", "LAPS", "# LAPS\n\nWindows LAPS change le mot de passe administrateur local tous les 30 jours."),
        Document("klist.md", "klist", "# klist\n\nklist purge efface les tickets Kerberos de la session."),
    ]
    assert ingest(docs, store, EmbeddedEmbedder(threads=1), "blog", strategy="sections").new == 2
    store.close()
    questions = tmp_path / "mini.csv"
    questions.write_text("id,question,expected_source,in_base\n"
                         "q1,Tous les combien LAPS change-t-il le mot de passe ?,laps.md,true\n"
                         "q2,Comment effacer les tickets Kerberos ?,klist.md,true\n", encoding="utf-8")
    lmstudio.delay = 0.05
    monkeypatch.setenv("RAG_THRESHOLD", "0.5")  # every question reaches the model
    for k in ("1", "2"):
        assert main(["eval", "--questions", str(questions), "--collection", "blog", "--top-k", k]) == 0
    monkeypatch.delenv("RAG_THRESHOLD")

    at = evaluate_page()
    runs = table_with(at, "prompt tokens")
    by_k = {int(row["passages per question"]): row for _, row in runs.iterrows()}
    tokens = {k: int(row["prompt tokens"].replace(",", "")) for k, row in by_k.items()}  # 1,234 in English
    assert tokens[2] > tokens[1] > 0
    assert all(float(row["first word (s)"]) >= 0.05 for row in by_k.values())


def _one_document_collection() -> None:
    one_document_collection("blog")


def test_the_evaluate_page_s_pickers_say_choose_in_french(app_env_empty, monkeypatch):
    """Streamlit's placeholders are English ("Choose options", "Choose an option"): in the French
    dashboard the collection and earlier-run pickers said so beside French labels."""
    _one_document_collection()
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    at = evaluate_page()
    collections = at.multiselect(key="eval_collections")
    assert collections.proto.placeholder == "Choisissez une ou deux collections"
    for _ in range(2):  # the picker offers the earlier run
        at.button(key="run_eval").click().run()
        time.sleep(1)  # the next run's date differs from this one's
    assert not at.exception, [e.value for e in at.exception]
    earlier = at.selectbox(key="earlier_run")
    assert earlier.value is None
    assert earlier.proto.placeholder == "Choisissez une évaluation"


def test_a_comparison_names_its_runs_by_the_date_the_table_shows(app_env_empty):
    """Bugs: 'A = blog (2026-11-30T14:41:14+00:00)': ISO timestamps with seconds and offset beside the
    runs table's '2026-11-30 14:41'; and the run just made was offered for comparison with itself."""
    _one_document_collection()
    at = evaluate_page()
    at.button(key="run_eval").click().run()
    # One run: the page's own, nothing to compare it with; no picker offers it against itself.
    assert "earlier_run" not in [s.key for s in at.selectbox]
    time.sleep(1)  # the next run's date differs from this one's
    at.button(key="run_eval").click().run()
    latest, earlier = list_runs(Settings.from_env())
    picker = at.selectbox(key="earlier_run")
    assert picker.options == [evaluation.run_label(earlier)]
    picker.set_value(earlier["path"]).run()
    assert not at.exception, [e.value for e in at.exception]
    a, b = (evaluation.run_date(run) for run in (earlier, latest))  # 1 Dec 2026, 20:04 (the clock's zone said)
    assert f"A = blog ({a}), B = blog ({b})" in [c.value for c in at.caption]
    assert {a, b} <= set(table_with(at, "date")["date"])


def test_a_french_page_writes_decimals_with_a_comma_and_an_english_one_with_a_dot(app_env, tmp_path, monkeypatch):
    """Thresholds in the sidebar, captions, buttons, the slider and the chart: 0,830 for a French
    reader; the slider keeps its value when the reader switches to English, which reads 0.830."""
    monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    store = Store(Settings.from_env())
    build_collection(store, EmbeddedEmbedder(threads=1), "blog")
    at = evaluate_page()
    at.radio(key="question_set_kind").set_value("uploaded").run()
    at.file_uploader(key="question_upload").set_value(("q.jsonl", NEAR_DOMAIN_JSONL.encode(), "text/plain")).run()
    at.button(key="run_eval").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "seuil 0,830 (défaut du modèle)" in "\n".join(c.value for c in at.sidebar.caption)
    # The suggestion says when it gives the same counts as the threshold measured (this set).
    assert any(re.match(r"Mesuré au seuil 0,830 ; (le )?seuil suggéré 0,\d{3}", c.value) for c in at.caption)
    # The gate's line says the run was measured at the model's default floor, which a passage just
    # under may cross, unlike the slider's (the top card's 13 of 30 and the slider's 14 of 30 at
    # one threshold, unexplained); its counts are the live gate's, the top cards'.
    measured = [c.value for c in at.caption if c.value.startswith("Mesuré au seuil par défaut du modèle, 0,830 :")]
    assert len(measured) == 1 and "plancher qu'aucun passage en dessous ne franchit" in measured[0]
    card = [c.value for c in at.caption if c.value.endswith("restent sous le seuil")][0]  # "13 sur 30 ..."
    assert measured[0].split("traitées, ")[1].startswith(card.split(" restent")[0] + " questions pièges refusées")
    slider = at.select_slider(key="slider_blog")
    assert slider.value == 0.83 and "0,830" in slider.options and "0.830" not in slider.options
    chart = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-calibration_blog")][0]
    spec = json.loads(chart.proto.spec)
    assert spec["layout"]["separators"] == ",\u202f"  # the axis ticks: 0,84
    assert "actuel 0,830" in [a["text"] for a in spec["layout"]["annotations"]]

    at.button(key="suggest_blog").click().run()
    chosen = at.select_slider(key="slider_blog").value
    french = f"{chosen:.3f}".replace(".", ",")
    assert chosen != 0.83 and at.button(key="save_blog").label == f"Enregistrer {french} comme seuil de blog"
    at.button(key="save_blog").click().run()
    assert f"utilisent maintenant le seuil {french}." in at.success[0].value
    at.button(key="run_eval").click().run()  # measured again: at the saved floor, no longer the default
    assert any(c.value.startswith(f"Mesuré au seuil {french} :") for c in at.caption)
    assert not any(c.value.startswith("Mesuré au seuil par défaut") for c in at.caption)
    assert f"seuil {french} (calibré)" in "\n".join(c.value for c in at.sidebar.caption)
    percentages = [m.value for m in at.metric if m.value.endswith("%")]
    assert percentages and all(p.endswith("\u00a0%") for p in percentages)

    # Moved by hand (the widget then holds its option's text, "0,850"), then the reader switches.
    at.select_slider(key="slider_blog").set_value(0.85).run()
    assert at.button(key="save_blog").label == "Enregistrer 0,850 comme seuil de blog"
    at.button_group(key="sidebar_lang").set_value("en").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.select_slider(key="slider_blog").value == 0.85  # kept across the switch
    at.select_slider(key="slider_blog").set_value(chosen).run()
    assert f"{chosen:.3f}" in at.select_slider(key="slider_blog").options
    assert at.button(key="save_blog").label == f"Save {chosen:.3f} as the threshold of blog"
    assert f"threshold {chosen:.3f} (calibrated)" in "\n".join(c.value for c in at.sidebar.caption)
    spec = json.loads([c for c in at.get("plotly_chart") if c.proto.id.endswith("-calibration_blog")][0].proto.spec)
    assert spec["layout"]["separators"] == ".,"
    assert all(not m.value.endswith("\u00a0%") for m in at.metric)


def test_the_chat_model_box_shows_what_the_next_run_does_after_another_page(app_env, lmstudio):
    at = evaluate_page()
    at.checkbox(key="eval_with_llm").check().run()
    at.switch_page("app_pages/1_Ask.py").run()
    at.switch_page("app_pages/3_Evaluate.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.checkbox(key="eval_with_llm").value is True


def test_a_set_written_for_other_articles_is_said_before_the_run(app_env, lmstudio, tmp_path, monkeypatch):
    """The shipped set on a collection holding none of its articles would count only misses: the
    page says so before the run, for that collection only."""
    data = tmp_path / "data"  # a copy: the demo index is shared by the whole session's tests
    shutil.copytree(app_env.data_dir, data, ignore=shutil.ignore_patterns("journal", "*.lock"))
    monkeypatch.setenv("RAG_DATA_DIR", str(data))
    one_document_collection("notes")  # one article, klist.md, none of the set's

    def elsewhere(at: AppTest) -> list[str]:
        return [w.value for w in at.warning if "this set expects" in w.value]

    at = evaluate_page()
    assert at.multiselect(key="eval_collections").value == ["blog"] and not elsewhere(at)
    at.multiselect(key="eval_collections").set_value(["blog", "notes"]).run()
    said = elsewhere(at)
    assert len(said) == 1 and "is in **notes**" in said[0] and "Save a set from the **Journal**" in said[0]
    assert not at.button(key="run_eval").disabled  # said, not forbidden: the writer may still run it
    at.multiselect(key="eval_collections").set_value(["notes"]).run()
    at.button(key="run_eval").click().run()
    # Run anyway, the results say which expected articles the collection lacks (the command line's
    # summary said it; the page did not).
    lacking = [w.value for w in at.warning if "expected source urls are not in the collection" in w.value]
    assert len(lacking) == 1 and "kerberos" in lacking[0].lower()


def test_the_lacking_articles_are_named_as_text(app_env, lmstudio):
    """An expected source is whatever the set says: named after the run as text, never a link."""
    jsonl = (b'{"id": "q1", "question": "Comment effacer les tickets Kerberos ?", "in_base": true,'
             b' "expected_source": "[ouvrir](https://phish.example/)"}\n'
             b'{"id": "q2", "question": "Quelle est la recette de la tarte tatin ?", "in_base": false}\n')
    at = evaluate_page()
    at.radio(key="question_set_kind").set_value("uploaded").run()
    at.file_uploader(key="question_upload").set_value(("q.jsonl", jsonl, "text/plain")).run()
    at.button(key="run_eval").click().run()
    assert not at.exception, [e.value for e in at.exception]
    lacking = [w.value for w in at.warning if "expected source url is not in the collection" in w.value]
    assert len(lacking) == 1 and "ouvrir" in lacking[0] and "](https://phish.example/)" not in lacking[0]
