"""What a French reader or editor types and reads in figures: a decimal threshold typed with a
comma, thresholds written alike everywhere. Driven with AppTest over the demo index."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.fixtures.apptest import APP, TIMEOUT
from ui import resources


def _french(monkeypatch) -> AppTest:
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _captions(at: AppTest) -> str:
    return "\n".join(str(c.value) for c in at.sidebar.caption)


def test_a_french_editor_sets_the_threshold_with_a_comma(app_env, monkeypatch):
    at = _french(monkeypatch)
    field = at.sidebar.text_input(key="sidebar_threshold")
    assert field.label == "Seuil de score" and field.value == ""
    field.input("0,85").run()
    assert not at.exception and at.session_state[resources.THRESHOLD] == 0.85
    assert "seuil 0,850 (cette session)" in _captions(at)
    assert at.sidebar.text_input(key="sidebar_threshold").value == "0,850" and not at.sidebar.error
    at.sidebar.text_input(key="sidebar_threshold").input("0.8").run()  # a point is read too
    assert at.session_state[resources.THRESHOLD] == 0.8


def test_a_threshold_that_cannot_be_read_is_said_in_french_and_changes_nothing(app_env, monkeypatch):
    at = _french(monkeypatch)
    at.sidebar.text_input(key="sidebar_threshold").input("0,85").run()
    for typed in ("085", "0,8x"):
        at.sidebar.text_input(key="sidebar_threshold").input(typed).run()
        assert not at.exception and at.session_state[resources.THRESHOLD] == 0.85
        [error] = at.sidebar.error
        assert f"« {typed} » n'est pas un seuil : tapez un nombre entre 0 et 1, par exemple 0,850" in error.value
        assert at.sidebar.text_input(key="sidebar_threshold").value == typed  # kept to be corrected
    at.sidebar.text_input(key="sidebar_threshold").input("").run()  # emptied: the collection's again
    assert at.session_state[resources.THRESHOLD] is None and not at.sidebar.error
    assert "(cette session)" not in _captions(at)


def test_a_past_run_writes_its_threshold_and_its_suggestion_alike():
    """The past evaluations read "seuil 0,834" beside "suggéré 0,82"."""
    import rag.i18n
    from ui.present import evaluation

    with rag.i18n.language("fr"):
        runs = evaluation.runs_frame([{"date": "2026-12-01T20:04:00+00:00", "collection": "blog", "questions": 68,
                                       "threshold": 0.834, "suggested_threshold": 0.82}])
    assert (runs["seuil"][0], runs["suggéré"][0]) == ("0,834", "0,820")


def test_the_ingest_and_evaluate_tables_say_their_units_and_number_chunks_from_one():
    """Chunks were numbered from 0 (Ask cites from [1]), sizes had no unit, a column read "top k",
    and "questions traitées 96 %" did not say what the other 4 % were."""
    import rag.i18n
    from rag.chunking.preview import chunkers
    from ui.present import documents, evaluation

    chunker = chunkers("recursive", {"chunk_size": 300})[0]
    chunks = chunker.chunk("# A\n\n" + "Du texte sur Kerberos. " * 40, "a")
    with rag.i18n.language("fr"):
        assert [r["#"] for r in documents.chunk_rows(chunks)][:2] == [1, 2] and len(chunks) >= 2
        stats = documents.stats_rows([(chunker, chunks)])[0]
        assert {"plus petit (caractères)", "médian (caractères)", "plus grand (caractères)"} <= set(stats)
        runs = evaluation.runs_frame([{"collection": "blog", "questions": 68, "k": 6}])
        cards = {c["label"]: c for c in evaluation.metric_cards(
            {"questions": 3, "in_base": 2, "out_of_base": 1, "k": 6, "in_base_accepted": 0.5,
             "counts": {"in_base_accepted": 1}})}
    assert runs["passages par question"][0] == "6"
    card = cards["questions d'articles admises"]
    assert card["value"] == "50\u00a0%"
    assert card["caption"] == "1 sur 2 questions d'articles atteignent le seuil ; refusées alors qu'un article y répond : 1"


def test_a_chunk_setting_with_a_default_per_strategy_says_which_is_which(app_env_empty, monkeypatch):
    """The "Taille max." field read "2000 / 1000"."""
    from tests.fixtures.apptest import open_page

    monkeypatch.setenv("RAG_UI_LANG", "fr")
    at = open_page("app_pages/2_Ingest.py")
    field = at.number_input(key="setting_max_size")
    assert field.label == "Taille max." and field.placeholder == "défaut : selon la stratégie"
    captions = [c.value for c in at.caption]
    assert "pour sections (défaut 2\u202f000), sections_min_max (défaut 1\u202f000) ; vide : ce défaut" in captions
    assert "/" not in at.number_input(key="setting_chunk_size").placeholder
