"""`rag preview FILE_OR_URL`: where each chunking strategy cuts a document. Nothing is indexed."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from rag.cli import Commands
from rag.cli.argparse_language import number, whole_number
from rag.chunking import DEFAULT_STRATEGY, STRATEGIES
from rag.chunking.base import Chunk
from rag.chunking.preview import ALL, chunkers, indexed_rows, preview
from rag.chunking._measure import UNITS
from rag.chunking._measure import CHARS_PER_TOKEN, estimate_tokens
from rag.chunking.token_cap import indexed_chunks
from rag.embeddings.curl import DEFAULT_URLS, TARGET_LMSTUDIO, TARGET_OLLAMA, TARGETS, curl_command, suggested_model
from rag.chunking.stats import first_line, summarize, warning_word, warnings_text
from rag.documents import Document
from rag.i18n import t, tn
from rag.i18n.numbers import decimal, integer
from rag.ingest.strategy_choice import settings_text
from rag.sources import load_one
from rag.sources.limits import DEFAULT_MAX_DOC_MB, MAX_DOC_MB_ENV, max_document_bytes


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "preview",
        help=t("help.preview"),
        description=t("help.preview.description"),
    )
    parser.add_argument("source", metavar="FILE_OR_URL")
    parser.add_argument(
        "--strategy",
        default=ALL,
        metavar="NAME",
        help=t("help.preview.strategy", names=", ".join(STRATEGIES), all=ALL),
    )
    parser.add_argument("--json", action="store_true", help=t("help.preview.json"))
    parser.add_argument("--chunk-size", type=whole_number, help=t("help.preview.chunk_size"))
    parser.add_argument("--overlap", type=whole_number, help=t("help.preview.overlap"))
    parser.add_argument("--min-size", type=whole_number, help=t("help.preview.min_size"))
    parser.add_argument("--max-size", type=whole_number, help=t("help.preview.max_size"))
    parser.add_argument("--unit", choices=UNITS, default=None, help=t("help.unit", chars=decimal(CHARS_PER_TOKEN, 1, trim=True)))
    parser.add_argument("--timeout", type=number, default=30.0, help=t("help.preview.timeout"))
    parser.add_argument("--max-doc-mb", metavar="MB", type=number, default=None,
                        help=t("help.preview.max_doc_mb", env=MAX_DOC_MB_ENV, mb=f"{DEFAULT_MAX_DOC_MB:g}"))
    parser.add_argument("--curl", nargs="?", const=TARGET_LMSTUDIO, choices=TARGETS, metavar="SERVER",
                        help=t("help.preview.curl", default=DEFAULT_STRATEGY))
    parser.add_argument("--model", metavar="ID",
                        help=t("help.preview.model"))
    parser.set_defaults(func=run)


def chunk_line(row: dict[str, Any]) -> str:
    """One chunk of the text preview: number, span, characters, tokens, first line, warnings and,
    for a piece of the model's window, the strategy's chunk it was cut from."""
    chunk = Chunk(**{k: row[k] for k in ("index", "start", "end", "text", "header", "heading_path", "warnings",
                                         "section")})
    flags = f"  [{', '.join(warning_word(w, chunk) for w in row['warnings'])}]" if row["warnings"] else ""
    tokens = ("~" if row["tokens_estimated"] else "") + str(row["tokens"])
    cut = "  " + t("preview.window_cut", n=row["window_cut_from"]) if row["window_cut_from"] is not None else ""
    return f"   #{row['index']:<4} {row['start']:>7}-{row['end']:<7} {row['chars']:>7} {tokens:>6}  {first_line(chunk)}{flags}{cut}"


def columns_line() -> str:
    """What chunk_line's columns are, above them."""
    span = t("preview.col_span")
    return (f"   {'#':<5} {span:^15} {t('preview.col_chars'):>7} {t('preview.col_tokens'):>6}  "
            f"{t('preview.col_first_line')}")


def render_text(document: Document, strategy: str = ALL, count: Callable[[str], int] | None = None,
                window: int | None = None, **given: Any) -> str:
    lines = [t("preview.document", title=document.title, url=document.url, n=len(document.markdown))]
    if count and count is not estimate_tokens and window:
        lines.append(t("preview.window", n=window))
    elif window:
        lines.append(t("preview.window_estimated", n=window, chars=decimal(CHARS_PER_TOKEN, 1, trim=True)))
    else:
        lines.append(t("preview.tokens_estimated", n=decimal(CHARS_PER_TOKEN, 1, trim=True)))
    for chunker in chunkers(strategy, given):
        rows = indexed_rows(chunker, document, count, window)
        chunks = [Chunk(**{k: r[k] for k in ("index", "start", "end", "text", "header", "heading_path",
                                             "warnings", "section")}) for r in rows]
        stats = summarize(chunks)
        settings = settings_text(chunker.settings())
        lines += [
            "",
            f"== {chunker.name} ({settings})",
            t("preview.stats", chunks=tn("preview.chunks", stats["chunks"]), min=integer(stats["min_chars"]),
              median=decimal(stats["median_chars"], 1, trim=True), max=integer(stats["max_chars"]),
              warnings=warnings_text(chunks)),
        ]
        cut = sum(1 for r in rows if r["window_cut_from"] is not None)
        if cut:
            lines.append(t("preview.window_cut_count", pieces=cut, n=window))
        lines += [columns_line(), *(chunk_line(r) for r in rows)]
    return "\n".join(lines)


def curl_text(document: Document, strategy: str, given: dict[str, Any], target: str, model: str | None) -> str:
    """The curl command embedding `document`'s chunks (one strategy's, as they are indexed: sizes
    in tokens and the window counted as ingestion counts them) on a local server."""
    from rag.config import Settings
    from rag.embeddings.resolve import preview_tokenizer

    settings = Settings.from_env()
    chunker = chunkers(DEFAULT_STRATEGY if strategy == ALL else strategy, given)[0]
    count, window = preview_tokenizer(settings)
    texts = [c.embedding_text for c, _ in indexed_chunks(chunker, document.markdown, document.title, count, window)]
    url = settings.embed_url if target == TARGET_LMSTUDIO else DEFAULT_URLS[TARGET_OLLAMA]
    return curl_command(texts, model or suggested_model(settings.embed_model), url, target)


def run(args: argparse.Namespace) -> int:
    given = {
        "chunk_size": args.chunk_size,
        "overlap": args.overlap,
        "min_size": args.min_size,
        "max_size": args.max_size,
        "unit": args.unit,
    }
    chunkers(args.strategy, given)  # a bad strategy or setting fails before any download
    document = load_one(args.source, timeout=args.timeout, max_bytes=max_document_bytes(args.max_doc_mb))
    if args.curl:
        print(curl_text(document, args.strategy, given, args.curl, args.model), end="")
        return 0
    from rag.config import Settings
    from rag.embeddings.resolve import preview_tokenizer

    count, window = preview_tokenizer(Settings.from_env())
    if args.json:
        json.dump(preview(document, args.strategy, count, window, **given), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        print(render_text(document, args.strategy, count, window, **given))
    return 0
