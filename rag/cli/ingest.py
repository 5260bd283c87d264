"""`rag ingest SOURCE`: index a WordPress site or a folder of Markdown/HTML files."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from rag.cli import Commands
from rag.cli.argparse_language import number, whole_number
from rag.i18n import t
from rag.i18n.numbers import decimal
from rag.chunking import DEFAULT_STRATEGY, STRATEGIES, setting_names
from rag.chunking._measure import CHARS_PER_TOKEN, UNITS
from rag.chunking.preview import chunkers
from rag.errors import ConfigError
from rag.config import Settings
from rag.environment import raw_from_env, secrets_from_env
from rag.embeddings.resolve import embedder_for_collection
from rag.enrich import MODES as ENRICH_MODES
from rag.enrich.auto import AUTO
from rag.enrich import enrichment_words, make_enricher, resolve_enrichment
from rag.enrich.auto import sectioned_count
from rag.ingest.run import ingest
from rag.ingest.strategy_choice import resolve_strategy, settings_text
from rag.ingest.progress import ProgressPrinter
from rag.redact import strip_userinfo
from rag.journal.recheck import recheck_refused
from rag.sources import is_url, open_source
from rag.sources.wordpress import WordPressSource
from rag.sources.limits import DEFAULT_MAX_DOC_MB, MAX_DOC_MB_ENV, max_document_bytes
from rag.sources.wordpress import KNOWN_TYPES, parse_types
from rag.store.store import Store


class _SiteListing:
    """A WordPress site's documents, with the post count once the first page told it (for ETA)."""

    def __init__(self, source: WordPressSource) -> None:
        self.source = source

    def __iter__(self):
        return iter(self.source.iter_documents())

    @property
    def total(self) -> int | None:
        return self.source.total_posts

    def prunable(self, payload: dict) -> bool:
        return self.source.may_prune(payload)

    @property
    def prune_restricted(self) -> str:
        """Why --prune kept documents this run did not list."""
        return t("ingest.prune_kept_site") if self.source.authenticated else t("ingest.prune_kept_private")


class _FolderListing(list):
    """A folder's documents; on --prune it removes only its own (and those of files indexed
    before documents carried their folder), never another folder's, site's or upload's."""

    def __init__(self, items, folder: str) -> None:
        super().__init__(items)
        self.origin = os.path.abspath(folder)

    def prunable(self, payload: dict) -> bool:
        return payload.get("source") == "files" and payload.get("origin") in (self.origin, None)

    @property
    def prune_restricted(self) -> str:
        return t("ingest.prune_kept_folder")


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "ingest",
        help=t("help.ingest"),
        description=t("help.ingest.description"),
    )
    parser.add_argument("source", metavar="SOURCE", help=t("help.ingest.source"))
    parser.add_argument("--collection", metavar="C", help=t("help.ingest.collection"))
    parser.add_argument("--strategy", metavar="S", default=None, choices=sorted(STRATEGIES),
                        help=t("help.ingest.strategy", names=", ".join(sorted(STRATEGIES)), default=DEFAULT_STRATEGY))
    parser.add_argument("--enrich", metavar="MODE", default=None, choices=ENRICH_MODES,
                        help=t("help.ingest.enrich"))
    parser.add_argument("--full", action="store_true",
                        help=t("help.ingest.full"))
    parser.add_argument("--prune", action="store_true",
                        help=t("help.ingest.prune"))
    parser.add_argument("--replace", action="store_true",
                        help=t("help.ingest.replace"))
    parser.add_argument("--access", metavar="GROUP", nargs="+",
                        help=t("help.ingest.access"))
    parser.add_argument("--max-doc-mb", metavar="MB", type=number, default=None,
                        help=t("help.ingest.max_doc_mb", env=MAX_DOC_MB_ENV, mb=f"{DEFAULT_MAX_DOC_MB:g}"))
    parser.add_argument("--user", metavar="NAME", default=None,
                        help=t("help.ingest.user"))
    parser.add_argument("--app-password", metavar="PASSWORD", default=None,
                        help=t("help.ingest.app_password"))
    parser.add_argument("--types", default="posts", metavar="TYPES",
                        help=t("help.ingest.types", types=", ".join(KNOWN_TYPES)))
    parser.add_argument("--json", action="store_true", help=t("help.ingest.json"))
    sizes = parser.add_argument_group(t("cli.section", title=t("help.ingest.sizes")), t("help.ingest.sizes_description"))
    sizes.add_argument("--chunk-size", type=whole_number, metavar="N", help=t("help.ingest.chunk_size"))
    sizes.add_argument("--overlap", type=whole_number, metavar="N",
                       help=t("help.ingest.overlap"))
    sizes.add_argument("--min-size", type=whole_number, metavar="N", help=t("help.ingest.min_size"))
    sizes.add_argument("--max-size", type=whole_number, metavar="N",
                       help=t("help.ingest.max_size"))
    sizes.add_argument("--unit", choices=UNITS, default=None, help=t("help.unit", chars=decimal(CHARS_PER_TOKEN, 1, trim=True)))
    parser.set_defaults(func=run)


