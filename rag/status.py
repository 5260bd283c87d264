"""What is running and what is indexed, gathered without side effects (CLI and dashboard sidebar)."""

from __future__ import annotations

import time
from typing import Any

from rag.config import Settings
from rag.errors import RagError
from rag.servers.chat import LLMClient
from rag.redact import strip_userinfo
from rag.store.points import shown_time
from rag.store.store import Store
from rag.enrich import built_mode, enrichment_words
from rag.i18n import t, tn
from rag.i18n.numbers import decimal, integer
from rag.auth.session_key import inspect as inspect_session_key
from rag.auth.session_revocations import RevocationFile

LLM_STATUS_TIMEOUT = 5.0  # status must answer quickly even when LM Studio hangs


def llm_status(settings: Settings) -> dict[str, Any]:
    # Closed at once: the dashboard asks for the status every few seconds.
    with LLMClient.from_settings(settings.replace(timeout=min(settings.timeout, LLM_STATUS_TIMEOUT))) as client:
        result: dict[str, Any] = {"url": client.shown_url, "reachable": False, "error": None, "models": [],
                                  "chat_models": [], "embedding_models": [], "embedding_not_loaded": [],
                                  "loads_on_demand": None, "embedding_pick": None}
        try:
            server = client.models(on_demand=True)
        except RagError as exc:
            result["error"] = str(exc)
            return result
    pick = server.pick_embedding_model()
    result.update(
        reachable=True,
        models=[m.to_json() for m in server.models],
        chat_models=[m.to_json() for m in server.chat_models],
        embedding_models=[m.to_json() for m in server.ready_embedding_models],
        # Downloaded, not loaded: LM Studio loads one at the first question when loads_on_demand.
        embedding_not_loaded=[m.to_json() for m in server.unloaded_embedding_models],
        loads_on_demand=server.loads_on_demand,
        embedding_pick=pick.id if pick else None,
    )
    return result


def store_status(settings: Settings, store: Store | None = None) -> dict[str, Any]:
    backend = "server" if settings.qdrant_url else "embedded"
    location = strip_userinfo(settings.qdrant_url) if settings.qdrant_url else str(settings.qdrant_path.resolve())
    result: dict[str, Any] = {
        "backend": backend, "location": location, "reachable": False, "error": None, "collections": [],
    }
    try:
        store = store or Store(settings)
        for name in store.list_collections():
            info = store.collection_info(name)
            if info is not None:
                result["collections"].append(info)
    except RagError as exc:
        result["error"] = str(exc)
        return result
    result["reachable"] = True
    return result


def readable_collections(store: Store, collections: list[dict[str, Any]],
                         groups: list[str] | None) -> list[dict[str, Any]]:
    """The collections a reader of `groups` can read something in, each with `points` counting
    only the points they can see. `groups` None (an editor): every collection, as it is."""
    if groups is None:
        return collections
    readable = []
    for info in collections:
        visible = store.count(info["name"], groups=groups)
        if visible:
            readable.append({**info, "points": visible})
    return readable


def embedding_choice(settings: Settings, llm: dict[str, Any]) -> str:
    """Which model a new collection would be embedded with, in one sentence."""
    if settings.embed_model:
        return f"RAG_EMBED_MODEL={settings.embed_model}"
    if settings.embed_url != settings.llm_url:
        return t("status.auto_url", url=strip_userinfo(settings.embed_url))
    if not llm["reachable"]:
        return t("status.auto_no_server")
    if llm["embedding_pick"]:
        return t("status.auto_pick", model=llm["embedding_pick"])
    return t("status.auto_none")


def gather_status(settings: Settings, store: Store | None = None) -> dict[str, Any]:
    """LM Studio (reachable, models), the embedding setting, Qdrant (backend, collections).

    Never includes an API key. Failures are reported in the `error` fields, never raised.
    """
    llm = llm_status(settings)
    return {
        "llm": llm,
        "embeddings": {
            "url": strip_userinfo(settings.embed_url),
            "model": settings.embed_model or "auto",
            "choice": embedding_choice(settings, llm),
        },
        "qdrant": store_status(settings, store),
        "default_collection": settings.collection,
        # Whether sign-ins survive a restart; never the key itself.
        "session_key": inspect_session_key(settings.data_dir),
        "sign_outs": RevocationFile(settings.data_dir).inspect(time.time()),
    }


def format_status(status: dict[str, Any]) -> str:
    lines: list[str] = []
    llm = status["llm"]
    if llm["reachable"]:
        lines.append(tn("status.llm_up", len(llm["models"]), url=llm["url"]))
        # Not loaded: with Just-In-Time loading, LM Studio loads it at its first request.
        not_loaded = {True: "status.not_loaded_on_demand", False: "status.not_loaded_by_hand"}.get(
            llm.get("loads_on_demand"), "status.not_loaded")
        for m in llm["models"]:
            state = t({True: "status.loaded", False: not_loaded, None: "status.state_unknown"}[m["loaded"]])
            ctx = t("status.context", n=m["context_length"]) if m.get("context_length") else ""
            lines.append(f"  - {m['id']} ({m.get('type') or t('status.unknown_type')}, {state}{ctx})")
    else:
        lines.append(t("status.llm_down", url=llm["url"]))
        if llm.get("error"):
            lines.append(f"  {llm['error']}")
    emb = status["embeddings"]
    lines.append(t("status.embeddings", choice=emb["choice"]))
    lines.extend(session_lines(status))
    q = status["qdrant"]
    where = t("status.embedded_at" if q["backend"] == "embedded" else "status.server_at", location=q["location"])
    if not q["reachable"]:
        lines.append(t("status.qdrant_down", where=where))
        if q.get("error"):
            lines.append(f"  {q['error']}")
        return "\n".join(lines)
    lines.append(tn("status.qdrant_up", len(q["collections"]), where=where))
    for c in q["collections"]:
        threshold = t("status.not_calibrated") if c.get("threshold") is None else decimal(c["threshold"], 3)
        default = t("status.default") if c["name"] == status.get("default_collection") else ""
        enriched = enrichment_words(built_mode(c))
        lines.append(t("status.collection", name=c["name"], default=default, points=integer(c["points"]),
                       model=c.get("embedding_model"), dimension=c.get("dimension"), strategy=c.get("strategy"),
                       enriched=enriched, threshold=threshold, updated=shown_time(c.get("updated"))))
    return "\n".join(lines)


_KEY_LINES = {"kept": "status.key_kept", "missing": "status.key_missing", "open_mode": "status.key_open"}


def session_lines(status: dict[str, Any]) -> list[str]:
    """The sign-in key and the saved sign-outs: whether sign-ins survive a restart, and what to
    do when they would not."""
    lines: list[str] = []
    key = status.get("session_key")
    if key:
        lines.append(t(_KEY_LINES.get(key["state"], "status.key_unusable"), path=key["path"]))
        if key.get("problem"):
            lines.append(f"  {key['problem']}")
    sign_outs = status.get("sign_outs")
    if sign_outs:
        if sign_outs.get("problem"):
            lines.append(sign_outs["problem"])
        elif sign_outs["in_force"]:
            lines.append(tn("status.sign_outs", sign_outs["in_force"], path=sign_outs["path"]))
    return lines
