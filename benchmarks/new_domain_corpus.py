"""Build a new-domain corpus: a manual the product was never designed from nor tuned on.

    .venv/bin/python benchmarks/new_domain_corpus.py \
        [--domain gimp|kicad|lilypond|sqlite|debian-reference|libreoffice|gnome|eyes17|scilab] \
        [--help-dir DIR] OUT_DIR

Copies the selected HTML pages into OUT_DIR (for kicad, sqlite's longest pages and the Debian
reference, cuts them up; for gnome, converts its Mallard pages to HTML; for eyes17, cuts its EPUB
into pages; for scilab, reads them in its JavaHelp jar and strips them to their content), which the
benchmarks read through the RAG_NEW_DOMAIN settings. Each domain has its help folder (the Debian
package's, or --help-dir), its selection of pages and its question set, which names a page by the
file name it is copied under; the sets are measured, never fitted on (benchmarks/README.md, "The
answerability gate").

- gimp (the default): GIMP's French user manual, Debian package gimp-help-fr (GFDL), from
  /usr/share/gimp/2.0/help/fr: the tool, layer and selection pages (about 120), copied under their
  own names (gimp-tool-measure.html). Questions: benchmarks/data/gimp_fr.jsonl.
- lilypond: LilyPond's French manuals, Debian package lilypond-doc-html-fr (2.24, GFDL), from
  /usr/share/doc/lilypond/html/Documentation: the listed pages (LILYPOND_PAGES, 124) of the Learning
  manual (learning/) and the Notation reference (notation/) on pitches, rhythms, clefs, keys and
  time signatures, articulations and dynamics, repeats, voices, staves, lyrics and vocal music,
  chords, fretted strings, MIDI output, titles, page layout and spacing. Each is copied under its
  own name (writing-pitches.fr.html); a name both manuals use is prefixed with its manual's folder
  and a hyphen (learning-contexts-explained.fr.html, notation-contexts-explained.fr.html). The
  site's navigation frame (`<div id="tocframe">`, the whole manual's table of contents, about 2,500
  words on every page) is left out: it is the site's chrome, not the page, and would make every
  page hold every chapter's title. Questions: benchmarks/data/lilypond_fr.jsonl.
- kicad: KiCad's French manuals, Debian package kicad-doc-fr (6.0, GPL-3+ or CC-BY-3+), from
  /usr/share/doc/kicad/help/fr: the schematic editor (eeschema), the PCB editor (pcbnew), Getting
  started (getting_started_in_kicad), the project manager (kicad) and the drawing sheet editor
  (pl_editor), one large HTML page each, partly left in English by the translators. Each top-level
  section (h2) becomes a page; one longer than KICAD_SPLIT_WORDS becomes one page per subsection
  (h3), plus one for its text before the first subsection. A page is a small HTML file titled
  "<manual> — <section>[ — <subsection>]" and named "<manual>-<ASCII slug of those titles>.html"
  (pcbnew-editing-a-board-routing-tracks.html). Left out: the header (title, table of contents),
  the preamble (copyright, contributors), the footer, the "TODO: write this section" notes, and the
  pages left with fewer than KICAD_MIN_WORDS words (133 pages remain).
  Questions: benchmarks/data/kicad_fr.jsonl.
- sqlite: SQLite's documentation, in English, Debian package sqlite3-doc (3.40, public domain), from
  /usr/share/doc/sqlite3: the listed pages (SQLITE_PAGES, 100) on the SQL language, functions and
  JSON, datatypes and tables, foreign keys, transactions, WAL and locking, files and URIs, the query
  planner, the command-line shell, FTS5 and other extensions, and what SQLite is for; left out: the
  release notes and news, download, index and cross-reference pages, the C API reference (c3ref/)
  and the pages without prose. Each page is copied under its own name (lang_upsert.html) without
  the site's header (logo, menu and search box, on every page), scripts and "last modified"
  footer. A page longer than SQLITE_SPLIT_WORDS is cut like kicad's manuals (titled
  "<page> — <section>", named "<page>-<slug of the section>.html"): cli.html and fts5.html into
  their top-level sections (h1, without the table of contents before them), pragma.html, one list
  of 74 PRAGMAs, into its introduction and its PRAGMAs grouped by topic (SQLITE_PRAGMA_TOPICS,
  pragma-journal-wal-and-locking.html); sections with fewer than SQLITE_MIN_WORDS words are left
  out (138 pages remain). The questions are in French: benchmarks/data/sqlite_fr.jsonl.
- debian-reference: the Debian reference in French, Debian package debian-reference-fr (2.100,
  GPL-2+), from /usr/share/debian-reference: its twelve chapters (ch01.fr.html to ch12.fr.html: the
  shell and files, package management, boot, authentication, network setup and applications, the
  X Window System and i18n, system tips, data management and conversion, programming). Each
  section (h2) becomes a page; one longer than DEBIAN_REFERENCE_SPLIT_WORDS becomes one page per
  subsection (h3), plus one for its text before the first subsection. A page is titled
  "<chapter> — <section>[ — <subsection>]" and named "<chapter file>-<slug of its numbered title>.html"
  (ch02-2-6-recuperer-un-systeme-casse.html); pages with fewer than DEBIAN_REFERENCE_MIN_WORDS words
  are left out (262 pages remain). Questions: benchmarks/data/debian_reference_fr.jsonl.
- libreoffice: LibreOffice's French help, Debian package libreoffice-help-fr (7.4, MPL-2.0), from
  /usr/share/libreoffice/help/fr/text: the how-to guides of Calc and Writer (scalc/guide/ and
  swriter/guide/, without their tables of contents, main.html), each page's text (div#DisplayArea)
  without the help site's chrome (the header, module menu, index and search, the footer's debugging
  block) nor its related topics (links to other pages' titles), titled by its own title and named
  "<module>-<page>.html" (scalc-autofilter.html; 229 pages). Questions:
  benchmarks/data/libreoffice_fr.jsonl.
- gnome: GNOME's desktop help in French, Debian package gnome-user-docs (43, CC-BY-SA-3.0), from
  /usr/share/help/fr/gnome-help: its topic pages (Mallard XML, one task or explanation each, on the
  network, sound, displays, printing, files, accounts, power, keyboard and mouse, accessibility...),
  each converted to a small HTML page (title, sections, paragraphs, lists, steps, terms, tables,
  notes, code) named "<page id>.html" (net-wireless-connect.html). Left out: each page's info
  (credits, links, revisions, descriptions), its link lists, block images, the text meant for GNOME
  Classic, Ubuntu or a mobile target and the "install" buttons (Mallard conditionals), the guide
  pages, which list other pages, unless they hold GNOME_GUIDE_MIN_WORDS words of their own
  (files-search, printing-booklet, printing-envelopes), and the pages left with fewer than
  GNOME_MIN_WORDS words (253 pages remain). Inline markup (gui, key, cmd, file, app...) is kept as
  its text, a key sequence joined with "+" (Ctrl+Alt+T), a menu path with " ▸ "; an empty link
  becomes its target's title. Questions: benchmarks/data/gnome_fr.jsonl.
- eyes17: the French user manual of ExpEYES-17, a school physics and electronics lab kit and its
  software, Debian package eyes17-manuals-fr (5.1.2, GPL-3.0+), from /usr/share/doc/eyes17/fr: its
  EPUB (eyes17.epub, XHTML files read in its spine's order, about 17,000 words): the hardware, the
  installation and the main program, the experiments by menu (school, electronics, electricity and
  magnetism, sound, mechanics, others, I2C modules) and the Python calls. Each document's top-level
  section (an experiment, a section of the opening chapter) becomes a page titled "<chapter> —
  <section>" and named by the ASCII slug of its title (mesurer-une-tension.html); the book's
  introduction and the chapters' introductions (its first document, without its tables of
  contents) are pages too (experiences-scolaires.html). A section longer than EYES17_SPLIT_WORDS is
  cut like kicad's manuals into its text before the first subsection and its subsections
  (le-materiel-connexions-externes.html), the Python chapter's 25 short function calls grouped by
  topic (EYES17_PYTHON_TOPICS, programmer-expeyes-a-l-aide-de-python-numeriser-des-signaux.html).
  Pages are written as small HTML (headings, paragraphs, lists, tables, code); images are left out
  but a figure keeps its caption, and the equations drawn as images keep their LaTeX text
  alternative, written as text ("1 kΩ", "f0 = 1/(2π√LC)"). Left out: the credits (out of the
  spine's reading order), the navigation document, the index (empty), and the pages left with
  fewer than EYES17_MIN_WORDS words (86 pages remain). Questions: benchmarks/data/eyes17_fr.jsonl.
- scilab: Scilab's help in French, Debian package scilab-doc-fr (6.1.1, GPL-2+), from
  /usr/share/scilab/modules/helptools/jar: its JavaHelp jar (scilab_fr_FR_help.jar, read as a zip, or
  --help-dir holding it or its pages unzipped), 2,711 pages of which 2,471 reference pages (a
  function, operator, keyword, Xcos block or solver each), about 700 of them translated, the others
  left in English. Kept: the reference pages written in French, those whose paragraphs (without their
  code) hold a share of at least SCILAB_MIN_FRENCH French function words among the French and English
  ones (SCILAB_FRENCH_WORDS, SCILAB_ENGLISH_WORDS), with at least SCILAB_MIN_WORDS words in their
  paragraphs; left out: the pages that are not reference pages (the chapters' lists of pages, the
  release notes, the home page) and the chapter of Matlab emulation functions (SCILAB_LEFT_OUT:
  the 87 mtlb_* pages, one template repeated, and two helpers).
  Each page is copied under its own name (inv.html, MATDET.html) as small HTML: its title (<title>,
  <h1>), its purpose, then its sections (calling sequence, arguments, description, examples as pre,
  see also, history) without the site's chrome (the navigation bars above and below, with "Report an
  issue", the breadcrumb, the examples' "execute" and "edit" buttons), the in-page table of contents
  of the Xcos blocks' pages, images (an equation's keeps its text alternative) and the sections they
  leave empty ("Aperçu"), links kept as their text (270 pages remain: functions of most chapters,
  Xcos blocks and solvers). Questions: benchmarks/data/scilab_fr.jsonl.

    apt-get install gimp-help-fr kicad-doc-fr lilypond-doc-html-fr sqlite3-doc debian-reference-fr \
        libreoffice-help-fr gnome-user-docs eyes17-manuals-fr scilab-doc-fr
    # or: apt-get download PACKAGE && dpkg-deb -x *.deb root/, then --help-dir root/<its folder above>
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import unicodedata
from collections import Counter
from html import escape, unescape
from itertools import takewhile
from pathlib import Path
from typing import Any

GIMP_HELP = Path("/usr/share/gimp/2.0/help/fr")
GIMP_PATTERNS = ("gimp-tool-*.html", "gimp-layer*.html", "gimp-selection*.html")

LILYPOND_HELP = Path("/usr/share/doc/lilypond/html/Documentation")
# Page names without ".fr.html", by manual folder; chosen for their French prose (no index, table of
# contents, chapter page that only lists its sections, nor table of glyphs without text).
LILYPOND_PAGES = {
    "learning": (
        "simple-notation", "bar-lines-and-bar-checks", "pitches-and-key-signatures", "ties-and-slurs",
        "articulation-and-dynamics", "adding-text", "automatic-and-manual-beams",
        "advanced-rhythmic-commands", "multiple-notes-at-once", "music-expressions-explained",
        "multiple-staves", "staff-groups", "combining-notes-into-chords", "single-staff-polyphony",
        "setting-simple-songs", "aligning-lyrics-to-a-melody", "lyrics-to-multiple-staves",
        "organizing-pieces-with-variables", "adding-titles", "absolute-note-names",
        "after-the-tutorial", "introduction-to-the-lilypond-file-structure",
        "score-is-a-_0028single_0029-compound-musical-expression", "nesting-music-expressions",
        "structure-of-a-note-entry", "on-the-un_002dnestedness-of-brackets-and-ties",
        "i_0027m-hearing-voices", "explicitly-instantiating-voices", "voices-and-vocals",
        "contexts-explained", "creating-contexts", "soprano-and-cello",
        "four_002dpart-satb-vocal-score", "building-a-score-from-scratch",
        "saving-typing-with-variables-and-functions", "scores-and-parts", "vertical-spacing",
        "fixing-overlapping-notation", "moving-objects", "satb-template", "ssaattbb-template",
    ),
    "notation": (
        # pitches, clefs, keys
        "writing-pitches", "changing-multiple-pitches", "displaying-pitches", "note-heads",
        "clef-styles",
        # rhythms, time signatures, bars
        "writing-rhythms", "writing-rests", "displaying-rhythms", "beams", "bars",
        "special-rhythmic-concerns",
        # articulations, dynamics
        "expressive-marks-attached-to-notes", "expressive-marks-as-curves",
        "expressive-marks-as-lines", "list-of-articulations", "inside-the-staff", "outside-the-staff",
        "writing-text", "formatting-text",
        # repeats, voices, staves
        "repeats", "long-repeats", "short-repeats", "single-voice", "multiple-voices",
        "displaying-staves", "modifying-single-staves", "writing-parts", "contexts-explained",
        "common-notation-for-keyboards", "piano",
        # lyrics, vocal music
        "common-notation-for-vocal-music", "techniques-specific-to-lyrics", "stanzas", "songs",
        "choral", "opera-and-stage-musicals", "chants-psalms-and-hymns",
        # fretted strings, chords
        "common-notation-for-fretted-strings", "guitar", "banjo", "lute", "chord-mode",
        "displaying-chords", "figured-bass",
        # MIDI
        "creating-midi-output", "supported-notation-for-midi", "unsupported-notation-for-midi",
        "the-midi-block", "controlling-midi-dynamics", "using-midi-instruments",
        "using-repeats-with-midi", "midi-channel-mapping", "context-properties-for-midi-effects",
        "enhancing-midi-output",
        # scores, titles
        "structure-of-a-score", "multiple-scores-in-a-book", "creating-titles-headers-and-footers",
        "custom-titles-headers-and-footers",
        # page layout, spacing
        "spacing-issues", "the-paper-block", "paper-size-and-automatic-scaling",
        "fixed-vertical-spacing-paper-variables", "flexible-vertical-spacing-paper-variables",
        "horizontal-spacing-paper-variables", "other-paper-variables", "the-layout-block",
        "setting-the-staff-size", "line-breaking", "page-breaking",
        "flexible-vertical-spacing-within-systems", "explicit-staff-and-system-positioning",
        "vertical-collision-avoidance", "horizontal-spacing-overview", "new-spacing-section",
        "changing-horizontal-spacing-globally",
        "overview-of-object_002dspecific-horizontal-spacing-tweaks",
        "spacing-between-adjacent-non_002dmusical-items", "spacing-between-adjacent-columns",
        "line-width", "proportional-notation", "fitting-music-onto-fewer-pages", "displaying-spacing",
        "changing-spacing",
    ),
}


def gimp_pages(help_dir: Path) -> list[tuple[Path, str]]:
    found = sorted({p for pattern in GIMP_PATTERNS for p in help_dir.glob(pattern)})
    return [(page, page.name) for page in found]


def lilypond_pages(help_dir: Path) -> list[tuple[Path, str]]:
    """The listed pages and the names they are copied under: their own, or, for a name both
    manuals use, "<folder>-<name>". Stops if a listed page is missing (its questions would be)."""
    listed = [(folder, f"{stem}.fr.html") for folder, stems in LILYPOND_PAGES.items() for stem in stems]
    absent = [f"{folder}/{name}" for folder, name in listed if not (help_dir / folder / name).is_file()]
    if len(absent) == len(listed):
        return []
    if absent:
        raise SystemExit(f"{len(absent)} listed LilyPond pages missing in {help_dir}: {', '.join(absent)}")
    shared = {name for name, count in Counter(name for _, name in listed).items() if count > 1}
    return [(help_dir / folder / name, f"{folder}-{name}" if name in shared else name) for folder, name in listed]


KICAD_HELP = Path("/usr/share/doc/kicad/help/fr")
KICAD_MANUALS = ("eeschema", "pcbnew", "getting_started_in_kicad", "kicad", "pl_editor")
KICAD_SPLIT_WORDS = 1500  # a top-level section longer than this is cut into its subsections
KICAD_MIN_WORDS = 28  # fewer words than this: a heading and a sentence, not prose


def heading(tag) -> str:
    """A section's title without its number: "4.5. Routing tracks" -> "Routing tracks"."""
    return re.sub(r"^[\d.]+\s+", "", tag.get_text(" ", strip=True))


