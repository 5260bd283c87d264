"""What a user would build instead of the product: LangChain's RecursiveCharacterTextSplitter
1000/200 on the raw Markdown, the same bundled model, dense top-6 and a plain cosine threshold.

The peer's chunks are indexed through the product's own ingest and scored by the same
evaluation (same questions, same answer normalisation), so only the pipeline differs:
no context header, no token cap (the model truncates a long chunk silently, as it would for
the peer), no hybrid search, no passages grown by their neighbours, no gate but the cosine.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from _common import WrappingEmbedder

from rag.chunking.base import Chunk, Chunker

PEER_SIZE, PEER_OVERLAP = 1000, 200


class LangChainPeer(Chunker):
    """RecursiveCharacterTextSplitter(1000, 200) with its default separators; bodies only."""

    name = "recursive"  # the collection must carry a known strategy name; the settings say what ran

    def __init__(self) -> None:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        self.splitter = RecursiveCharacterTextSplitter(
            chunk_size=PEER_SIZE, chunk_overlap=PEER_OVERLAP, add_start_index=True)

    def settings(self) -> dict[str, Any]:
        return {"peer": "langchain_text_splitters.RecursiveCharacterTextSplitter",
                "chunk_size": PEER_SIZE, "overlap": PEER_OVERLAP}

    def chunk(self, markdown: str, title: str = "") -> list[Chunk]:
        chunks = []
        for doc in self.splitter.create_documents([markdown]):
            text = doc.page_content
            start = doc.metadata.get("start_index", -1)
            if start < 0 or markdown[start:start + len(text)] != text:
                start = markdown.find(text)  # the splitter strips pieces; find the exact slice
            chunks.append(Chunk(index=len(chunks), start=start, end=start + len(text), text=text))
        return chunks


class Uncapped(WrappingEmbedder):
    """The same model without its tokenizer: ingestion does not re-cut the peer's chunks."""

    @property
    def max_tokens(self) -> int | None:
        return None

    @property
    def token_count(self):
        return None

    @property
    def dimension(self) -> int:  # type: ignore[override]
        return self.inner.dimension

    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        return self.inner.embed_documents(texts, labels=labels)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


@contextmanager
def peer_chunker() -> Iterator[None]:
    """Ingest with the peer's splitter instead of the named strategy's chunker."""
    from unittest import mock

    with mock.patch("rag.ingest.run.make_chunker", lambda *a, **k: LangChainPeer()):
        yield
