"""The Ask page with the chat model's levers on retrieval (RAG_QUERY_REWRITE, RAG_LLM_RERANK): the
model is asked to rewrite and to rank before it answers, and a ranking it could not give is a
warning under the answer, which is still given."""

from __future__ import annotations

from rag.answer import llm_rerank, query_rewrite
from tests.ui.test_app_ask import IN_BASE, ask, start, texts

ANSWER = "Aucun type de chiffrement commun entre le client, le KDC et le service [1]."


def test_the_levers_ask_the_model_first_and_a_failed_ranking_is_a_warning(app_env, lmstudio, monkeypatch):
    from rag.answer import chat_backoff

    chat_backoff.forget()
    monkeypatch.setenv("RAG_QUERY_REWRITE", "rewrite")
    monkeypatch.setenv("RAG_LLM_RERANK", "1")
    asked: list[str] = []

    def model(messages):
        if query_rewrite.request_mode(messages):
            asked.append("rewrite")
            return "Que signifie l'erreur Kerberos KDC_ERR_ETYPE_NOSUPP (type de chiffrement non pris en charge) ?"
        if llm_rerank.is_rerank_request(messages):
            asked.append("rerank")
            return "Je ne sais pas classer ces extraits."
        asked.append("answer")
        return ANSWER

    lmstudio.answer = model
    at = ask(start(), IN_BASE)
    assert asked == ["rewrite", "rerank", "answer"]
    assert "Aucun type de chiffrement commun" in texts(at.markdown)
    warnings = [w.value for w in at.warning]
    assert any("search's own order" in w and "could not rank them" in w for w in warnings), warnings
    assert "kerberos-erreurs.md" in at.subheader[0].value  # the search's own first passage, cited


def _captions(at) -> list[str]:
    return [c.value for c in at.chat_message[1].expander[0].caption]


def test_the_passages_caption_names_the_chat_model_when_it_ranked_them(app_env, lmstudio, monkeypatch):
    from rag.answer import chat_backoff

    chat_backoff.forget()

    def model(messages):
        if llm_rerank.is_rerank_request(messages):  # the search's order reversed: scores now rise
            count = messages[1]["content"].count(' n="')
            return " > ".join(f"[{n}]" for n in range(count, 0, -1))
        return ANSWER

    lmstudio.answer = model
    plain = ask(start(), IN_BASE)
    assert all("chat model" not in c for c in _captions(plain))
    monkeypatch.setenv("RAG_LLM_RERANK", "1")
    ranked = ask(start(), IN_BASE)
    assert not [w.value for w in ranked.warning if "rank" in w.value]  # the ranking was used
    (caption,) = [c for c in _captions(ranked) if "lower score" in c]
    assert caption.startswith("Passages are ranked by the chat model, from its reading of the question")
    assert "keywords and meaning" not in caption
