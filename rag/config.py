"""Settings from the environment (the contract's RAG_* variables), overridable per session."""

from __future__ import annotations

import dataclasses
import ipaddress
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from rag.i18n import t
from rag.errors import ConfigError
from rag.environment import escaped, raw_from_env, secrets_from_env

DEFAULT_LLM_URL = "http://localhost:1234/v1"

# Endpoint paths people paste by mistake after the base URL.
_ENDPOINT_SUFFIX = re.compile(
    r"/(v1/)?(embeddings|chat/completions|completions|models)/?$|/api/v[01]/models/?$|/api/embed/?$"
)


def normalize_base_url(url: str) -> str:
    """Accept a base URL with or without /v1, a trailing slash or a pasted endpoint path.

    Returns the OpenAI-compatible base, always ending in /v1.
    """
    cleaned = (url or "").strip()
    if not cleaned:
        raise ConfigError(t("config.empty_url"))
    if not re.match(r"^https?://", cleaned):
        if "://" in cleaned:
            raise ConfigError(t("config.scheme", url=repr(cleaned)))
        cleaned = "http://" + cleaned
    cleaned = cleaned.rstrip("/")
    cleaned = _ENDPOINT_SUFFIX.sub("", cleaned).rstrip("/")
    if not cleaned.endswith("/v1"):
        cleaned += "/v1"
    return cleaned


def server_root(base_url: str) -> str:
    """The server's root (no /v1), where LM Studio's native /api/v0 lives."""
    base = normalize_base_url(base_url)
    return base[: -len("/v1")]


def _number(raw: str | None, name: str, convert: Callable[[str], Any], what: str, default: Any) -> Any:
    if raw is None or raw.strip() == "":
        return default
    try:
        return convert(raw)
    except ValueError as exc:
        raise ConfigError(t(what, name=name, value=repr(raw))) from exc


def _float_or_none(raw: str | None, name: str) -> float | None:
    return _number(raw, name, float, "config.not_number", None)


def _weight(value: float | None, default: float = 0.5) -> float:
    """A share from 0 to 1 (0 counts: BM25 alone), the default when unset."""
    return default if value is None else min(1.0, max(0.0, value))


def _int(raw: str | None, name: str, default: int) -> int:
    return _number(raw, name, int, "config.not_whole", default)


_TRUE, _FALSE = ("1", "true", "yes", "on", "oui", "vrai"), ("0", "false", "no", "off", "non", "faux")


