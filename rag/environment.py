"""The variables that must be read even when another one is wrong, read as written: the secrets
(redaction needs them to mask any message, a configuration error's included), who reads what, the
WordPress user, the size cap, the language and the data folder. rag.config.Settings.from_env reads
them through here, with every other variable; rag.auth.access, rag.redact, rag.sources.limits and
rag.i18n's callers check them. With rag.config, the only reader of the environment in rag/ and ui/.
"""

from __future__ import annotations

import os
from typing import Mapping


def escaped(raw: str | None) -> str | None:
    # A literal "\n" typed in a shell or a .env file means a newline (Qwen3's query prefix has one).
    return None if raw is None else raw.replace("\\n", "\n")


def secrets_from_env(env: Mapping[str, str] | None = None) -> dict[str, str | None]:
    """The secret and sign-in variables alone, read without checking any other: what redaction
    needs even when another variable is wrong (rag.redact.known_secrets)."""
    env = os.environ if env is None else env
    return {
        "qdrant_api_key": env.get("RAG_QDRANT_API_KEY") or None,
        "llm_api_key": env.get("RAG_LLM_API_KEY") or None,
        "rerank_api_key": env.get("RAG_RERANK_API_KEY") or None,
        "wp_app_password": env.get("RAG_WP_APP_PASSWORD") or None,
        "app_password": env.get("RAG_APP_PASSWORD") or None,
        "editor_password": env.get("RAG_EDITOR_PASSWORD") or None,
    }


def raw_from_env(env: Mapping[str, str] | None = None) -> dict[str, str | None]:
    """The variables read as written, without checking any other: who reads what, the WordPress
    user, the document size cap, the language, the data folder (the readers that check them are
    rag.auth.access, rag.sources.limits, rag.i18n)."""
    env = os.environ if env is None else env
    return {
        "data_dir": env.get("RAG_DATA_DIR") or None,
        "users_groups": env.get("RAG_USERS_GROUPS"),
        "users_roles": env.get("RAG_USERS_ROLES"),
        "access_file": env.get("RAG_ACCESS_FILE"),
        "wp_user": env.get("RAG_WP_USER") or None,
        "max_doc_mb": env.get("RAG_MAX_DOC_MB"),
        "ui_lang": env.get("RAG_UI_LANG") or None,
    }


__all__ = ["escaped", "raw_from_env", "secrets_from_env"]