SIZE_FLAGS = {"chunk_size": "--chunk-size", "overlap": "--overlap", "min_size": "--min-size", "max_size": "--max-size",
              "unit": "--unit"}


def chunk_settings(strategy: str, args: argparse.Namespace) -> dict | None:
    """The settings given on the command line for `strategy`, over its defaults (None: none given).

    A flag the strategy does not use is an error, not a silent no-op: the run would not be the
    experiment the user asked for.
    """
    given = {name: getattr(args, name, None) for name in SIZE_FLAGS}
    if all(v is None for v in given.values()):
        return None
    used = setting_names(strategy)
    ignored = [SIZE_FLAGS[n] for n, v in given.items() if v is not None and n not in used]
    if ignored:
        raise ConfigError(t("ingest.flag_unused", flags=", ".join(ignored), strategy=strategy,
                              used=", ".join(SIZE_FLAGS[n] for n in used)))
    return chunkers(strategy, given)[0].settings()


def _source_options(args: argparse.Namespace) -> dict:
    options: dict = {"max_bytes": max_document_bytes(args.max_doc_mb)}
    if args.access:
        options["default_access"] = list(args.access)
    read = raw_from_env()
    password = args.app_password or secrets_from_env()["wp_app_password"]
    user = args.user or read["wp_user"]
    if user:
        options["username"] = user
    if password:
        options["app_password"] = password
    return options


def _folder_of(source: str) -> str:
    """The folder a path source's documents come from (the file's own for one file)."""
    path = Path(source).expanduser()
    return str(path if path.is_dir() else path.parent)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    collection = args.collection or settings.collection
    store = Store(settings)  # first: a locked embedded store fails before any model loads
    info = None if args.full else store.collection_info(collection)
    strategy, _ = resolve_strategy(info, args.strategy, None, args.full)
    settings_given = chunk_settings(strategy, args)
    # Settings given: name the strategy, so a collection built otherwise is refused, not mixed.
    resolve_strategy(info, strategy if settings_given else args.strategy, settings_given, args.full)
    mode = resolve_enrichment(info, args.enrich, args.full)
    enricher = make_enricher(mode, settings)  # a model mode without a chat model stops here
    embedder, sentence = embedder_for_collection(settings, info)
    print(sentence, file=sys.stderr, flush=True)
    shown = strategy + (f" ({settings_text(settings_given)})" if settings_given else "")
    enriched = (t("ingest.enriched_by", mode=mode, model=enricher.model) if enricher.model
                else enrichment_words(mode))
    print(t("ingest.indexing", source=strip_userinfo(args.source), name=repr(collection), store=store.describe(),
            strategy=shown, enriched=enriched), file=sys.stderr, flush=True)
    options = _source_options(args)
    if is_url(args.source):
        items = _SiteListing(WordPressSource(
            args.source, username=options.get("username"), app_password=options.get("app_password"),
            timeout=min(settings.timeout, 30.0), max_bytes=options["max_bytes"], types=parse_types(args.types),
        ))
    else:
        items = _FolderListing(open_source(args.source, **options), _folder_of(args.source))  # listed first: known total
        if mode == AUTO:  # said before a long run: which documents will get a context
            print(t("enrich.auto_plan", k=sectioned_count(items)[0], n=sectioned_count(items)[1]),
                  file=sys.stderr, flush=True)
    report = ingest(
        items, store, embedder, collection, strategy=strategy if settings_given else args.strategy,
        chunk_settings=settings_given, full=args.full, prune=args.prune, progress=ProgressPrinter(sys.stderr),
        enricher=enricher, replace=args.replace,
    )
    if report.ok and (report.new or report.changed):  # a new article may answer what was refused
        recheck_refused(settings, store, collection, embedder)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(report.summary())
    if report.aborted:
        return 2
    return 0 if report.ok else 1