def _flag(raw: str | None, name: str) -> bool:
    value = (raw or "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE or not value:
        return False
    raise ConfigError(t("config.not_flag", name=name, value=repr(raw)))


QUERY_REWRITES = ("off", "rewrite", "hyde")  # RAG_QUERY_REWRITE (rag.answer.query_rewrite.MODES)


def _choice(raw: str | None, name: str, choices: tuple[str, ...]) -> str:
    """One of `choices` (the first when unset), whatever its case."""
    value = (raw or "").strip().lower()
    if not value:
        return choices[0]
    if value not in choices:
        raise ConfigError(t("config.not_choice", name=name, value=repr(raw), choices=", ".join(choices)))
    return value


def _admins(raw: str | None) -> tuple[str, ...]:
    from rag.auth.access import parse_admins  # access reads no setting: no cycle

    return parse_admins(raw or "", "RAG_ADMINS")


def _networks(raw: str | None, name: str) -> tuple[str, ...]:
    """Comma-separated addresses or networks (10.0.0.0/8, ::1), each checked and written canonically."""
    networks = []
    for item in (raw or "").replace(";", ",").split(","):
        if not item.strip():
            continue
        try:
            networks.append(str(ipaddress.ip_network(item.strip(), strict=False)))
        except ValueError as exc:
            raise ConfigError(t("config.bad_network", name=name, value=item.strip())) from exc
    return tuple(networks)


@dataclass(frozen=True)
class Settings:
    data_dir: Path = Path("data")
    qdrant_url: str | None = None
    qdrant_api_key: str | None = None
    llm_url: str = DEFAULT_LLM_URL
    llm_model: str | None = None
    llm_api_key: str | None = None
    # The server RAG_LLM_API_KEY was configured for: a session pointing elsewhere never gets it.
    llm_key_url: str | None = None
    embed_url: str = DEFAULT_LLM_URL
    embed_model: str | None = None  # None = auto, "embedded" = the bundled model
    embed_threads: int | None = None  # None = the embedded model's own default
    collection: str = "blog"
    top_k: int = 6
    threshold: float | None = None  # None = the collection's calibrated value, else the model's default
    timeout: float = 60.0
    # The answerability gate's share of the question's words the collection must hold; None = the
    # collection's calibrated value, else the default; 0 = no word checks (the cosine alone).
    min_coverage: float | None = None
    # The context (rag.context): at most this many passages of one document (0 = no cap), and the
    # passages grown by their neighbouring chunks, this many characters in all (0 = off).
    per_document: int = 3
    expand_chars: int = 2000
    # Small-to-big: the top articles' first passages grown by each article's own best chunks
    # (searched again within it), this many characters in all (0 = off).
    article_chars: int = 3000
    # The first this many passages of the context come from as many different articles (0 = off):
    # more articles reach the context, and small-to-big brings the top ones' other passages back.
    distinct_articles: int = 6
    # How hybrid search fuses its dense and BM25 branches: "rrf" (ranks) or "convex" (normalised
    # scores, `fusion_weight` the cosine's share; rag.store.fusion). benchmarks/README.md 4c.
    fusion: str = "convex"
    fusion_weight: float = 0.5
    # An optional /v1/rerank server (off when unset); its key goes to that URL only.
    rerank_url: str | None = None
    rerank_model: str | None = None
    rerank_api_key: str | None = None
    # The chat model's levers on retrieval (off by default; rag.answer.query_rewrite, llm_rerank):
    # the dense search steered by its rewrite of the question ("rewrite") or by a hypothetical
    # passage ("hyde"), and its listwise ranking of the 20 candidates.
    query_rewrite: str = "off"
    llm_rerank: bool = False
    # RAG_ADMINS: the identities that read every document in the dashboard (verified addresses,
    # "sub:" ids, "password:editor"); every other editor reads only their groups.
    admins: tuple[str, ...] = ()
    # RAG_TRUSTED_PROXIES: the proxies whose X-Forwarded-For names the client (none by default).
    trusted_proxies: tuple[str, ...] = ()
    # RAG_SESSION_HOURS: how long a password sign-in survives reloads (0: until the tab closes).
    session_hours: float = 8.0
    prompt_file: str | None = None  # a system prompt of one's own (else rag/answer/prompts/{fr,en}.txt)
    # The embedding model's prefixes, when set (None: by model family; "" is an empty prefix).
    query_prefix: str | None = None
    document_prefix: str | None = None
    max_doc_mb: str | None = None  # RAG_MAX_DOC_MB as written (rag.sources.limits reads and checks it)
    wp_user: str | None = None
    wp_app_password: str | None = None
    # The dashboard's sign-in and who reads what (rag.auth.access reads and checks them).
    app_password: str | None = None
    editor_password: str | None = None
    users_groups: str | None = None
    users_roles: str | None = None
    access_file: str | None = None
    ui_lang: str | None = None  # "fr" or "en" (rag.i18n: else the browser's or the locale's)
    # The question journal (rag.journal): readers' identities shown to editors, or readers numbered;
    # entries older than this many days deleted at start (0 = kept forever).
    journal_names: bool = False
    journal_days: int = 90
    # Megabytes the embedded store leaves free on its disk: a write that would go below is refused
    # with a clear error (a full disk under Qdrant Edge's mapped files kills the process).
    min_free_mb: int = 100

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        llm_url = normalize_base_url(env.get("RAG_LLM_URL") or DEFAULT_LLM_URL)
        embed_raw = env.get("RAG_EMBED_URL")
        embed_url = normalize_base_url(embed_raw) if embed_raw else llm_url
        threads = env.get("RAG_EMBED_THREADS")
        return cls(
            data_dir=Path(env.get("RAG_DATA_DIR") or "data"),
            qdrant_url=(env.get("RAG_QDRANT_URL") or None),
            llm_url=llm_url,
            llm_model=(env.get("RAG_LLM_MODEL") or None),
            llm_key_url=llm_url if env.get("RAG_LLM_API_KEY") else None,
            embed_url=embed_url,
            embed_model=(env.get("RAG_EMBED_MODEL") or None),
            embed_threads=_int(threads, "RAG_EMBED_THREADS", 0) or None,
            collection=env.get("RAG_COLLECTION") or "blog",
            top_k=_int(env.get("RAG_TOP_K"), "RAG_TOP_K", 6),
            threshold=_float_or_none(env.get("RAG_THRESHOLD"), "RAG_THRESHOLD"),
            timeout=float(_float_or_none(env.get("RAG_TIMEOUT"), "RAG_TIMEOUT") or 60.0),
            min_coverage=_float_or_none(env.get("RAG_MIN_COVERAGE"), "RAG_MIN_COVERAGE"),
            per_document=_int(env.get("RAG_PER_DOCUMENT"), "RAG_PER_DOCUMENT", 3),
            expand_chars=_int(env.get("RAG_EXPAND_CHARS"), "RAG_EXPAND_CHARS", 2000),
            article_chars=_int(env.get("RAG_ARTICLE_CHARS"), "RAG_ARTICLE_CHARS", 3000),
            distinct_articles=_int(env.get("RAG_DISTINCT_ARTICLES"), "RAG_DISTINCT_ARTICLES", 6),
            fusion=(env.get("RAG_FUSION") or "convex").strip().lower(),
            fusion_weight=_weight(_float_or_none(env.get("RAG_FUSION_WEIGHT"), "RAG_FUSION_WEIGHT")),
            rerank_url=(env.get("RAG_RERANK_URL") or None),
            rerank_model=(env.get("RAG_RERANK_MODEL") or None),
            query_rewrite=_choice(env.get("RAG_QUERY_REWRITE"), "RAG_QUERY_REWRITE", QUERY_REWRITES),
            llm_rerank=_flag(env.get("RAG_LLM_RERANK"), "RAG_LLM_RERANK"),
            prompt_file=(env.get("RAG_PROMPT_FILE") or None),
            query_prefix=escaped(env.get("RAG_QUERY_PREFIX")),
            document_prefix=escaped(env.get("RAG_DOCUMENT_PREFIX")),
            **secrets_from_env(env),
            **{k: v for k, v in raw_from_env(env).items() if k != "data_dir"},  # read above, as a Path
            admins=_admins(env.get("RAG_ADMINS")),
            trusted_proxies=_networks(env.get("RAG_TRUSTED_PROXIES"), "RAG_TRUSTED_PROXIES"),
            # Bounded whatever is written: at most 30 days.
            session_hours=min(720.0, max(0.0, _number(env.get("RAG_SESSION_HOURS"), "RAG_SESSION_HOURS", float,
                                                      "config.not_number", 8.0))),
            journal_names=_flag(env.get("RAG_JOURNAL_NAMES"), "RAG_JOURNAL_NAMES"),
            journal_days=max(0, _int(env.get("RAG_JOURNAL_DAYS"), "RAG_JOURNAL_DAYS", 90)),
            min_free_mb=_int(env.get("RAG_MIN_FREE_MB"), "RAG_MIN_FREE_MB", 100),
        )

    def replace(self, **changes: object) -> Settings:
        return dataclasses.replace(self, **changes)

    def api_key_for(self, url: str) -> str | None:
        """RAG_LLM_API_KEY, only for the server it was configured for (RAG_LLM_URL), else None.

        The embeddings server gets it only when it is that same server. A URL changed for a
        session, or set in code, never receives the key.
        """
        if not self.llm_api_key or not self.llm_key_url:
            return None
        try:
            same = normalize_base_url(url) == normalize_base_url(self.llm_key_url)
        except ConfigError:
            return None
        return self.llm_api_key if same else None

    @property
    def qdrant_path(self) -> Path:
        return self.data_dir / "qdrant"

    @property
    def logs_dir(self) -> Path:
        return self.data_dir / "logs"

    @property
    def evals_dir(self) -> Path:
        return self.data_dir / "evals"
