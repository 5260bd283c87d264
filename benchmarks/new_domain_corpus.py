"""Build a new-domain corpus: a French manual the product was never designed from nor tuned on.

    .venv/bin/python benchmarks/new_domain_corpus.py [--domain gimp|kicad|lilypond] [--help-dir DIR] OUT_DIR

Copies the selected HTML pages into OUT_DIR (for kicad, cuts them out of the manuals), which the
benchmarks read through the RAG_NEW_DOMAIN setting. Each domain has its help folder (the Debian
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

    apt-get install gimp-help-fr kicad-doc-fr lilypond-doc-html-fr
    # or: apt-get download PACKAGE && dpkg-deb -x *.deb root/, then --help-dir root/<its folder above>
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import unicodedata
from collections import Counter
from html import escape
from pathlib import Path

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


def kicad_pages(help_dir: Path) -> list[tuple[str, str]]:
    """Each manual's sections, or a long section's subsections and introduction, each as a page
    (its HTML) with the file name it is written under. Stops if some manuals are missing."""
    from bs4 import BeautifulSoup

    absent = [m for m in KICAD_MANUALS if not (help_dir / f"{m}.html").is_file()]
    if len(absent) == len(KICAD_MANUALS):
        return []
    if absent:
        raise SystemExit(f"KiCad manuals missing in {help_dir}: {', '.join(absent)}")
    found = []
    for manual in KICAD_MANUALS:
        soup = BeautifulSoup((help_dir / f"{manual}.html").read_text(encoding="utf-8"), "html.parser")
        for note in soup.select("div.admonitionblock"):
            if "TODO" in note.get_text():
                note.decompose()
        book = soup.h1.get_text(" ", strip=True)
        for section in soup.select("div.sect1"):
            chapter = heading(section.h2)
            parts = [("", [section])]
            if len(section.get_text(" ").split()) > KICAD_SPLIT_WORDS:
                body = section.find("div", class_="sectionbody").find_all(recursive=False)
                parts = [("", [section.h2, *(e for e in body if "sect2" not in e.get("class", []))])]
                parts += [(heading(e.h3), [e]) for e in body if "sect2" in e.get("class", [])]
            for sub, elements in parts:
                if len(" ".join(e.get_text(" ") for e in elements).split()) < KICAD_MIN_WORDS:
                    continue
                title = escape(f"{book} — {chapter}" + (f" — {sub}" if sub else ""))
                content = "\n".join(str(e) for e in elements)
                page = f'<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n</head>\n'
                found.append((f"{page}<body>\n{content}\n</body>\n</html>\n", f"{manual}-{slug(chapter + ' ' + sub)}.html"))
    return found


DOMAINS = {
    "gimp": (GIMP_HELP, "gimp-help-fr", gimp_pages),
    "kicad": (KICAD_HELP, "kicad-doc-fr", kicad_pages),
    "lilypond": (LILYPOND_HELP, "lilypond-doc-html-fr", lilypond_pages),
}


def pages(help_dir: Path, domain: str = "gimp") -> list[tuple[Path | str, str]]:
    """The domain's pages in help_dir, each with the file name it is copied under: the file to copy
    or, for kicad, the HTML of the section cut out of its manual."""
    return DOMAINS[domain][2](help_dir)


def without_navigation(html: str) -> str:
    """The page without its navigation frame (the manual's table of contents)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for frame in soup.select("div#tocframe"):
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