def slug(text: str) -> str:
    """"Éditeur de symboles" -> "editeur-de-symboles": ASCII, lower case, hyphens."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def listed(help_dir: Path, stems: tuple[str, ...], what: str) -> bool:
    """Whether help_dir holds the listed pages (False: none of them); stops when only some are there."""
    absent = [stem for stem in stems if not (help_dir / f"{stem}.html").is_file()]
    if absent and len(absent) < len(stems):
        raise SystemExit(f"{len(absent)} {what} missing in {help_dir}: {', '.join(absent)}")
    return not absent


def parsed(help_dir: Path, stems: tuple[str, ...], what: str) -> list[tuple[str, Any]]:
    """Each listed page of help_dir with its parsed HTML; none when help_dir holds none of them."""
    from bs4 import BeautifulSoup

    if not listed(help_dir, stems, what):
        return []
    return [(stem, BeautifulSoup((help_dir / f"{stem}.html").read_text(encoding="utf-8"), "html.parser"))
            for stem in stems]


def cut(section, body: list, sub_class: str, split_words: int, min_words: int) -> list[tuple[Any, list]]:
    """A manual's section as pages: the whole section, or, when it is longer than split_words, its
    text before the first subsection (`body`'s elements without `sub_class`) and each subsection;
    each as (the subsection, or None for the section's own text, its elements), without the parts
    of fewer than min_words words."""
    parts: list[tuple[Any, list]] = [(None, [section])]
    if len(section.get_text(" ").split()) > split_words:
        parts = [(None, [e for e in body if sub_class not in e.get("class", [])])]
        parts += [(e, [e]) for e in body if sub_class in e.get("class", [])]
    return [(sub, elements) for sub, elements in parts
            if len(" ".join(e.get_text(" ") for e in elements).split()) >= min_words]


def kicad_pages(help_dir: Path) -> list[tuple[str, str]]:
    """Each manual's sections, or a long section's subsections and introduction, each as a page
    (its HTML) with the file name it is written under. Stops if some manuals are missing."""
    found = []
    for manual, soup in parsed(help_dir, KICAD_MANUALS, "KiCad manuals"):
        for note in soup.select("div.admonitionblock"):
            if "TODO" in note.get_text():
                note.decompose()
        book = soup.h1.get_text(" ", strip=True)
        for section in soup.select("div.sect1"):
            chapter = heading(section.h2)
            inner = section.find("div", class_="sectionbody")
            body = [section.h2, *(inner.find_all(recursive=False) if inner else [])]
            for sub, elements in cut(section, body, "sect2", KICAD_SPLIT_WORDS, KICAD_MIN_WORDS):
                title = f"{book} — {chapter}" + (f" — {heading(sub.h3)}" if sub else "")
                name = f"{manual}-{slug(chapter + ' ' + (heading(sub.h3) if sub else ''))}.html"
                found.append((small_page(title, "\n".join(str(e) for e in elements)), name))
    return found


def small_page(title: str, content: str) -> str:
    """A section cut out of a manual, as an HTML page of its own."""
    head = f'<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n</head>\n'
    return f"{head}<body>\n{content}\n</body>\n</html>\n"


SQLITE_HELP = Path("/usr/share/doc/sqlite3")
# Page names without ".html"; chosen for their prose (no release notes, news, download, index, cross-
# reference, C API reference, nor page that is mostly a list or a sample report).
SQLITE_PAGES = (
    # the SQL language
    "lang_select", "lang_insert", "lang_update", "lang_delete", "lang_upsert", "lang_returning",
    "lang_with", "lang_expr", "lang_corefunc", "lang_aggfunc", "lang_datefunc", "lang_mathfunc",
    "windowfunctions", "json1", "printf", "lang_createtable", "lang_altertable", "lang_createindex",
    "lang_createview", "lang_createtrigger", "lang_createvtab", "lang_droptable", "lang_dropview",
    "lang_reindex", "lang_transaction", "lang_savepoint", "lang_conflict", "lang_attach", "lang_analyze",
    "lang_vacuum", "lang_explain", "lang_indexedby", "lang_naming", "lang_keywords", "lang_comment",
    "rowvalue", "nulls", "pragma",
    # tables, datatypes, constraints, indexes
    "datatype3", "stricttables", "flextypegood", "floatingpoint", "rowidtable", "withoutrowid", "autoinc",
    "gencol", "foreignkeys", "partialindex", "expridx", "schematab", "deterministic", "nulinstr",
    "invalidutf", "quirks", "omitted", "limits",
    # transactions, files, concurrency
    "wal", "lockingv3", "isolation", "tempfiles", "inmemorydb", "uri", "mmap", "sharedcache", "threadsafe",
    "psow", "howtocorrupt", "recovery", "useovernet", "pgszchng2016",
    # query planning
    "queryplanner", "queryplanner-ng", "eqp", "np1queryprob",
    # the command-line shell, tools and extensions
    "cli", "sqldiff", "dbhash", "sqlar", "zipfile", "csv", "series", "dbstat", "fts5", "rtree", "spellfix1",
    "loadext",
    # what SQLite is and is for
    "about", "whentouse", "different", "faq", "features", "quickstart", "serverless", "appfileformat",
    "fasterthanfs", "copyright", "versionnumbers", "lts", "security", "howtocompile",
)
# The site's header (logo, menu, search box), its scripts and the "last modified" footer.
SQLITE_CHROME = "body > div.nosearch, body > script, i:has(> a#mtimelink)"
SQLITE_SPLIT_WORDS = 8000  # a longer page is cut into its sections
SQLITE_MIN_WORDS = 50  # fewer: a heading and a sentence
# pragma.html's PRAGMAs (its sections), by topic.
SQLITE_PRAGMA_TOPICS = {
    "Schema and database information": (
        "table_info", "table_xinfo", "table_list", "index_info", "index_list", "index_xinfo",
        "foreign_key_list", "database_list", "collation_list", "function_list", "module_list", "pragma_list",
        "compile_options", "schema_version", "user_version", "application_id", "data_version",
        "writable_schema"),
    "Journal, WAL and locking": (
        "journal_mode", "journal_size_limit", "synchronous", "fullfsync", "checkpoint_fullfsync",
        "wal_autocheckpoint", "wal_checkpoint", "locking_mode", "busy_timeout", "read_uncommitted",
        "query_only"),
    "File, pages and vacuum": (
        "auto_vacuum", "incremental_vacuum", "page_size", "page_count", "max_page_count", "freelist_count",
        "encoding", "secure_delete", "legacy_file_format", "mmap_size"),
    "Cache, memory and temporary files": (
        "cache_size", "cache_spill", "default_cache_size", "temp_store", "temp_store_directory",
        "data_store_directory", "hard_heap_limit", "soft_heap_limit", "shrink_memory", "threads"),
    "Integrity, constraints and triggers": (
        "integrity_check", "quick_check", "cell_size_check", "foreign_keys", "foreign_key_check",
        "defer_foreign_keys", "ignore_check_constraints", "recursive_triggers", "trusted_schema",
        "legacy_alter_table"),
    "Query planning": (
        "analysis_limit", "optimize", "automatic_index", "case_sensitive_like", "reverse_unordered_selects",
        "stats"),
    "Deprecated and debugging": (
        "count_changes", "empty_result_callbacks", "full_column_names", "short_column_names", "parser_trace",
        "vdbe_addoptrace", "vdbe_debug", "vdbe_listing", "vdbe_trace"),
}


def words(html: str) -> int:
    """The number of words a reader sees (not those of the syntax diagrams' SVG)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup.select("svg, script, style"):
        hidden.decompose()
    return len(soup.get_text(" ").split())


def sqlite_sections(html: str) -> list[tuple[str, str]]:
    """A long page's sections, each a title and its HTML: its top-level sections (h1) or, for
    pragma.html (whose unclosed paragraphs nest each PRAGMA in the previous one), its introduction
    and its PRAGMAs by topic, cut out of the HTML text at their anchors."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    if headings := soup.select("div.fancy > h1"):
        return [(heading(h1), "".join(map(str, [h1, *takewhile(lambda e: e.name != "h1", h1.next_siblings)])))
                for h1 in headings]
    intro, *parts = re.split(r'(?=<a name="pragma_)', html)
    found = {re.match(r'<a name="pragma_(\w+)"', part)[1]: part for part in parts}
    listed = [name for names in SQLITE_PRAGMA_TOPICS.values() for name in names]
    if sorted(found) != sorted(listed):
        raise SystemExit(f"PRAGMAs not in SQLITE_PRAGMA_TOPICS or missing: {sorted(set(found) ^ set(listed))}")
    return [(heading(soup.h1), intro.split("<body>", 1)[1])] + [
        (topic, "".join(found[name] for name in names)) for topic, names in SQLITE_PRAGMA_TOPICS.items()]


def sqlite_pages(help_dir: Path) -> list[tuple[str, str]]:
    """The listed pages without the site's chrome, or a long one's sections, each as a page (its
    HTML) with the file name it is written under. Stops if a listed page is missing."""
    from bs4 import BeautifulSoup

    if not listed(help_dir, SQLITE_PAGES, "listed SQLite pages"):
        return []
    found = []
    for stem in SQLITE_PAGES:
        html = without_navigation((help_dir / f"{stem}.html").read_text(encoding="utf-8"), SQLITE_CHROME)
        if words(html) <= SQLITE_SPLIT_WORDS:
            found.append((html, f"{stem}.html"))
            continue
        title = BeautifulSoup(html, "html.parser").title.get_text(strip=True)
        for section, content in sqlite_sections(html):
            if words(content) >= SQLITE_MIN_WORDS:
                page = str(BeautifulSoup(small_page(f"{title} — {section}", content), "html.parser"))
                found.append((page, f"{stem}-{slug(section)}.html"))
    return found


DEBIAN_REFERENCE_HELP = Path("/usr/share/debian-reference")
DEBIAN_REFERENCE_CHAPTERS = tuple(f"ch{n:02d}.fr" for n in range(1, 13))
DEBIAN_REFERENCE_SPLIT_WORDS = 1500  # a section longer than this is cut into its subsections
DEBIAN_REFERENCE_MIN_WORDS = 40  # fewer: a heading and a sentence


def debian_reference_pages(help_dir: Path) -> list[tuple[str, str]]:
    """Each chapter's sections, or a long section's subsections and introduction, each as a page
    (its HTML) with the file name it is written under. Stops if some chapters are missing."""
    found = []
    for stem, soup in parsed(help_dir, DEBIAN_REFERENCE_CHAPTERS, "Debian reference chapters"):
        chapter = soup.select_one("div.chapter")
        book = chapter.h1.get_text(" ", strip=True)
        for section in chapter.find_all("div", class_="section", recursive=False):
            body = section.find_all(recursive=False)
            for sub, elements in cut(section, body, "section", DEBIAN_REFERENCE_SPLIT_WORDS, DEBIAN_REFERENCE_MIN_WORDS):
                title = f"{book} — {heading(section.h2)}" + (f" — {heading(sub.h3)}" if sub else "")
                # its numbered title: "2.6. Récupérer un système cassé" -> "ch02-2-6-recuperer-un-systeme-casse.html"
                numbered = (sub.h3 if sub else section.h2).get_text(" ", strip=True)
                found.append((small_page(title, "\n".join(str(e) for e in elements)), f"{stem[:4]}-{slug(numbered)}.html"))
    return found


LIBREOFFICE_HELP = Path("/usr/share/libreoffice/help/fr/text")
LIBREOFFICE_GUIDES = ("scalc", "swriter")  # the modules whose guide/ pages are copied
# The help site's chrome around a page: its header, module menu, index and search, and the footer's
# debugging block; a page's "related topics" are links to other pages' titles.
LIBREOFFICE_CHROME = "div.relatedtopics, a[name=relatedtopics], meta, div#SearchFrame, div#DonationFrame"


def libreoffice_pages(help_dir: Path) -> list[tuple[str, str]]:
    """Calc's and Writer's how-to pages (guide/), each without the site's chrome, named
    "<module>-<page>.html"; the guides' tables of contents (main.html) are left out."""
    from bs4 import BeautifulSoup

    found = []
    for module in LIBREOFFICE_GUIDES:
        for path in sorted((help_dir / module / "guide").glob("*.html")):
            if path.stem == "main":
                continue
            soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
            area = soup.select_one("div#DisplayArea")
            if area is None:
                continue
            for chrome in area.select(LIBREOFFICE_CHROME):
                chrome.decompose()
            title = soup.title.get_text(" ", strip=True) if soup.title else path.stem
            found.append((small_page(title, str(area)), f"{module}-{path.stem}.html"))
    return found


GNOME_HELP = Path("/usr/share/help/fr/gnome-help")
MALLARD = "{http://projectmallard.org/1.0/}"
MALLARD_IF = "{http://projectmallard.org/if/1.0/}"
GNOME_MIN_WORDS = 40  # fewer: a title and a sentence
GNOME_GUIDE_MIN_WORDS = 100  # a guide page (a list of links) with fewer words of its own only introduces them
# Inline elements kept as their text; a key sequence's keys are joined with "+", a menu path's
# items with " ▸ " (as Yelp shows them).
MALLARD_INLINE = {"app", "cmd", "code", "em", "file", "gui", "guiseq", "hi", "input", "key", "keyseq", "link",
                  "media", "output", "span", "sys", "var"}
MALLARD_SKIPPED = {"info", "links", "title", "subtitle", "desc"}  # a block's own title is its heading


def mallard_shown(test: str | None) -> bool:
    """Whether a conditional test holds on the plain GNOME desktop (not GNOME Classic, Ubuntu, a mobile
    target, nor a help viewer that installs packages): "," separates alternatives, " " conditions."""
    if test is None:
        return True
    return any(all(token.startswith("!") for token in alternative.split()) for alternative in test.split(","))


def mallard_children(el) -> list:
    """The children of el the plain GNOME desktop shows: an if:choose's first shown if:when (else its
    if:else or its other children), an if:if's content when its test holds; none of another namespace."""
    shown = []
    for child in el:
        if not isinstance(child.tag, str):
            continue  # a comment or processing instruction
        if not mallard_shown(child.get(f"{MALLARD_IF}test")):
            continue
        if child.tag == f"{MALLARD_IF}choose":
            branches = [c for c in child if c.tag == f"{MALLARD_IF}when"]
            chosen = next((b for b in branches if mallard_shown(b.get("test"))), None)
            if chosen is None:
                fallback = [c for c in child if c.tag == f"{MALLARD_IF}else"]
                chosen = fallback[0] if fallback else [c for c in child if c.tag.startswith(MALLARD)]
            shown += mallard_children(chosen) if not isinstance(chosen, list) else chosen
        elif child.tag == f"{MALLARD_IF}if":
            shown += mallard_children(child) if mallard_shown(child.get("test")) else []
        elif child.tag.startswith(MALLARD):
            shown.append(child)
    return shown


def mallard_text(el, titles: dict[str, str]) -> str:
    """An inline element's text (HTML-escaped): a key sequence joined with "+", a menu path with " ▸ ",
    an empty link as its target's title (or address), an image as its text alternative."""
    name = el.tag[len(MALLARD):]
    inline = [c for c in mallard_children(el) if c.tag[len(MALLARD):] in MALLARD_INLINE]
    parts = [mallard_text(c, titles) for c in inline]
    if name == "keyseq":  # its keys, and any text outside them ("<key>Ctrl</key>Touches fléchées")
        keys = [escape(el.text or ""), *(key for c, part in zip(inline, parts) for key in (part, escape(c.tail or "")))]
        return "+".join(key.strip() for key in keys if key.strip())
    if name == "guiseq":
        return " ▸ ".join(part.strip() for part in parts)
    text = escape(el.text or "") + "".join(part + escape(c.tail or "") for c, part in zip(inline, parts))
    if name == "link" and not text.strip():
        target = el.get("xref") or ""
        return escape(titles.get(target) or titles.get(target.split("#")[0]) or el.get("href") or "")
    return text


def mallard_heading(el, titles: dict[str, str]) -> str:
    """A page's or section's title, followed by its subtitle if it has one ("Dépannage du réseau sans
    fil — Collecte d’informations sur votre matériel réseau")."""
    parts = [el.find(f"{MALLARD}title"), el.find(f"{MALLARD}subtitle")]
    return " — ".join(" ".join(mallard_text(part, titles).split()) for part in parts if part is not None)


def mallard_caption(el, titles: dict[str, str]) -> str:
    """A block's title (else its description, a figure's caption) as a paragraph, or ""."""
    caption = el.find(f"{MALLARD}title")
    if caption is None:
        caption = el.find(f"{MALLARD}desc")
    text = " ".join(mallard_text(caption, titles).split()) if caption is not None else ""
    return f"<p>{text}</p>" if text else ""


def mallard_included(roots: dict) -> None:
    """Replaces each XInclude of an element of another page (xpointer: its xml:id, as keyboard-nav's
    rows of shell-keyboard-shortcuts' tables) by a copy of that element."""
    from copy import deepcopy

    include, xml_id = "{http://www.w3.org/2001/XInclude}include", "{http://www.w3.org/XML/1998/namespace}id"
    for root in roots.values():
        for parent in root.iter():
            for i, child in enumerate(parent):
                if child.tag == include and child.get("xpointer"):
                    source = roots[Path(child.get("href")).stem]
                    target = next(e for e in source.iter() if e.get(xml_id) == child.get("xpointer"))
                    parent[i] = deepcopy(target)
                    parent[i].tail = child.tail


def mallard_blocks(el, titles: dict[str, str], level: int) -> str:
    """A Mallard page's or section's content as simple HTML: its title as h<level>, its paragraphs,
    lists, steps (ordered), terms (each title in bold), tables, notes and figures as paragraphs,
    code and screens as pre; sections one level down. Credits, links and block images are left out."""
    out = []
    if el.tag[len(MALLARD):] in ("page", "section") and el.find(f"{MALLARD}title") is not None:
        out.append(f"<h{level}>{mallard_heading(el, titles)}</h{level}>")
    for child in mallard_children(el):
        name = child.tag[len(MALLARD):]
        if name in MALLARD_SKIPPED or name == "media":
            continue
        if name == "section":
            out.append(mallard_blocks(child, titles, min(level + 1, 6)))
        elif name in ("code", "screen"):
            out.append(f"<pre>{escape(''.join(child.itertext()).strip())}</pre>")
        elif name == "p" or name in MALLARD_INLINE:
            text = " ".join(mallard_text(child, titles).split())
            if text:
                out.append(f"<p>{text}</p>")
        elif name in ("list", "steps", "terms"):
            out.append(mallard_caption(child, titles))
            tag = "ol" if name == "steps" or child.get("type") == "numbered" else "ul"
            out.append(f"<{tag}>")
            for item in [c for c in mallard_children(child) if c.tag == f"{MALLARD}item"]:
                term = item.find(f"{MALLARD}title")
                head = f"<p><strong>{' '.join(mallard_text(term, titles).split())}</strong></p>" if term is not None else ""
                out.append(f"<li>{head}{mallard_blocks(item, titles, level)}</li>")
            out.append(f"</{tag}>")
        elif name == "table":
            rows = [tr for tr in child.iter(f"{MALLARD}tr")]
            out.append(mallard_caption(child, titles))
            out.append("<table>" + "".join(
                "<tr>" + "".join(f"<td>{' '.join(mallard_blocks(td, titles, level).replace('<p>', ' ').replace('</p>', ' ').split())}</td>"
                                 for td in mallard_children(tr)) + "</tr>" for tr in rows) + "</table>")
        elif name in ("note", "figure", "example", "item", "div", "quote"):
            out.append(mallard_caption(child, titles))
            out.append(mallard_blocks(child, titles, level))
        else:
            raise SystemExit(f"Mallard element not converted: <{name}>")
    return "\n".join(part for part in out if part)


def gnome_pages(help_dir: Path) -> list[tuple[str, str]]:
    """GNOME's topic pages (Mallard), each as a small HTML page named "<page id>.html", without the
    pages of fewer than GNOME_MIN_WORDS words; the guide pages (lists of links to topics) are left out
    unless they hold GNOME_GUIDE_MIN_WORDS words of their own (printing-booklet, files-search)."""
    import xml.etree.ElementTree as ET

    roots = {path.stem: ET.parse(path).getroot() for path in sorted(help_dir.glob("*.page"))}
    mallard_included(roots)
    titles = {}
    for stem, root in roots.items():
        for el in (root, *root.iter(f"{MALLARD}section")):
            title = el.find(f"{MALLARD}title")
            if title is not None:
                titles[stem if el is root else f"{stem}#{el.get('id')}"] = " ".join("".join(title.itertext()).split())
    found = []
    for stem, root in roots.items():
        body = mallard_blocks(root, titles, 1)
        if words(body) >= (GNOME_GUIDE_MIN_WORDS if root.get("type") == "guide" else GNOME_MIN_WORDS):
            found.append((small_page(unescape(mallard_heading(root, titles)), body), f"{stem}.html"))
    return found


EYES17_HELP = Path("/usr/share/doc/eyes17/fr")
EYES17_SPLIT_WORDS = 500  # a section longer than this is cut into its subsections
EYES17_MIN_WORDS = 40  # fewer: a heading and a sentence
EYES17_LEFT_OUT = ("genindex.xhtml",)  # the index (a list of links, empty here)
EYES17_PYTHON = "programmer-expeyes-a-l-aide-de-python"  # the Python chapter's section id
# The Python chapter's function calls (its subsections, by id), each too short for a page, by topic.
EYES17_PYTHON_TOPICS = {
    "Établir la connexion": ("etablir-la-connexion",),
    "Tensions continues et sorties logiques": ("set-pv1-v-set-pv2-v", "set-state-sortie-valeur"),
    "Mesurer une tension, une résistance, une capacité": (
        "get-voltage-entree", "get-voltage-time-entree", "get-resistance", "get-capacitance", "get-version",
        "get-temperature"),
    "Signaux sinusoïdaux et carrés": (
        "set-sine-frequence", "set-sine-amp-amplitude", "set-sqr1-frequence", "set-sqr1-slow-frequence",
        "set-sqr2-frequence", "set-sqr1-frequence-rapportcyclique"),
    "Mesures de temps et de fréquence": (
        "get-freq-entree", "duty-cycle-entree", "r2ftime-entree1-entree2", "multi-r2rtime-entree-nbcycles"),
    "Numériser des signaux": (
        "select-range-canal-calibre", "capture1-entree-nbechantillons-intervalletemps",
        "capture2-nbechantillons-intervalletemps", "capture4-nbechantillons-intervalletemps"),
    "Formes de signal de WG": (
        "set-wave-frequence-typedesignal", "load-equation-fonction-intervalle", "load-table-table"),
}
# The equations drawn as images keep their LaTeX as alt text, written as text: "1~k\Omega" -> "1 kΩ".
EYES17_LATEX_SYMBOLS = {
    "Omega": "Ω", "mu": "µ", "pm": "±", "times": "×", "pi": "π", "epsilon": "ε", "theta": "θ",
    "omega": "ω", "lambda": "λ", "nu": "ν", "Delta": "Δ", "dots": "…", "cdot": "·", "Bigg": "",
}


def latex_term(term: str) -> str:
    """A fraction's, root's or exponent's term: as it is if a single token or already in brackets,
    else in brackets ("2l/3g" -> "(2l/3g)")."""
    term = term.strip()
    depth = [term[:i + 1].count("(") - term[:i + 1].count(")") for i in range(len(term))]
    if re.fullmatch(r"[\w.,µΩπ]+", term) or term.startswith("(") and 0 not in depth[:-1] and depth[-1] == 0:
        return term
    return f"({term})"


def latex_text(tex: str) -> str:
    """An equation's LaTeX as text: "\\frac{Rg}{10000}" -> "Rg/10000", "R_{1}" -> "R1", "10^{-12}" ->
    "10^(-12)", "\\sqrt{2l/3g}" -> "√(2l/3g)", "\\bar{WG}" -> "WG̅" (inverted), "~" and "\\ " -> a space."""
    text = re.sub(r"\\([A-Za-z]+)", lambda m: EYES17_LATEX_SYMBOLS.get(m[1], m[0]), tex)
    rules = (  # each on an innermost pair of braces, until none is left
        (r"\\(?:overline|bar)\{([^{}]*)\}", lambda m: m[1] + "\u0305"),
        (r"\\sqrt\{([^{}]*)\}", lambda m: "√" + latex_term(m[1])),
        (r"\\(sin|cos|tan|exp)\s*\{([^{}]*)\}", lambda m: f"{m[1]} {m[2]}"),
        (r"_\{([^{}]*)\}|_(\w)", lambda m: m[1] or m[2]),
        (r"\^\{([^{}]*)\}", lambda m: "^" + latex_term(m[1])),
        (r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}(\w?)",
         lambda m: f"{latex_term(m[1])}/{latex_term(m[2])}" + (f" {m[3]}" if m[3] else "")),
    )
    while True:
        done = text
        for pattern, written in rules:
            text = re.sub(pattern, written, text)
        if text == done:
            break
    text = re.sub(r"\\frac\s*\{([^{}]*)\}", r"\1/", text)  # a fraction left unbalanced in the source
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)  # the functions: \sin, \tan, \exp
    text = text.replace("\\ ", " ").replace("~", " ").replace("{", "").replace("}", "")
    return re.sub(r"µ (?=[A-Za-z])", "µ", " ".join(text.split()))


def epub_inline(el) -> str:
    """An inline element's text (HTML-escaped): an equation's image as its text, another image as nothing;
    an unrendered reStructuredText role (":math:"), bold ("**eyes17**") and LaTeX-escaped brackets ("{[}")
    as the source meant."""
    from bs4 import NavigableString

    if isinstance(el, NavigableString):
        text = re.sub(r"^\*\*(.+)\*\*$", r"\1", str(el))
    elif el.name == "img":
        text = latex_text(el.get("alt", "")) if "math" in el.get("class", []) else ""
    else:
        return "".join(epub_inline(child) for child in el.children)
    return escape(text.replace(":math:", " ").replace("{[}", "[").replace("{]}", "]"), quote=False)


def epub_heading(section) -> str:
    """A section's title, without its trailing colon ("Les sorties :" -> "Les sorties")."""
    return " ".join(unescape(epub_inline(section.find(re.compile(r"h[1-6]"), recursive=False))).split()).rstrip(" :")


def epub_blocks(children, level: int) -> str:
    """Elements of a Sphinx page as simple HTML: headings as h<level> (without their trailing colon),
    paragraphs, lists, definition lists (each term in bold), tables (without their rows of images only),
    code as pre, a figure as its caption and legend; a subsection's heading one level down. Left out:
    images, tables of contents (toctree) and the reStructuredText directives left as text ("..code-block::")."""
    from bs4 import NavigableString, Tag

    out = []
    for child in children:
        if not isinstance(child, Tag):
            text = " ".join(epub_inline(child).split()) if type(child) is NavigableString else ""
            out.append(f"<p>{text}</p>" if text else "")
            continue
        name, classes = child.name, child.get("class", [])
        if name == "section":
            out.append(epub_blocks(child.children, min(level + 1, 6)))
        elif re.fullmatch(r"h[1-6]", name):
            out.append(f"<h{level}>{' '.join(epub_inline(child).split()).rstrip(' :')}</h{level}>")
        elif name in ("p", "dt", "em", "strong", "code", "cite", "a", "span"):  # an empty span or link: an anchor
            text = " ".join(epub_inline(child).split())
            if text and not re.match(r"\.\. ?[\w-]+::", text):
                out.append(f"<p><strong>{text}</strong></p>" if name == "dt" else f"<p>{text}</p>")
        elif name in ("ul", "ol"):
            items = "".join(f"<li>{epub_blocks(li.children, level)}</li>" for li in child.find_all("li", recursive=False))
            out.append(f"<{name}>{items}</{name}>")
        elif name == "pre" or any(c.startswith("highlight") for c in classes):
            out.append(f"<pre>{epub_inline(child if name == 'pre' else child.find('pre')).strip()}</pre>")
        elif name == "table":
            rows = []
            for tr in child.find_all("tr"):
                cells = [" ".join(re.sub(r"</?p>", " ", epub_blocks(td.children, level)).split()) for td in tr.find_all(["td", "th"])]
                if any(cells):
                    rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
            out.append(f"<table>{''.join(rows)}</table>" if rows else "")
        elif name == "figure":
            caption, legend = child.find("span", class_="caption-text"), child.find("div", class_="legend")
            out.append(epub_blocks([caption] if caption else [], level))
            out.append(epub_blocks(legend.children, level) if legend else "")
        elif name in ("div", "blockquote", "dl", "dd") and "toctree-wrapper" not in classes:
            out.append(epub_blocks(child.children, level))
        elif name not in ("img", "div"):  # an image, a table of contents
            raise SystemExit(f"EPUB element not converted: <{name}>")
    return "\n".join(part for part in out if part)


def epub_spine(epub) -> list[str]:
    """The EPUB's documents in reading order (its package's spine), each once, without those out of the
    reading order (linear="no": here the credits) nor its navigation document."""
    import xml.etree.ElementTree as ET

    container = ET.fromstring(epub.read("META-INF/container.xml"))
    package_path = next(e.get("full-path") for e in container.iter() if e.tag.endswith("rootfile"))
    package = ET.fromstring(epub.read(package_path))
    folder = Path(package_path).parent
    items = {e.get("id"): e for e in package.iter() if e.tag.endswith("}item")}
    order = []
    for ref in (e for e in package.iter() if e.tag.endswith("}itemref")):
        item = items[ref.get("idref")]
        path = (folder / item.get("href")).as_posix()
        if ref.get("linear") != "no" and "nav" not in (item.get("properties") or "").split() and path not in order:
            order.append(path)
    return order


def eyes17_pages(help_dir: Path) -> list[tuple[str, str]]:
    """The book's introduction and its chapters' introductions (the first document's sections, without
    their tables of contents), then each document's top-level sections (an experiment, a chapter's
    section), each as a page titled "<chapter> — <section>" and named "<slug of its section>.html". A
    section longer than EYES17_SPLIT_WORDS becomes its text before the first subsection and one page per
    subsection ("<section> — <subsection>", "<slug>-<slug>.html"), the Python chapter's function calls
    grouped by EYES17_PYTHON_TOPICS; the pages of fewer than EYES17_MIN_WORDS words are left out."""
    import zipfile

    from bs4 import BeautifulSoup

    path = help_dir / "eyes17.epub"
    if not path.is_file():
        return []
    with zipfile.ZipFile(path) as epub:
        spine = [name for name in epub_spine(epub) if Path(name).name not in EYES17_LEFT_OUT]
        documents = [(name, BeautifulSoup(epub.read(name).decode("utf-8"), "html.parser")) for name in spine]

    def named(*titles: str) -> str:  # "Mesure ... d’un pendule" -> "mesure-...-d-un-pendule.html"
        return "-".join(slug(title.replace("’", " ").replace("'", " ")) for title in titles) + ".html"

    def content(section) -> list:  # a section's elements but its heading
        return [e for e in section.children if e is not section.find(re.compile(r"h[1-6]"), recursive=False)]

    parts = []  # (title, h1, its content's elements, file name)
    chapters = {}  # each document's chapter: the first document's section whose table of contents lists it
    root_name, root = documents[0]
    for section in root.select("div.body > section > section"):
        chapter = epub_heading(section)
        for link in section.select("div.toctree-wrapper a[href]"):
            chapters.setdefault((Path(root_name).parent / link["href"].split("#")[0]).as_posix(), chapter)
        parts.append((chapter, chapter, content(section), named(chapter)))
    for name, soup in documents[1:]:
        for section in soup.select("div.body > section"):
            title = epub_heading(section)
            full = f"{chapters[name]} — {title}" if name in chapters else title
            subsections = section.find_all("section", recursive=False)
            if words(str(section)) <= EYES17_SPLIT_WORDS or not subsections:
                parts.append((full, title, content(section), named(title)))
                continue
            parts.append((full, title, [e for e in content(section) if all(e is not sub for sub in subsections)], named(title)))
            if section.get("id") == EYES17_PYTHON:
                by_id = {sub.get("id"): sub for sub in subsections}
                listed = [sid for ids in EYES17_PYTHON_TOPICS.values() for sid in ids]
                if sorted(by_id) != sorted(listed):
                    raise SystemExit(f"Python calls not in EYES17_PYTHON_TOPICS or missing: {sorted(set(by_id) ^ set(listed))}")
                groups = [(topic, [by_id[sid] for sid in ids]) for topic, ids in EYES17_PYTHON_TOPICS.items()]
            else:
                groups = [(epub_heading(sub), content(sub)) for sub in subsections]
            for sub, elements in groups:
                parts.append((f"{full} — {sub}", f"{title} — {sub}", elements, named(title, sub)))
    found = []
    for title, h1, elements, name in parts:
        body = f"<h1>{escape(h1)}</h1>\n{epub_blocks(elements, 1)}"
        if words(body) >= EYES17_MIN_WORDS:
            found.append((small_page(title, body), name))
    return found


SCILAB_HELP = Path("/usr/share/scilab/modules/helptools/jar")
SCILAB_JAR = "scilab_fr_FR_help.jar"  # JavaHelp: its pages in scilab_fr_FR_help/, a page per function
SCILAB_MIN_WORDS = 120  # fewer words in its paragraphs: a one-line description and its arguments
# The least share of French among the function words of a page's paragraphs (without their code): a page
# left untranslated (the help falls back to the English page) has almost only English ones (0.2 at most),
# a translated one keeps some English in its blocks' dialog labels and Modelica parameters (0.67 and up);
# between them, two pages half translated (power 0.59, DLRADAPT_f 0.55) are left out.
SCILAB_MIN_FRENCH = 0.65
SCILAB_FRENCH_WORDS = frozenset(
    "le la les un une des du de et est sont en dans pour par sur avec au aux qui que ne pas ce cette ces "
    "il elle se sa son ses leur si ou mais plus".split())
SCILAB_ENGLISH_WORDS = frozenset(
    "the of and is are to for with which that this it be can not from or as its if when by an".split())
# Chapters left out (by their name in the page's breadcrumb): the Matlab emulation functions (mtlb_*),
# 87 pages of one template (and two helpers), which mfile2sci writes in converted code, "not for manual programming".
SCILAB_LEFT_OUT = ("Fonctions compatibles",)
# The site's chrome: navigation bars (top and bottom, with "Report an issue"), breadcrumb, line breaks,
# the examples' "execute" and "edit" buttons (images in the table around the code).
SCILAB_CHROME = "div.manualnavbar, span.path, br, a[href^='scilab:']"
SCILAB_NOTES = "div.note, div.warning, div.important, div.caution, div.tip"  # each in a table beside its icon
SCILAB_BLOCKS = ("p", "ul", "ol", "dl", "table", "pre", "div", "h2", "h3", "h4", "h5")


def scilab_jar_pages(help_dir: Path) -> dict[str, str]:
    """The help's HTML pages by file name: read from the jar (help_dir, or its SCILAB_JAR), else from
    help_dir holding them unzipped (or their folder, scilab_fr_FR_help/)."""
    import zipfile

    jar = help_dir if help_dir.is_file() else help_dir / SCILAB_JAR
    if jar.is_file():
        with zipfile.ZipFile(jar) as archive:
            return {Path(name).name: archive.read(name).decode("utf-8")
                    for name in archive.namelist() if name.endswith(".html")}
    folder = next((d for d in (help_dir / Path(SCILAB_JAR).stem, help_dir) if d.is_dir()), help_dir)
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.html"))}


def french_share(text: str) -> float:
    """The share of French among the function words (SCILAB_FRENCH_WORDS, SCILAB_ENGLISH_WORDS) of text."""
    tokens = re.findall(r"[a-zàâçéèêëîïôûùüÿœ]+", text.lower())
    french = sum(token in SCILAB_FRENCH_WORDS for token in tokens)
    english = sum(token in SCILAB_ENGLISH_WORDS for token in tokens)
    return french / (french + english) if french + english else 0.0


def scilab_clean(soup, name: str) -> None:
    """A reference page reduced to its content, in place: without the chrome (SCILAB_CHROME), the in-page
    table of contents (a section listing links to the page itself), images (an equation's keeps its text
    alternative) nor the sections they leave with a heading only; the examples and the calling sequence
    as plain pre, an admonition without its icon's table, links as their text, sections' headings one
    level up (h3 -> h2), no attributes, no empty element nor comment (some hide an example left out), the
    source's indentation as single spaces."""
    from bs4 import Comment

    for comment in soup.find_all(string=lambda text: isinstance(text, Comment)):
        comment.extract()
    for chrome in soup.select(SCILAB_CHROME):
        chrome.decompose()
    for section in soup.select("div.refsection"):
        items = section.find_all("li")
        if items and all([a.get("href", "").split("#")[0] for a in li.find_all("a")] == [name] and
                         li.get_text(" ", strip=True) == li.a.get_text(" ", strip=True) for li in items):
            section.decompose()
    for img in soup.find_all("img"):
        img.replace_with(f" {img['alt']} " if img.get("alt") else "")
    for section in soup.select("div.refsection"):  # left with its heading only (an image's: "Aperçu")
        title = section.find(re.compile(r"h[3-5]"))
        if title is not None and section.get_text(strip=True) == title.get_text(strip=True):
            section.decompose()
    for listing in soup.select("div.programlisting, div.synopsis, div.screen"):
        code = listing.find("pre")
        new = soup.new_tag("pre")
        new.string = code.get_text().strip("\n") if code else listing.get_text().strip("\n")
        listing.replace_with(new)
    for note in soup.select(SCILAB_NOTES):
        table = note.find_parent("table")
        note.name = "p"
        if table is not None and table.get_text(strip=True) == note.get_text(strip=True):
            table.replace_with(note)
    for tag in soup.find_all(["a", "span", "div", "font"]):
        tag.unwrap()
    for level in ("h3", "h4", "h5"):
        for h in soup.find_all(level):
            h.name = f"h{int(level[1]) - 1}"
    for p in soup.find_all("p"):
        if p.find(SCILAB_BLOCKS):  # a paragraph holding a list, a table...: a division
            p.name = "div"
    for tag in soup.find_all(True):
        tag.attrs = {}
    for tag in reversed(soup.find_all(True)):
        if not tag.get_text(strip=True):
            tag.decompose()
    soup.smooth()  # the strings left side by side by the unwrapped tags, as one
    for text in soup.find_all(string=True):  # the source's indentation: a space, a line between blocks
        if text.find_parent("pre") is None:
            spaced = re.sub(r"\s+", " ", text)
            text.replace_with("\n" if spaced == " " and text.parent.name in SCILAB_BLOCKS + ("body", "tr") else spaced)


def scilab_pages(help_dir: Path) -> list[tuple[str, str]]:
    """The help's reference pages (those with a name and purpose, h1.refname, not the chapters' lists
    of pages) written in French (a share of French function words of at least SCILAB_MIN_FRENCH in
    their paragraphs), with at least SCILAB_MIN_WORDS words in their paragraphs, outside the chapters
    SCILAB_LEFT_OUT; each cleaned (scilab_clean), titled by its own title and named by its file name."""
    from bs4 import BeautifulSoup

    found = []
    for name, html in sorted(scilab_jar_pages(help_dir).items()):
        soup = BeautifulSoup(html, "html.parser")
        refname, path = soup.select_one("div.refnamediv h1.refname"), soup.select_one("span.path")
        if refname is None or any(a.get_text(strip=True) in SCILAB_LEFT_OUT for a in (path.find_all("a") if path else [])):
            continue
        title = soup.title.get_text(" ", strip=True) if soup.title else refname.get_text(" ", strip=True)
        scilab_clean(soup.body, name)
        paragraphs = soup.body.find_all("p")
        prose = " ".join(text for p in paragraphs for text in p.find_all(string=True) if text.find_parent("code") is None)
        if sum(len(p.get_text(" ").split()) for p in paragraphs) < SCILAB_MIN_WORDS or french_share(prose) < SCILAB_MIN_FRENCH:
            continue
        found.append((small_page(title, soup.body.decode_contents().strip()), name))
    return found


DOMAINS = {
    "debian-reference": (DEBIAN_REFERENCE_HELP, "debian-reference-fr", debian_reference_pages),
    "eyes17": (EYES17_HELP, "eyes17-manuals-fr", eyes17_pages),
    "gimp": (GIMP_HELP, "gimp-help-fr", gimp_pages),
    "gnome": (GNOME_HELP, "gnome-user-docs", gnome_pages),
    "kicad": (KICAD_HELP, "kicad-doc-fr", kicad_pages),
    "libreoffice": (LIBREOFFICE_HELP, "libreoffice-help-fr", libreoffice_pages),
    "lilypond": (LILYPOND_HELP, "lilypond-doc-html-fr", lilypond_pages),
    "scilab": (SCILAB_HELP, "scilab-doc-fr", scilab_pages),
    "sqlite": (SQLITE_HELP, "sqlite3-doc", sqlite_pages),
}


def pages(help_dir: Path, domain: str = "gimp") -> list[tuple[Path | str, str]]:
    """The domain's pages in help_dir, each with the file name it is copied under: the file to copy
    or, for kicad, sqlite, debian-reference, libreoffice, gnome, eyes17 and scilab, the page's HTML (for
    kicad, debian-reference and eyes17, a section cut out of its manual; for gnome, converted from
    Mallard; for scilab, read in its jar)."""
    return DOMAINS[domain][2](help_dir)


def without_navigation(html: str, chrome: str = "div#tocframe") -> str:
    """The page without its navigation (by default LilyPond's frame, the manual's table of contents)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for frame in soup.select(chrome):
        frame.decompose()
    return str(soup)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--domain", choices=sorted(DOMAINS), default="gimp")
    parser.add_argument("--help-dir", type=Path, help="the manual's folder (default: the Debian package's)")
    args = parser.parse_args(argv)
    default_dir, package, _ = DOMAINS[args.domain]
    help_dir = args.help_dir or default_dir
    found = pages(help_dir, args.domain)
    if not found:
        raise SystemExit(f"No {args.domain} help pages in {help_dir}: install {package} or pass --help-dir.")
    names = [name for _, name in found]
    assert len(set(names)) == len(names), "two pages copied under one name"
    args.out.mkdir(parents=True, exist_ok=True)
    for page, name in found:
        if isinstance(page, str):
            (args.out / name).write_text(page, encoding="utf-8")
        elif args.domain == "lilypond":
            (args.out / name).write_text(without_navigation(page.read_text(encoding="utf-8")), encoding="utf-8")
        else:
            shutil.copyfile(page, args.out / name)
    print(f"{len(found)} pages in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
