"""The Ask page driven headless with AppTest over the demo index and the LM Studio emulator."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from rag.answer.prompts import refusal_sentence

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
TIMEOUT = 60
IN_BASE = "Que signifie l'erreur KDC_ERR_ETYPE_NOSUPP dans un événement Kerberos ?"
OFF_TOPIC = "Quelle est la recette de la tarte tatin ?"


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_cited_answer_streams_with_sources_and_passages(app_env, lmstudio):
    lmstudio.answer = "Aucun type de chiffrement commun entre le client, le KDC et le service [1]."
    at = ask(start(), IN_BASE)

    assert lmstudio.chat_calls == 1
    body = texts(at.markdown)
    assert "Aucun type de chiffrement commun" in body and "[1]" in body
    # The sources name the cited passage; a folder's relative url is shown as text, not a link.
    assert [m.value for m in at.markdown if m.value.startswith("**Sources**")] == ["**Sources**"]
    sources = [h.value for h in at.subheader]
    assert len(sources) == 1 and "**[1]**" in sources[0] and "kerberos-erreurs.md" in sources[0]
    assert "](" not in sources[0]
    # Every retrieved passage is listed with its score and verdict, next to the score chart.
    expander = at.expander[0]
    assert expander.label == "6 passages found · threshold 0.830"
    passages = [m.value for m in expander.markdown if "score" in m.value]
    assert len(passages) == 6 and "close enough" in passages[0]
    assert len(expander.get("plotly_chart")) == 1
    assert not at.warning  # cited, valid: nothing to flag


def _links(markdown: str) -> list[tuple[str, str]]:
    """(text, destination) of each Markdown link."""
    return re.findall(r"\[((?:\\.|[^\]\\])*)\]\(([^\s)]+)", markdown)


def test_each_citation_links_to_its_own_turns_source_and_passage(app_env, lmstudio):
    lmstudio.answer = ("Le KDC ne trouve aucun type de chiffrement commun [1]. Voir aussi [2], mais pas [9], "
                       "ni `klist [1]`, ni [ce lien](http://evil.example) ou [x](#cite-blog-t0-1).")
    at = ask(start(), IN_BASE)

    answer = at.chat_message[1].markdown[0].value
    # [1] and [2] name passages sent to the model: each is a link to an anchor on the page.
    assert _links(answer) == [("\\[1\\]", "#cite-blog-t0-1"), ("\\[2\\]", "#cite-blog-t0-2")]
    assert "[9]" in answer and "`klist [1]`" in answer  # an invalid citation and code stay text
    assert "ce lien (`http://evil.example`)" in answer and "(#cite-blog-t0-1)." not in answer
    assert any("[9]" in w.value for w in at.warning)  # still flagged
    # The anchors exist: a heading per cited source, followed by the passage itself, outside the
    # collapsed list of passages.
    headings = at.chat_message[1].subheader
    assert [h.anchor for h in headings] == ["cite-blog-t0-1", "cite-blog-t0-2"]
    assert "**[2]**" in headings[1].value
    listed = [m.value for m in at.chat_message[1].expander[0].markdown]  # heading, text, heading, text...
    assert listed[0].startswith("**[1]**") and listed[2].startswith("**[2]**")
    # Under each heading, what its citation rests on: part of the text the model read, which the
    # list shows (grown by its neighbours).
    from ui.present.answer import cited_source

    result = at.session_state["history"][0]["result"]
    for p, text in zip(result.sources, (listed[1], listed[3])):
        shown = cited_source(p, result.raw_answer)  # the cited part, else (no word in common) all of it
        assert (shown.cited or shown.before)[:120] in text
    assert at.container(key="cited-span-source-0-1").markdown[0].value == cited_source(
        result.sources[0], result.raw_answer).cited

    # A second turn: its links and anchors are its own; the first turn, now compact, keeps its links
    # to its own source lines.
    ask(at, "Comment purger les tickets Kerberos avec klist ?")
    first, second = at.chat_message[1], at.chat_message[3]
    assert [d for _, d in _links(first.markdown[0].value)] == ["#cite-blog-t0-1", "#cite-blog-t0-2"]
    assert [h.anchor for h in first.subheader] == ["cite-blog-t0-1", "cite-blog-t0-2"]
    assert [d for _, d in _links(second.markdown[0].value)] == ["#cite-blog-t1-1", "#cite-blog-t1-2"]
    assert [h.anchor for h in second.subheader] == ["cite-blog-t1-1", "cite-blog-t1-2"]
    anchors = [h.anchor for h in at.subheader]
    assert len(anchors) == len(set(anchors)) == 4


def test_off_topic_question_is_refused_without_calling_the_model(app_env, lmstudio):
    at = start()
    at.session_state["threshold"] = 0.85
    ask(at, OFF_TOPIC)

    assert lmstudio.chat_calls == 0
    # A French question, an English reader: the refusal is in the reader's language, as its reason.
    assert [i.value for i in at.info] == [refusal_sentence("en")]
    details = texts(at.caption)
    # Refused by its words before its score: the page names the ones no article holds, the rarest
    # first, not the everyday "recette" (what the journal and `rag ask` say too).
    assert "No article mentions: tatin;" in details  # the rarest missing word, not "tarte"
    assert "too far from the question" in texts(at.expander[0].markdown)


def test_lm_studio_down_still_shows_passages_and_why(app_env, lmstudio):
    lmstudio.down()
    at = ask(start(), IN_BASE)

    reason = texts(at.warning)
    assert reason.startswith("No answer was written: the chat model could not be reached")
    details, passages = at.expander[0], at.expander[1]
    assert details.label == "Details" and "not reachable" in texts(details.caption)  # the long help, one click away
    assert passages.label.startswith("6 passages found")
    assert passages.proto.expanded, "without an answer the passages are shown open"
    assert "kerberos-erreurs.md" in texts(passages.markdown)
    # The sidebar says LM Studio is not answering.
    assert "not answering" in texts(at.sidebar.markdown)


def test_on_a_french_page_the_programs_own_message_is_french_too(app_env, lmstudio, monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    lmstudio.down()
    at = ask(start(), IN_BASE)

    details = at.expander[0]
    assert details.label == "Détails"
    caption = texts(details.caption)
    # The error rag raised during this French run, not an English sentence under a French headline.
    assert caption.startswith(f"Le serveur de chat ne répond pas sur {lmstudio.url}")
    assert "lms server start" in caption and "not reachable" not in caption


def test_the_sidebars_lm_studio_help_follows_each_readers_language(app_env, lmstudio, monkeypatch):
    lmstudio.down()
    helps = {}
    for lang in ("fr", "en", "fr"):  # one process, one status cache, readers of both languages
        monkeypatch.setenv("RAG_UI_LANG", lang)
        at = start()
        # The steps first, then what the workbench got, in the reader's language.
        helps[lang] = at.sidebar.expander[0].caption[-1].value if at.sidebar.expander else ""
        assert helps[lang]
        steps = texts(at.sidebar.expander[0].markdown)
        assert steps.startswith("1. Ouvrez LM Studio" if lang == "fr" else "1. Open LM Studio")
    assert helps["fr"].startswith("Le serveur de chat ne répond pas sur")
    assert helps["en"].startswith("The chat server at") and "is not reachable" in helps["en"]


def test_invalid_citation_and_uncited_answers_are_flagged(app_env, lmstudio):
    lmstudio.answer = "Voir l'extrait [9]."
    at = ask(start(), IN_BASE)
    assert "[9]" in texts(at.warning) and "matches no passage" in texts(at.warning)


def test_empty_collection_offers_the_demo_corpus_first(app_env_empty):
    at = start()
    assert [b.label for b in at.button] == ["Load the demo corpus"]
    assert "is empty" in at.info[0].value
    assert not at.chat_input  # nothing to ask yet


def test_example_questions_reach_a_cited_passage_in_one_click(app_env, lmstudio):
    at = start()
    examples = [b for b in at.button if b.key and b.key.startswith("example_")]
    assert len(examples) == 4
    at.button(key="example_1").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert lmstudio.chat_calls == 1
    assert at.chat_message[0].markdown[0].value.startswith("Que signifie l'erreur KDC_ERR_ETYPE_NOSUPP")
    assert any(m.value.startswith("**Sources**") for m in at.markdown)
    assert at.expander[0].label.startswith("6 passages found")
    # Once a question is asked, the examples make room for the conversation.
    assert not [b for b in at.button if b.key and b.key.startswith("example_")]
    at.run()
    assert len(at.chat_message) == 2 and lmstudio.chat_calls == 1  # shown again, not asked again


def test_sidebar_overrides_apply_to_this_session(app_env, lmstudio):
    at = start()
    sidebar = "\n".join(c.value for c in at.sidebar.caption)
    assert "96 passages · strategy sections · threshold 0.830 (model default)" in sidebar
    assert f"`{lmstudio.url}`" in "\n".join(m.value for m in at.sidebar.markdown)
    assert "chat model · `qwen2.5-7b-instruct` · context 4096 tokens" in sidebar

    at.number_input(key="sidebar_top_k").set_value(3).run()
    at.selectbox(key="sidebar_mode").set_value("dense").run()
    ask(at, IN_BASE)
    assert at.expander[0].label.startswith("3 passages found")
    assert at.session_state["top_k"] == 3 and at.session_state["mode"] == "dense"


def test_french_by_default_with_the_refusal_and_its_reason_in_french(app_env, lmstudio, monkeypatch):
    monkeypatch.delenv("RAG_UI_LANG")  # no setting and no browser (AppTest): French
    at = start()
    assert at.title[0].value == "Questions" and at.chat_input[0].placeholder == "Posez une question sur les articles"
    at.session_state["threshold"] = 0.85
    ask(at, "What is the recipe of the tarte tatin?")
    assert [i.value for i in at.info] == [refusal_sentence("fr")]
    # The reason is said in the page's language: for an English question on the French articles,
    # whose words are not compared with theirs, the passages' closeness.
    assert "Aucun passage n'est assez proche de la question" in texts(at.caption)
    assert "passages trouvés" in at.expander[0].label and "seuil 0,850" in at.expander[0].label  # as the sidebar writes it
    assert "seuil 0,850 (cette session)" in texts(at.sidebar.caption)
    # The sidebar switch turns the same page to English, conversation kept.
    at.button_group(key="sidebar_lang").set_value("en").run()
    assert at.title[0].value == "Ask" and [i.value for i in at.info] == [refusal_sentence("en")]
    assert "threshold 0.850" in at.expander[0].label and "threshold 0.850 (this session)" in texts(at.sidebar.caption)


def test_new_conversation_and_earlier_turns_in_short(app_env, lmstudio):
    lmstudio.answer = "Aucun type de chiffrement commun entre le client, le KDC et le service [1]."
    at = start()
    assert at.button(key="new_conversation").disabled  # nothing to clear yet
    ask(at, IN_BASE)
    ask(at, "Comment purger les tickets Kerberos avec klist ?")
    assert len(at.chat_message) == 4
    # The earlier turn keeps its question, answer, sources and collection; only the last shows passages.
    first = at.chat_message[1]
    assert "Aucun type de chiffrement commun" in texts(first.markdown)
    assert any(m.value.startswith("**Sources**") for m in first.markdown)
    assert "collection blog" in texts(first.caption)
    assert not first.expander and len(at.chat_message[3].expander) == 1
    at.button(key="new_conversation").click().run()
    assert not at.chat_message and lmstudio.chat_calls == 2
    assert [b for b in at.button if b.key and b.key.startswith("example_")]  # a fresh start offers the examples
    # The new conversation's links are its own: the page's URL may still name the last one's [1].
    ask(at, IN_BASE)
    assert [h.anchor for h in at.subheader] == ["cite-blog-t2-1"]
    assert "(#cite-blog-t2-1 " in at.chat_message[1].markdown[0].value


def test_the_demo_loads_into_its_own_calibrated_collection(app_env_empty):
    at = start()
    at.button(key="load_demo").click().run(timeout=900)  # 14 articles embedded, 68 questions replayed
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["collection"] == "demo"
    sidebar = texts(at.sidebar.caption)
    assert "strategy markdown" in sidebar and "(calibrated)" in sidebar
    from rag.config import Settings
    from rag.store.store import Store

    store = Store(Settings.from_env())
    try:
        info = store.collection_info("demo")
        assert info["strategy"] == "markdown" and info["threshold"] is not None
        assert store.collection_info("blog") is None  # the default collection stays free for a blog
    finally:
        store.close()


def test_an_address_typed_in_the_sidebar_is_the_one_the_error_tells_to_correct(app_env, lmstudio):
    """The error named RAG_LLM_URL although the editor had typed the address in the sidebar."""
    from tests.fixtures.net import free_port

    at = start()
    nobody = f"http://127.0.0.1:{free_port()}/v1"
    at.text_input(key="sidebar_llm_url").set_value(nobody).run()
    at = ask(at, IN_BASE)
    caption = texts(at.expander[0].caption)
    assert nobody in caption and 'the "LM Studio URL" field under Session settings' in caption
    assert "RAG_LLM_URL" not in caption


def test_the_lm_studio_steps_name_the_default_address_once():
    from rag.i18n import language
    from ui.sidebar import lmstudio_steps

    with language("fr"):
        default = lmstudio_steps("http://localhost:1234/v1")
        other = lmstudio_steps("http://192.168.1.20:1234/v1")
    assert default.count("http://localhost:1234/v1") == 1 and "son adresse par défaut" in default
    assert "`http://192.168.1.20:1234/v1` (par défaut `http://localhost:1234/v1`)" in other
