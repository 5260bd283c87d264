"""argparse's own words ("usage:", "the following arguments are required") in the run's language,
through argparse's gettext calls and rag/locale/fr/LC_MESSAGES/argparse.po; English is argparse's own.

The command line runs in process here, French and English one after the other, as a test suite or a
script calling `main` several times would: each run speaks its language, and leaves nothing behind.
"""

from __future__ import annotations

import argparse
import gettext
import os
import re
import sys
import warnings
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

import rag.cli.argparse_language as argparse_language
from rag import i18n
from rag.cli.main import COMMANDS, main
from rag.i18n import language, t

CLI = Path(argparse_language.__file__).parent
PO = i18n.LOCALE_DIR / "fr" / "LC_MESSAGES" / "argparse.po"
MO = PO.with_suffix(".mo")
# The Python whose argparse.py the French catalogue was extracted from (Debian 12's, which CI runs).
EXTRACTED_FROM = (3, 11)
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[sdr]")


def _catalogue():
    with PO.open("rb") as f:
        return read_po(f)


def _msgids(path: str) -> set:
    """The msgids of one Python file, as pybabel extracts them (a plural is a (singular, plural) pair)."""
    return {message for _, message, _, _ in extract_from_file("python", path)}


def test_the_french_catalogue_has_every_message_of_this_pythons_argparse_translated():
    catalogue = _catalogue()
    entries = {m.id: m for m in catalogue if m.id}
    wanted = _msgids(argparse.__file__) | _msgids(argparse_language.__file__)
    if sys.version_info[:2] == EXTRACTED_FROM:
        assert not wanted - set(entries), "run `make argparse-catalogue`, then translate what it adds"
        assert not set(entries) - wanted, "entries no argparse message uses: run `make argparse-catalogue`"
    elif wanted - set(entries):
        # Another Python's argparse words a few messages of its own: a French run shows those in
        # English until `make argparse-catalogue` is run on that Python and they are translated.
        warnings.warn(f"argparse messages of Python {sys.version_info[0]}.{sys.version_info[1]} not in the "
                      f"French catalogue (made from {EXTRACTED_FROM[0]}.{EXTRACTED_FROM[1]}'s): "
                      f"{sorted(map(str, wanted - set(entries)))}", stacklevel=1)
    for message in entries.values():
        assert not message.fuzzy, message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert len(strings) == (catalogue.num_plurals if message.pluralizable else 1), message.id
        for string in strings:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            assert string and string not in ids, message.id
            # Placeholders are the same, so argparse's `%` never fails or drops a value.
            assert sorted(PLACEHOLDER.findall(string)) == sorted(PLACEHOLDER.findall(ids[-1])), message.id


def test_the_committed_mo_is_the_po_compiled():
    with MO.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for message in _catalogue():
        if not message.id:
            continue
        if message.pluralizable:
            singular, plural = message.id
            assert [compiled.ngettext(singular, plural, n) for n in (1, 1_000_000, 2)] == list(message.string)
        else:
            assert compiled.gettext(message.id) == message.string


def _fragments(texts: list[str]) -> set[str]:
    """The fixed words of messages, between their placeholders."""
    return {part.strip() for text in texts for part in PLACEHOLDER.split(text) if len(part.strip()) >= 6}


def _argparse_words() -> dict[str, set[str]]:
    """Each language's own argparse words: those the other language never writes."""
    english, french = [], []
    for message in _catalogue():
        if message.id:
            english += list(message.id) if isinstance(message.id, tuple) else [message.id]
            french += list(message.string) if isinstance(message.string, tuple) else [message.string]
    words = {"en": _fragments(english), "fr": _fragments(french)}
    return {lang: {w for w in mine if not any(w in text for text in (french if lang == "en" else english))}
            for lang, mine in words.items()}


def _help_texts(command: str, lang: str) -> set[str]:
    """The help sentences of `rag <command>` (keys read from its module; `rag --help` lists the
    commands), in `lang`."""
    if command == "main":
        keys = {"cli.description", *(f"help.{name}" for name in COMMANDS)}
    else:
        keys = set(re.findall(r'\bt\("(help\.[a-z_.]+)"\)', (CLI / f"{command}.py").read_text(encoding="utf-8")))
        keys.discard(f"help.{command}")  # its line in `rag --help`
    with language(lang):  # as argparse shows them: wrapped lines joined, %% a percent sign
        return {" ".join(t(key).replace("%%", "%").split()) for key in keys}


def _run(lang: str, args: list[str], monkeypatch, capsys) -> tuple[int, str]:
    monkeypatch.setenv("RAG_UI_LANG", lang)
    with pytest.raises(SystemExit) as exit_:
        main(args)
    out = capsys.readouterr()
    return exit_.value.code, " ".join((out.out + out.err).split())  # argparse's line wrapping undone


