"""The message catalogues' upkeep: which keys the code uses, and pybabel's extract/update/compile.

    python scripts/messages.py update         # templates from the code, every .po updated, every .mo compiled
    python scripts/messages.py compile        # every .po compiled to its .mo (after editing a .po by hand)
    python scripts/messages.py template DIR   # DIR/rag.pot and DIR/ui.pot, for `pybabel init` of a new language

Message ids are keys (`cli.error`), so a template is what `pybabel extract -F babel.cfg` finds in
the calls `t("key")` and `tn("key", n)`, plus what it cannot find: keys the code holds in a
variable (`"cal.in_tied" if ties else "cal.in_below"`) and keys it builds at run time from one of
the DYNAMIC prefixes (`t(f"phase.{p.phase}")`), taken from the English catalogue. Without them
`pybabel update` would make those entries obsolete. tests/test_catalogues.py reads the same
functions: a catalogue entry no code uses fails there.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "rag" / "locale"
KEYWORDS = {"t": None, "tn": (1, 1)}  # pybabel's -k t -k tn:1,1
# Where each domain's calls are: rag's modules call rag.i18n.t, the dashboard's ui.i18n.t.
SOURCES = {"rag": ("rag",), "ui": ("ui", "app_pages", "streamlit_app.py")}
# Keys built at run time, by domain: the prefix each f-string (or `"prefix." + name`) starts with.
DYNAMIC = {
    "rag": ("journal.outcome.", "llm.runaway_", "llm.to_", "outcome.", "phase.", "warn.", "wshort."),
    "ui": ("cat.", "enr.", "eval.fr_reason.", "filter.", "ing.unit_option_", "metric.", "mode.", "role.", "src."),
}


def source_files(domain: str) -> list[Path]:
    files: list[Path] = []
    for name in SOURCES[domain]:
        path = ROOT / name
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


def literal_keys(domain: str) -> dict[str, bool]:
    """The keys the code of `domain` passes as a literal to t() (False) or tn() (True): what
    `pybabel extract -F babel.cfg` finds, read exactly (pybabel joins the two strings of
    `t("a" if x else "b")` into one)."""
    found: dict[str, bool] = {}
    for path in source_files(domain):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            first = node.args[0]
            if name in KEYWORDS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found[first.value] = found.get(first.value, False) or name == "tn"
    return found


def string_constants(domain: str) -> tuple[set[str], set[str]]:
    """Every string constant of the domain's code, and the literal start of every f-string."""
    constants: set[str] = set()
    starts: set[str] = set()
    for path in source_files(domain):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                starts.add(str(node.values[0].value))
    return constants, starts


def read_catalogue(domain: str, lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        return read_po(po, locale=lang, domain=domain)


def used_keys(domain: str) -> dict[str, bool]:
    """Every key the code of `domain` uses, with True for a plural: the literal ones, then those of
    the English catalogue held in a variable or built from a DYNAMIC prefix."""
    used = literal_keys(domain)
    constants, _ = string_constants(domain)
    for message in read_catalogue(domain, "en"):
        if message.id and message.string and message.id not in used:
            key = message.id[0] if message.pluralizable else message.id
            if key in constants or key.startswith(DYNAMIC[domain]):
                used[key] = message.pluralizable
    return used


def template(domain: str) -> Catalog:
    """The domain's template: every used key, its English text as the translators' comment."""
    english = {(m.id[0] if m.pluralizable else m.id): m for m in read_catalogue(domain, "en") if m.id}
    pot = Catalog(domain=domain, project="rag", fuzzy=False)
    for key, plural in used_keys(domain).items():
        text = english.get(key)
        comments = []
        if text is not None:
            strings = text.string if isinstance(text.string, tuple) else (text.string,)
            comments = [f"English: {' | '.join(strings)}"]
        pot.add((key, key) if plural else key, auto_comments=comments)
    return pot


def _header(catalog: Catalog, domain: str, lang: str) -> None:
    catalog.project, catalog.version = "rag", "0.1.0"
    catalog.msgid_bugs_address = ""
    catalog.language_team = catalog.last_translator = "rag"
    catalog.header_comment = (f"# The {lang} messages of rag, domain {domain}: message ids are keys, the French\n"
                              "# catalogue shows each key's English text as a comment. Upkeep: scripts/messages.py.\n#")


def compile_all() -> None:
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3], domain=po.stem)
        with po.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog)


def update() -> None:
    """pybabel update for each domain and language: new keys added (empty, for the translator),
    keys no code uses any more marked obsolete; then every catalogue compiled."""
    for domain in DYNAMIC:
        pot = template(domain)
        for po in sorted(LOCALE.glob(f"*/LC_MESSAGES/{domain}.po")):
            lang = po.parts[-3]
            catalog = read_catalogue(domain, lang)
            created = catalog.creation_date  # a date that changes at every run is noise in a diff
            catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False)
            new = [m.id for m in catalog if m.id and not all(m.string if isinstance(m.string, tuple) else (m.string,))]
            if catalog.obsolete or new:  # say it: a key built at run time may need its prefix in DYNAMIC
                print(f"{po.relative_to(ROOT)}: dropped {sorted(catalog.obsolete)}, to translate {new}")
            catalog.creation_date = created
            _header(catalog, domain, lang)
            for message in catalog:  # the English text is the template's comment, kept current
                if message.id and message.id in pot:
                    message.auto_comments = pot[message.id].auto_comments if po.parts[-3] != "en" else []
            with po.open("wb") as f:
                write_po(f, catalog, width=0, sort_output=False, include_lineno=False, include_previous=False,
                         ignore_obsolete=True)
    compile_all()


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "template" and len(sys.argv) > 2:
        for name in DYNAMIC:
            with (Path(sys.argv[2]) / f"{name}.pot").open("wb") as out:
                write_po(out, template(name), width=0, sort_output=False, include_lineno=False)
    else:
        sys.exit(__doc__)
