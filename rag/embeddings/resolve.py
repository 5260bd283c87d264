"""Pick the embedder the settings ask for, and say which and why."""

from __future__ import annotations

from typing import Callable, Mapping

from rag.i18n import t
from rag.config import Settings
from rag.embeddings.base import Embedder, tokenizer_and_window
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.embeddings.remote import OpenAIEmbedder, embedding_server
from rag.errors import EmbeddingError
from rag.redact import strip_userinfo
from rag.servers.models import LMSTUDIO

EMBEDDED = "embedded"
PROBE_TIMEOUT = 2.0  # auto mode: a server that does not answer this fast is taken as absent
PREVIEW_TIMEOUT = 10.0  # the preview asks a server model's window: a slow server leaves it unknown


def _api_key(settings: Settings) -> str | None:
    return settings.api_key_for(settings.embed_url)


def resolve_embedder(
    settings: Settings,
    expected_dimension: int | None = None,
    expected_model: str | None = None,
) -> tuple[Embedder, str]:
    """RAG_EMBED_MODEL: "embedded", a server model id, or unset (= the server's embedding model
    if it answers, else the embedded one). Returns the embedder and a sentence for the user.

    An explicit model with the server down is an error, never a silent switch: vectors of two
    models must not end up in one collection.
    """
    query_prefix, document_prefix = settings.query_prefix, settings.document_prefix
    choice = (settings.embed_model or "").strip()
    url = settings.embed_url
    shown = strip_userinfo(url)  # messages never show a password typed into the URL

    if choice.lower() == EMBEDDED:
        embedder = EmbeddedEmbedder(settings.embed_threads, expected_dimension, expected_model)
        return embedder, t("emb.using_setting", choice="embedded", what=embedder.describe())

    def remote(model: str | None, timeout: float) -> OpenAIEmbedder:
        return OpenAIEmbedder(
            url,
            model,
            api_key=_api_key(settings),
            timeout=timeout,
            query_prefix=query_prefix,
            document_prefix=document_prefix,
            expected_dimension=expected_dimension,
            expected_model=expected_model,
        )

    if choice:
        embedder = remote(choice, settings.timeout)
        try:
            _ = embedder.model_id  # asks the server: down -> a clear error now, not mid-ingestion
        except EmbeddingError as exc:
            embedder.close()
            raise EmbeddingError(t("emb.setting_failed", choice=choice, url=shown, error=exc)) from exc
        server = embedder.server
        known = [m.id for m in server.models]
        if server.kind == LMSTUDIO and choice not in known:
            embedder.close()
            names = ", ".join(m.id for m in server.embedding_models) or t("llm.none")
            raise EmbeddingError(t("emb.no_such_model", choice=choice, url=shown, names=names))
        return embedder, t("emb.using_setting", choice=choice, what=embedder.describe())

    try:
        # on_demand: whether an unloaded model will load at the first request decides what to say
        server = embedding_server(url, _api_key(settings), timeout=PROBE_TIMEOUT, on_demand=True)
    except EmbeddingError:
        fallback = EmbeddedEmbedder(settings.embed_threads, expected_dimension, expected_model)
        return fallback, t("emb.using_fallback", url=shown, what=fallback.describe())
    chosen = server.pick_embedding_model()
    if chosen is None:
        fallback = EmbeddedEmbedder(settings.embed_threads, expected_dimension, expected_model)
        return fallback, (
            t("emb.using_fallback_none", server=server.server_name, url=shown, what=fallback.describe())
        )
    embedder = remote(chosen.id, settings.timeout)
    embedder._server = server  # already asked; no second round trip
    state = ""
    if chosen.loaded is False:
        state = t("emb.not_loaded_by_hand", id=chosen.id) if server.loads_on_demand is False else t("emb.not_loaded_yet")
    return embedder, t("emb.using_server", server=server.server_name, url=shown, model=chosen.id, state=state)



def embedder_for_collection(
    settings: Settings,
    info: Mapping[str, object] | None,
    *,
    follow_collection: bool = False,
) -> tuple[Embedder, str]:
    """The embedder for an existing collection (`info` from Store.collection_info, or None).

    In auto mode (RAG_EMBED_MODEL unset), or with `follow_collection`, it is the model that built
    the collection: probing a server is pointless when the vectors came from another model. An
    explicit other model is kept, so that the store's model check names both.
    """
    info = info or {}
    model = info.get("embedding_model")
    dimension = info.get("dimension")
    expected_dimension = int(dimension) if isinstance(dimension, int) else None
    if isinstance(model, str) and model and (follow_collection or not settings.embed_model):
        from rag.embeddings.embedded import MODEL_ID as EMBEDDED_MODEL_ID

        choice = EMBEDDED if model == EMBEDDED_MODEL_ID else model
        if (settings.embed_model or "").strip() != choice:
            # The collection's model, not RAG_EMBED_MODEL: the sentence must not name a variable
            # the user never set.
            embedder, _ = resolve_embedder(settings.replace(embed_model=choice), expected_dimension=expected_dimension,
                                           expected_model=model)
            name = info.get("name")
            built = t("emb.built_named", name=repr(name)) if name else t("emb.built")
            return embedder, t("emb.built_with", built=built, model=model, what=embedder.describe())
    return resolve_embedder(
        settings,
        expected_dimension=expected_dimension,
        expected_model=model if isinstance(model, str) and model else None,
    )


def preview_tokenizer(settings: Settings) -> tuple[Callable[[str], int] | None, int | None]:
    """The tokenizer and window a preview counts and cuts chunks with, as ingestion will: the
    bundled model's, unless RAG_EMBED_MODEL names a server model: then the estimate
    (`estimate_tokens`) and the window the server says (None when it says none or does not
    answer: nothing is cut, and the preview says the counts are estimated)."""
    choice = (settings.embed_model or "").strip()
    if choice and choice.lower() != EMBEDDED:
        embedder = OpenAIEmbedder(settings.embed_url, choice, api_key=_api_key(settings),
                                  timeout=min(settings.timeout, PREVIEW_TIMEOUT))
        try:
            return tokenizer_and_window(embedder)
        finally:
            embedder.close()
    return tokenizer_and_window(EmbeddedEmbedder(threads=1))