RUNS = [
    (["--help"], 0),
    (["ask", "--help"], 0),
    (["ingest", "--help"], 0),
    (["ask"], 2),  # a missing argument
    (["ask", "--mode", "bad", "question"], 2),  # a bad choice
    (["status", "--bogus"], 2),  # an unknown flag
    (["ask", "--top-k", "six", "question"], 2),  # not a number
    (["ingest", "docs", "--chunk-size"], 2),  # an option without its value
]


@pytest.mark.parametrize("args, code", RUNS, ids=[" ".join(a) for a, _ in RUNS])
def test_a_french_and_an_english_run_show_no_sentence_of_the_other_language(args, code, monkeypatch, capsys):
    words = _argparse_words()
    outputs = {}
    for lang in ("fr", "en", "fr"):  # one process, the language of each run its own
        got, text = _run(lang, args, monkeypatch, capsys)
        assert got == code
        other = "en" if lang == "fr" else "fr"
        assert not {w for w in words[other] if w in text}, (lang, text)
        if args[-1] == "--help":
            command = args[0] if len(args) > 1 else "main"
            mine, theirs = _help_texts(command, lang), _help_texts(command, other)
            shown = [s for s in mine - theirs if "%(" not in s and "{" not in s]
            assert shown and all(s in text for s in shown)
            assert not [s for s in theirs - mine if len(s) > 12 and s in text]
        outputs.setdefault(lang, text)
        assert outputs[lang] == text  # the second French run is the first one again

    fr, en = outputs["fr"], outputs["en"]
    if args[-1] == "--help":
        assert fr.startswith("utilisation : rag") and en.startswith("usage: rag")
        assert "options : " in fr and "afficher cette aide et quitter" in fr
        assert "options: " in en and "show this help message and exit" in en
    else:
        assert "rag" in fr and " : erreur : " in fr and ": error: " in en


def test_argparse_s_errors_read_as_before_in_each_language(monkeypatch, capsys):
    _, fr = _run("fr", ["status", "--bogus"], monkeypatch, capsys)
    _, en = _run("en", ["status", "--bogus"], monkeypatch, capsys)
    assert fr.endswith("rag : erreur : arguments non reconnus : --bogus")
    assert en.endswith("rag: error: unrecognized arguments: --bogus")
    _, fr = _run("fr", ["ingest", "docs", "--chunk-size"], monkeypatch, capsys)
    assert fr.endswith("rag ingest : erreur : argument --chunk-size : une valeur est attendue")
    _, fr = _run("fr", ["ask", "--threshold", "haut", "question"], monkeypatch, capsys)
    assert fr.endswith("argument --threshold : 'haut' n'est pas un nombre valide")
    _, en = _run("en", ["ask", "--threshold", "high", "question"], monkeypatch, capsys)
    assert en.endswith("argument --threshold: invalid float value: 'high'")  # argparse's words exactly
    _, fr = _run("fr", ["ingest", "--help"], monkeypatch, capsys)
    assert "réglages du découpage : " in fr and "arguments positionnels : " in fr


def test_a_run_leaves_gettext_and_the_environment_as_it_found_them(monkeypatch, capsys):
    monkeypatch.setenv("LANGUAGE", "en_US:fr")  # the shell's own list does not outvote the run's language
    before = gettext.textdomain()
    _, fr = _run("fr", ["ask"], monkeypatch, capsys)
    assert "ces arguments sont obligatoires" in fr
    assert gettext.textdomain() == before
    assert os.environ["LANGUAGE"] == "en_US:fr"
    # argparse used by anything else afterwards (a script, a library) is itself again.
    assert argparse.ArgumentParser(prog="x").format_usage().startswith("usage: x")
    monkeypatch.delenv("LANGUAGE")
    _run("fr", ["ask"], monkeypatch, capsys)
    assert "LANGUAGE" not in os.environ


def test_parsing_a_number_is_pythons_own():
    assert argparse_language.whole_number(" 12 ") == 12 and argparse_language.number("1e3") == 1000.0
    with pytest.raises(argparse.ArgumentTypeError, match=r"^invalid int value: '1\.5'$"):
        argparse_language.whole_number("1.5")


def test_another_language_is_one_more_catalogue(tmp_path, monkeypatch, capsys):
    """argparse reads the catalogue of the run's language, whichever it is: a stub one here."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    stub = Catalog(locale="de")
    stub.add("usage: ", "Aufruf: ")
    stub.add("the following arguments are required: %s", "folgende Argumente fehlen: %s")
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    with (tmp_path / "de" / "LC_MESSAGES" / "argparse.mo").open("wb") as f:
        write_mo(f, stub)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    parser = None
    with argparse_language.speaking("de"):
        parser = argparse.ArgumentParser(prog="x")
        parser.add_argument("name")
        assert parser.format_usage().startswith("Aufruf: x")
        with pytest.raises(SystemExit):
            parser.parse_args([])
    assert capsys.readouterr().err.endswith("x: error: folgende Argumente fehlen: name\n")  # no "error" entry
    assert parser.format_usage().startswith("usage: x")  # outside the run, argparse's own again
