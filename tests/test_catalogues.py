"""The gettext catalogues (rag/locale/<lang>/LC_MESSAGES/<domain>.po and their .mo): complete in
every language, translated, used by the code, compiled from what is committed, and open to one
more language."""

from __future__ import annotations

import gettext
import importlib.util
import io
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from rag import i18n

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "rag" / "locale"
DOMAINS = ("rag", "ui")  # keys as message ids, a catalogue in every language

_spec = importlib.util.spec_from_file_location("messages_script", ROOT / "scripts" / "messages.py")
messages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(messages)


def catalogue(domain: str, lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        return read_po(po, locale=lang, domain=domain)


def entries(domain: str, lang: str) -> dict[str, tuple[str, ...]]:
    """key -> its forms (one for a plain message, the language's plural forms for a plural)."""
    out = {}
    for m in catalogue(domain, lang):
        if m.id:
            key = m.id[0] if m.pluralizable else m.id
            out[key] = tuple(m.string) if m.pluralizable else (m.string,)
    return out


def all_po() -> list[Path]:
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_in_every_language_translated_and_not_fuzzy(domain):
    keys = {lang: set(entries(domain, lang)) for lang in i18n.LANGUAGES}
    for lang in i18n.LANGUAGES:
        assert keys[lang] == keys[i18n.DEFAULT], f"{domain}/{lang}: {sorted(keys[lang] ^ keys[i18n.DEFAULT])}"
        cat = catalogue(domain, lang)
        assert not cat.fuzzy, f"{domain}/{lang}: the header is fuzzy"
        assert not [m.id for m in cat if m.id and m.fuzzy], f"{domain}/{lang}: fuzzy entries"
        untranslated = [k for k, forms in entries(domain, lang).items() if not all(forms)]
        assert not untranslated, f"{domain}/{lang}: untranslated {untranslated}"
        assert not cat.obsolete, f"{domain}/{lang}: obsolete entries {list(cat.obsolete)}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_plural_forms_are_cldrs_and_each_plural_has_them_all(domain):
    for lang in i18n.LANGUAGES:
        cat = catalogue(domain, lang)
        assert cat.plural_forms == Catalog(locale=lang).plural_forms  # Babel's, from CLDR
        short = [m.id[0] for m in cat if m.id and m.pluralizable and len(m.string) != cat.num_plurals]
        assert not short, f"{domain}/{lang}: {short}"
    plural = {lang: {m.id[0] for m in catalogue(domain, lang) if m.id and m.pluralizable} for lang in i18n.LANGUAGES}
    assert plural["fr"] == plural["en"]


@pytest.mark.parametrize("domain", DOMAINS)
def test_placeholders_are_the_same_in_every_language_and_form(domain):
    """The same `{fields}` everywhere, but the singular of a plural may leave out its number
    ("Dernier jour", "Last day"), as gettext allows."""
    english = entries(domain, "en")
    wrong = []
    for lang in i18n.LANGUAGES:
        for key, forms in entries(domain, lang).items():
            expected = i18n.placeholders(english[key][-1])
            for i, form in enumerate(forms):
                found = i18n.placeholders(form) | ({"n"} if i == 0 and len(forms) > 1 else set())
                if found != expected | ({"n"} if i == 0 and len(forms) > 1 else set()):
                    wrong.append(f"{lang} {key}[{i}]: {sorted(i18n.placeholders(form))}")
    assert not wrong


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_message_id_appears_once_in_a_catalogue(domain):
    """Babel keeps the last of two entries with one msgid: the first would be lost silently."""
    for lang in i18n.LANGUAGES:
        text = (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
        ids = re.findall(r'(?m)^msgid "(.+)"$', text)
        assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_key_the_code_uses_is_catalogued_and_every_entry_is_used(domain):
    """The keys the code writes literally (t("key"), tn("key", n)), holds in a variable, or builds
    from a DYNAMIC prefix: each is in the catalogue (as a plural when tn reads it), and the
    catalogue holds nothing else."""
    used = messages.used_keys(domain)
    english = {m.id[0] if m.pluralizable else m.id: m.pluralizable for m in catalogue(domain, "en") if m.id}
    assert sorted(set(used) - set(english)) == [], "keys the code uses that no catalogue has"
    assert sorted(set(english) - set(used)) == [], "catalogue entries no code uses"
    assert [k for k, plural in used.items() if plural and not english[k]] == [], "tn() of a plain entry"


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_dynamic_prefix_is_built_by_the_code_and_names_entries(domain):
    """A prefix listed but no longer built would keep its entries alive for nothing."""
    constants, starts = messages.string_constants(domain)
    keys = entries(domain, "en")
    for prefix in messages.DYNAMIC[domain]:
        assert prefix in starts or prefix in constants, f"{prefix} is built nowhere in {domain}'s code"
        assert any(k.startswith(prefix) for k in keys), f"{prefix} names no entry"


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_key_built_at_run_time_starts_with_a_listed_prefix(domain):
    """An f-string that starts like a key (`f"ing.unit_option_{unit}"`) names entries the scan
    cannot see: without its prefix in DYNAMIC, `scripts/messages.py update` would drop them."""
    _, starts = messages.string_constants(domain)
    namespaces = {key.split(".")[0] + "." for key in entries(domain, "en")}
    unlisted = [s for s in starts if re.fullmatch(r"[a-z_]+\.[A-Za-z0-9_.]*", s)
                and s.split(".")[0] + "." in namespaces and not s.startswith(messages.DYNAMIC[domain])]
    assert not unlisted, f"add these prefixes to DYNAMIC in scripts/messages.py: {sorted(unlisted)}"


@pytest.mark.parametrize("po", all_po(), ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_each_committed_mo_is_its_po_compiled(po):
    """What the product reads (.mo) is what translators edit (.po): `python scripts/messages.py
    compile` after a change."""
    with po.open("rb") as f:
        compiled = io.BytesIO()
        write_mo(compiled, read_po(f, locale=po.parts[-3], domain=po.stem))
    compiled.seek(0)
    with po.with_suffix(".mo").open("rb") as committed:
        assert gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(compiled)._catalog


def test_plurals_follow_each_languages_rule():
    from ui.i18n import tn

    with i18n.language("fr"):
        assert [tn("ing.found", n) for n in (0, 1, 2)] == ["0 document trouvé", "1 document trouvé", "2 documents trouvés"]
        assert tn("ing.found", 1_000_000) == "1\u202f000\u202f000 documents trouvés"
        assert i18n.tn("progress.rate", 1.5, rate="1,5") == "1,5 morceau/s"  # French: singular below 2
    with i18n.language("en"):
        assert [tn("ing.found", n) for n in (0, 1, 2)] == ["0 documents found", "1 document found", "2 documents found"]
        assert i18n.tn("progress.rate", 1.5, rate="1.5") == "1.5 chunks/s"
        assert i18n.tn("progress.rate", 1, rate="1.0") == "1.0 chunk/s"


def test_a_language_is_one_catalogue_and_one_entry_in_the_list(tmp_path, monkeypatch):
    """German, for the test: a catalogue of a few messages and an entry in LANGUAGES, and the
    command line's locale, the browser's and the product's words follow; what German lacks
    reads in French."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale)
    german = Catalog(locale="de", domain="rag", fuzzy=False)
    german.add("cli.error", "Fehler: {message}")
    german.add("prompt.refusal", "Ich finde diese Information nicht in den indizierten Artikeln.")
    german.add(("progress.chunks", "progress.chunks"), ("{n} Abschnitt", "{n} Abschnitte"))
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    with (locale / "de" / "LC_MESSAGES" / "rag.po").open("wb") as po:
        write_po(po, german)
    with (locale / "de" / "LC_MESSAGES" / "rag.mo").open("wb") as mo:
        write_mo(mo, german)
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    monkeypatch.setitem(i18n.LANGUAGES, "de", "Deutsch")

    assert i18n.cli_language(None, {"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.pick_language(None, "de-AT") == "de"
    from rag.answer.prompts import contains_refusal, refusal_sentence

    with i18n.language("de"):
        assert i18n.t("cli.error", message="x") == "Fehler: x"
        assert [i18n.tn("progress.chunks", n) for n in (1, 2)] == ["1 Abschnitt", "2 Abschnitte"]
        assert i18n.t("cli.warning", message="x") == "Attention : x"  # not in German: French
    assert refusal_sentence("de") == "Ich finde diese Information nicht in den indizierten Artikeln."
    assert contains_refusal("Ich finde diese Information nicht in den indizierten Artikeln.")


def test_an_install_carries_every_catalogue():
    """pyproject.toml's package data names each .po and .mo: an installed rag speaks French too."""
    import fnmatch
    import tomllib

    globs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["rag"]
    files = [p.relative_to(ROOT / "rag").as_posix() for p in LOCALE.glob("*/LC_MESSAGES/*") if p.suffix in (".po", ".mo")]
    assert files and not [f for f in files if not any(fnmatch.fnmatch(f, g) for g in globs)]


def test_the_threshold_has_one_name_in_each_language():
    """The number the best passage's score is compared with was "seuil", "proximité" and "score du
    meilleur passage" on one page: it is the threshold (seuil) everywhere, the score is the score."""
    for lang, other in (("fr", "proximité"), ("en", "closeness")):
        for domain in DOMAINS:
            found = [k for k, forms in entries(domain, lang).items() if any(other in f.lower() for f in forms)]
            assert not found, (lang, domain, found)
