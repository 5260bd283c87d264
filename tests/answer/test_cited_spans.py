"""The part of a source a citation rests on: the sentence, line or code block of the passage, as
the model received it, that best matches the answer's sentence citing it, and its section."""

from __future__ import annotations

from dataclasses import dataclass

from rag.answer.cited_spans import cited_span, citing_text

GROWN = (
    "Kerberos délivre des tickets de service. Ce billet présente leur cycle de vie.\n\n"
    "## Purger le cache\n\n"
    "Quand un ticket est périmé, on vide le cache de la session :\n\n"
    "```\nklist purge\n```\n\n"
    "## Lister les tickets\n\n"
    "La commande klist seule affiche les tickets du cache."
)


@dataclass
class P:
    text: str
    section: str = "Introduction"
    pieces: tuple = ()


def test_the_citing_sentence_lands_on_the_command_it_names_in_its_section():
    span = cited_span("Videz le cache avec `klist purge` [1]. Kerberos renouvelle ensuite [2].", 1, P(GROWN))
    assert GROWN[span.start:span.end].strip("`\n") == "klist purge"
    assert span.section == "Purger le cache"  # not the passage's own "Introduction"


def test_only_the_sentences_citing_the_number_count():
    answer = "Les tickets se listent avec klist [2]. On purge le cache de la session [1]."
    assert citing_text(answer, 1) == " On purge le cache de la session [1]."
    span = cited_span(answer, 1, P(GROWN))
    assert "vide le cache de la session" in GROWN[span.start:span.end]


def test_the_chunk_holding_the_span_names_its_section():
    own = {"text": "Kerberos délivre des tickets de service.", "section": "Introduction"}
    later = {"text": "La commande klist seule affiche les tickets du cache.", "section": "Lister les tickets"}
    text = own["text"] + "\n\n" + later["text"]
    span = cited_span("klist affiche les tickets du cache [1].", 1, P(text, pieces=(own, later)))
    assert span.section == "Lister les tickets"


def test_nothing_in_common_brings_nothing_forward():
    assert cited_span("Voir l'article [1].", 1, P(GROWN)) is None


def test_a_table_is_brought_forward_whole():
    text = "## Récapitulatif\n\n| commande | effet |\n|---|---|\n| `klist` | liste |\n| `klist purge` | vide le cache |\n\nFin."
    span = cited_span("On vide le cache avec klist purge [1].", 1, P(text))
    assert text[span.start:span.end].startswith("| commande") and text[span.start:span.end].endswith("cache |")
    assert span.section == "Récapitulatif"
