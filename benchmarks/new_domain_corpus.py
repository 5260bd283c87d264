"""Build the new-domain corpus: GIMP's French user manual (Debian package gimp-help-fr, GFDL),
a domain the product was never designed from nor tuned on.

    apt-get install gimp-help-fr    # or: apt-get download gimp-help-fr && dpkg-deb -x *.deb root/
    .venv/bin/python benchmarks/new_domain_corpus.py [--help-dir DIR] OUT_DIR

Copies the tool, layer and selection pages (about 120 HTML pages) into OUT_DIR, which the
benchmarks read through the RAG_NEW_DOMAIN setting. The question set written on it is
benchmarks/data/gimp_fr.jsonl; it is measured, never fitted on (benchmarks/README.md, "The
answerability gate").
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

DEFAULT_HELP = Path("/usr/share/gimp/2.0/help/fr")
PATTERNS = ("gimp-tool-*.html", "gimp-layer*.html", "gimp-selection*.html")


def pages(help_dir: Path) -> list[Path]:
    return sorted({p for pattern in PATTERNS for p in help_dir.glob(pattern)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--help-dir", type=Path, default=DEFAULT_HELP)
    args = parser.parse_args(argv)
    found = pages(args.help_dir)
    if not found:
        raise SystemExit(f"No GIMP help pages in {args.help_dir}: install gimp-help-fr or pass --help-dir.")
    args.out.mkdir(parents=True, exist_ok=True)
    for page in found:
        shutil.copyfile(page, args.out / page.name)
    print(f"{len(found)} pages in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
