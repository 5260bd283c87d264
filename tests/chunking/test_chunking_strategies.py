"""What each strategy does on small documents written to show one behaviour at a time."""

from __future__ import annotations

import pytest

from rag.chunking import DEFAULT_STRATEGY, STRATEGIES, make_chunker, relevant_settings
from rag.chunking.base import TINY_CHARS
from rag.errors import ConfigError
from tests.chunking.test_chunking_invariants import check_blocks_kept, check_common, check_concatenates


def paragraph(words: int, seed: str = "mot") -> str:
    return " ".join(f"{seed}{i}" for i in range(words)) + "."


def code_block(lines: int, fence: str = "```") -> str:
    body = "\n".join(f"Set-Item -Path HKLM:\\Key{i} -Value {i}" for i in range(lines))
    return f"{fence}powershell\n{body}\n{fence}"


def table(rows: int) -> str:
    lines = ["| Paramètre | Description |", "|-----------|-------------|"]
    lines += [f"| /p{i} | Active l’option numéro {i} de la commande. |" for i in range(rows)]
    return "\n".join(lines)


# -- registry -----------------------------------------------------------------------------------


def test_the_four_contract_names_and_default():
    assert list(STRATEGIES) == ["recursive", "sections", "sections_min_max", "markdown"]
    assert DEFAULT_STRATEGY == "markdown"
    assert {name: STRATEGIES[name]().settings() for name in STRATEGIES} == {
        "recursive": {"chunk_size": 1000, "overlap": 200},
        "sections": {"max_size": 2000, "overlap": 200},
        "sections_min_max": {"min_size": 400, "max_size": 1000},
        "markdown": {"chunk_size": 1000, "overlap": 200},
    }
    assert all(STRATEGIES[name].name == name for name in STRATEGIES)


def test_unknown_strategy_names_the_valid_ones():
    with pytest.raises(ConfigError) as exc:
        make_chunker("semantic")
    assert all(name in str(exc.value) for name in STRATEGIES)


@pytest.mark.parametrize(
    ("name", "settings"),
    [
        ("recursive", {"chunk_size": 0}),
        ("recursive", {"chunk_size": 100, "overlap": 100}),
        ("sections", {"overlap": -1}),
        ("sections_min_max", {"min_size": 900, "max_size": 500}),
        ("markdown", {"max_size": 500}),
    ],
)
def test_bad_settings_are_config_errors(name, settings):
    with pytest.raises(ConfigError):
        make_chunker(name, **settings)


def test_relevant_settings_keeps_what_a_strategy_uses():
    given = {"chunk_size": 500, "overlap": 50, "min_size": None, "max_size": 800}
    assert relevant_settings("recursive", given) == {"chunk_size": 500, "overlap": 50}
    assert relevant_settings("sections", given) == {"overlap": 50, "max_size": 800}
    assert relevant_settings("sections_min_max", given) == {"max_size": 800}


@pytest.mark.parametrize("name", list(STRATEGIES))
@pytest.mark.parametrize("text", ["", "   \n\n  \n"])
def test_empty_documents_give_no_chunks(name, text):
    assert make_chunker(name).chunk(text) == []


# -- recursive ----------------------------------------------------------------------------------


def test_recursive_prefers_paragraphs_then_lines():
    text = f"{paragraph(60, 'a')}\n\n{paragraph(60, 'b')}\n\n{paragraph(60, 'c')}\n"
    chunks = make_chunker("recursive", chunk_size=450, overlap=0).chunk(text)
    check_concatenates(text, chunks)
    assert [c.text.strip()[0] for c in chunks] == ["a", "b", "c"]
    assert all(c.text.endswith("\n") for c in chunks)  # separators stay with the piece they end


def test_recursive_overlap_is_whole_pieces_within_the_limit():
    text = " ".join(f"Phrase numéro {i} du texte." for i in range(200))
    chunks = make_chunker("recursive", chunk_size=200, overlap=60).chunk(text)
    check_common(text, chunks, overlap=60)
    check_concatenates(text, chunks)
    overlaps = [a.end - b.start for a, b in zip(chunks, chunks[1:])]
    assert max(overlaps) > 0
    for before, after in zip(chunks, chunks[1:]):
        if before.end > after.start:
            # The repeated part is whole sentences: it starts right after a sentence end.
            assert text[after.start - 2 : after.start] == ". "


@pytest.mark.parametrize(
    "sentences",
    [
        ["今日は天気がいいです。", "散歩に行きましょう！", "どこへ行きますか？"],
        ["我们今天去公园。", "你想一起来吗？", "太好了！"],
    ],
)
def test_recursive_honours_cjk_sentence_ends(sentences):
    text = "".join(sentences * 40)  # no spaces, no newlines: only sentence ends to cut at
    chunks = make_chunker("recursive", chunk_size=60, overlap=0).chunk(text)
    check_concatenates(text, chunks)
    assert len(chunks) > 5
    assert all(c.text[-1] in "。！？" for c in chunks)
    assert all(c.chars <= 60 for c in chunks)


def test_recursive_cuts_a_word_only_when_nothing_else_fits():
    text = "x" * 250 + " court."
    chunks = make_chunker("recursive", chunk_size=100, overlap=0).chunk(text)
    check_concatenates(text, chunks)
    assert all(c.chars <= 100 for c in chunks)


def test_recursive_reports_what_its_cuts_cost():
    text = (
        "# Guide\n\n## Installer\n\n"
        + paragraph(40)
        + "\n\n"
        + code_block(12)
        + "\n\n## Options\n\n"
        + table(12)
        + "\n\n"
        + paragraph(120, "fin")
        + "\n"
    )
    chunks = make_chunker("recursive", chunk_size=300, overlap=0).chunk(text)
    check_concatenates(text, chunks)
    code_start = text.index("```powershell")
    code_end = text.index("```\n", code_start + 5) + 3
    cut_code = [c for c in chunks if code_start < c.end < code_end or code_start < c.start < code_end]
    assert cut_code and all("code_block_split" in c.warnings for c in cut_code)
    table_start = text.index("| Paramètre")
    headless = [c for c in chunks if table_start < c.start < text.index("\n\n", table_start)]
    assert headless and all("table_split" in c.warnings for c in headless)
    assert all(not c.header for c in chunks)
    mid_section = [c for c in chunks if c.text.startswith("fin") or c.text.startswith("mot")]
    assert any("no_heading_context" in c.warnings for c in mid_section)
    # heading_path is still right for the baseline: taken from the headings before the chunk.
    assert chunks[-1].heading_path == ["Guide", "Options"]


# -- sections -----------------------------------------------------------------------------------


def test_sections_split_at_level_two_and_ignore_code():
    text = (
        "Intro sans titre.\n\n## Premier\n\nTexte un.\n\n"
        "```bash\n## pas un titre\necho ok\n```\n\n### Détail\n\nTexte détail.\n\n## Second\n\nTexte deux.\n"
    )
    chunks = make_chunker("sections").chunk(text, title="Mon article")
    check_common(text, chunks, overlap=0)
    assert [c.header for c in chunks] == [
        "Article: Mon article\nSection: Introduction",
        "Article: Mon article\nSection: Premier",
        "Article: Mon article\nSection: Second",
    ]
    assert chunks[1].text.startswith("## Premier") and "## pas un titre" in chunks[1].text
    assert chunks[0].embedding_text.startswith("Article: Mon article\nSection: Introduction\n\nIntro")
    # The cited section is the one the embedded header names, even under a `### ` heading.
    assert [c.section for c in chunks] == ["Introduction", "Premier", "Second"]
    untitled = make_chunker("sections").chunk(text)
    assert untitled[0].header == "Section: Introduction"


def test_sections_uses_the_first_heading_when_no_title_is_given():
    text = "# Titre du document\n\nIntro.\n\n## Partie\n\nTexte.\n"
    chunks = make_chunker("sections").chunk(text)
    assert chunks[0].header == "Article: Titre du document\nSection: Introduction"
    assert chunks[1].heading_path == ["Titre du document", "Partie"]
    assert [c.section for c in chunks] == ["Introduction", "Partie"]


def test_long_section_pieces_all_keep_the_header_and_blocks():
    body = "\n\n".join([paragraph(50), code_block(8), paragraph(50, "b"), table(6), paragraph(80, "c")])
    text = f"## Longue\n\n{body}\n\n## Courte\n\nFin.\n"
    chunks = make_chunker("sections", max_size=500, overlap=100).chunk(text, title="T")
    check_common(text, chunks, overlap=100)
    assert check_blocks_kept(text, chunks, max_size=500) == 2
    long_pieces = [c for c in chunks if c.heading_path[-1] == "Longue"]
    assert len(long_pieces) > 3
    assert all(c.header == "Article: T\nSection: Longue" for c in long_pieces)
    assert all(c.chars <= 500 and not c.warnings for c in long_pieces)


@pytest.mark.parametrize("strategy", ["recursive", "sections", "sections_min_max", "markdown"])
def test_text_before_the_first_section_is_the_introduction_in_every_strategy(strategy):
    text = ("# Kerberos\n\n" + paragraph(30, "intro_") + "\n\n## Purger\n\n" + paragraph(30, "purge_")
            + "\n\n### Détail\n\n" + paragraph(30, "detail_") + "\n")
    settings = {"max_size": 300} if strategy.startswith("sections") else {"chunk_size": 300, "overlap": 0}
    if strategy == "sections_min_max":
        settings["min_size"] = 50
    chunks = make_chunker(strategy, **settings).chunk(text, title="Kerberos")
    first = next(c for c in chunks if "intro_" in c.text)
    assert first.section == "Introduction"
    assert all(c.section for c in chunks)  # never "": a citation always names a section
    for chunk in chunks:
        if chunk.header.startswith("Article:"):
            assert chunk.header.split("\n")[1] == f"Section: {chunk.section}"
    if strategy != "recursive":  # the baseline may cut anywhere
        detail = next(c for c in chunks if c.text.lstrip().startswith("### Détail"))
        # `sections` cuts at `## ` only: a piece under a `### ` heading belongs to its `## ` section.
        assert detail.section == ("Purger" if strategy == "sections" else "Détail")
    untitled = make_chunker(strategy, **settings).chunk("Du texte sans aucun titre, assez long pour un extrait.\n")
    assert untitled[0].section == "Introduction"


# -- sections_min_max ---------------------------------------------------------------------------


def test_min_max_joins_small_sections_while_they_fit():
    sections = [f"## S{i}\n\n{paragraph(15, f's{i}_')}\n\n" for i in range(8)]  # ~150 chars each
    text = "".join(sections)
    chunks = make_chunker("sections_min_max", min_size=400, max_size=1000).chunk(text)
    check_common(text, chunks, overlap=0)
    assert all(c.text.startswith("## S") for c in chunks)
    assert all(c.chars <= 1000 for c in chunks)
    assert all(c.chars >= 400 for c in chunks[:-1])
    assert len(chunks) < len(sections)


def test_min_max_cuts_long_sections_between_paragraphs_repeating_the_heading():
    paragraphs = [paragraph(40, f"p{i}_") for i in range(6)]  # ~290 chars each
    text = "### Longue section\n\n" + "\n\n".join(paragraphs) + "\n\n## Suite\n\nTexte.\n"
    chunks = make_chunker("sections_min_max", min_size=100, max_size=700).chunk(text)
    check_common(text, chunks, overlap=0)
    pieces = [c for c in chunks if c.heading_path == ["Longue section"]]
    assert len(pieces) >= 3
    assert pieces[0].text.startswith("### Longue section") and pieces[0].header == ""
    for piece in pieces[1:]:
        assert piece.header == "### Longue section"
        assert piece.text.startswith("p") and piece.text.rstrip().endswith(".")  # whole paragraphs


def test_min_max_gives_no_warnings_when_blocks_fit():
    text = "# Titre\n\n" + paragraph(50) + "\n\n" + code_block(10) + "\n\n" + paragraph(50, "b") + "\n\n"
    text += table(8) + "\n\n" + paragraph(60, "c") + "\n"
    chunks = make_chunker("sections_min_max", min_size=100, max_size=600).chunk(text)
    check_common(text, chunks, overlap=0)
    assert check_blocks_kept(text, chunks, max_size=600) == 2
    assert not {w for c in chunks for w in c.warnings} & {"code_block_split", "table_split"}


@pytest.mark.parametrize("fence", ["```", "~~~", "`````"])
def test_a_block_bigger_than_the_maximum_is_cut_with_a_warning(fence):
    text = "## Script\n\n" + code_block(80, fence) + "\n\nAprès.\n"
    chunks = make_chunker("sections_min_max", min_size=100, max_size=500).chunk(text)
    check_common(text, chunks, overlap=0)
    inside = [c for c in chunks if "Set-Item" in c.text]
    assert len(inside) > 2
    assert all("code_block_split" in c.warnings for c in inside)
    assert all(c.chars <= 500 for c in chunks)


@pytest.mark.parametrize("name", ["sections", "sections_min_max", "markdown"])
def test_big_table_pieces_repeat_the_header_row(name):
    text = "## Paramètres\n\nLa commande accepte :\n\n" + table(60) + "\n\nFin.\n"
    settings = {"sections": {"max_size": 600}, "sections_min_max": {"max_size": 600}, "markdown": {"chunk_size": 600}}
    chunks = make_chunker(name, **settings[name]).chunk(text, title="T")
    header_rows = "| Paramètre | Description |\n|-----------|-------------|"
    continued = [c for c in chunks if c.text.startswith("| /p")]
    assert len(continued) >= 3
    for c in continued:
        assert c.header.endswith(header_rows)
        assert "table_split" in c.warnings
        assert c.embedding_text.index(header_rows) < c.embedding_text.index(c.text)
        assert c.text.rstrip("\n").count("\n") + 1 == len(c.text.strip().splitlines())  # whole rows


# -- markdown -----------------------------------------------------------------------------------


def test_markdown_keeps_short_sections_together_and_cuts_at_headings():
    text = "# Doc\n\n" + "".join(f"## Part {i}\n\n{paragraph(20, f'x{i}_')}\n\n" for i in range(12))
    chunks = make_chunker("markdown", chunk_size=600, overlap=0).chunk(text)
    check_concatenates(text, chunks)
    assert len(chunks) < 12
    assert all(c.text.lstrip().startswith("#") for c in chunks)
    assert all(c.header.startswith("Article: Doc\nSection: ") for c in chunks)
    # Several sections in one chunk: the header names each of them, the first one first.
    parts = [line[3:] for line in chunks[1].text.splitlines() if line.startswith("## ")]
    assert chunks[1].heading_path[-1] == parts[0] and len(parts) > 1
    assert chunks[1].header == "Article: Doc\nSection: " + " · ".join(parts)


def test_headings_inside_code_are_not_separators():
    code = "```markdown\n# pas un titre\n## non plus\n```"
    text = "# Vrai\n\n" + paragraph(30) + "\n\n" + code + "\n\n" + paragraph(30, "b") + "\n"
    for name in STRATEGIES:
        chunks = make_chunker(name).chunk(text)
        assert all(h == "Vrai" for c in chunks for h in c.heading_path)


def test_tiny_and_oversized_thresholds():
    text = "## Vide\n\n## Pleine\n\n" + paragraph(80) + "\n"
    chunks = make_chunker("sections_min_max", min_size=1, max_size=2000).chunk(text)
    assert chunks[0].text.strip() == "## Vide" and "tiny" in chunks[0].warnings
    assert len(chunks[0].text.strip()) < TINY_CHARS
    assert "tiny" not in chunks[1].warnings
    huge = "a" * 3000  # a single word: cut by characters, never over the limit
    for name in STRATEGIES:
        assert all("oversized" not in c.warnings for c in make_chunker(name).chunk(huge))


def test_spaces_longer_than_a_chunk_are_not_lost():
    text = "| a" + " " * 700 + "| b |\n|---|---|\n| 1 | 2 |\n"
    for name in STRATEGIES:
        sizes = {"recursive": {"chunk_size": 300}, "markdown": {"chunk_size": 300}, "sections": {"max_size": 300}}
        chunker = make_chunker(name, **sizes.get(name, {"min_size": 100, "max_size": 300}))
        chunks = chunker.chunk(text)
        check_common(text, chunks, overlap=chunker.settings().get("overlap", 0))
        check_concatenates(text, chunks)


def test_table_split_marks_the_pieces_that_lost_the_header_row():
    from rag.chunking import make_chunker

    rows = "\n".join(f"| 0x{i:02x} | valeur numéro {i} du masque de chiffrement |" for i in range(40))
    markdown = "## Valeurs\n\n| Bit | Sens |\n|---|---|\n" + rows + "\n\nFin de l'article.\n"
    for name, settings in (("recursive", {"chunk_size": 600, "overlap": 0}),
                           ("sections_min_max", {"min_size": 100, "max_size": 600})):
        chunks = make_chunker(name, **settings).chunk(markdown, "Types de chiffrement")
        table_pieces = [c for c in chunks if "| 0x" in c.text]
        assert len(table_pieces) > 1, name
        first, *rest = table_pieces
        assert "| Bit | Sens |" in first.text and "table_split" not in first.warnings, name
        for piece in rest:
            assert "| Bit | Sens |" not in piece.text and "table_split" in piece.warnings, name
        if name == "sections_min_max":
            assert all("| Bit | Sens |" in piece.header for piece in rest)


def test_a_merged_chunk_of_the_default_strategy_names_every_section_it_holds():
    """Bug: the introduction merged with the next section, or a heading with the start of its
    table, was labelled with the first section only, so a citation could name the wrong one."""
    from rag.chunking import DEFAULT_STRATEGY, make_chunker

    text = ("# Kerberos\n\nUne courte introduction.\n\n## Purger le cache\n\nklist purge vide le cache.\n\n"
            "## Codes\n\n| Code | Sens |\n|---|---|\n| 0x25 | horloge |\n")
    chunks = make_chunker(DEFAULT_STRATEGY).chunk(text, title="Kerberos")
    check_common(text, chunks, overlap=200)
    [merged] = chunks
    assert merged.section == "Introduction · Purger le cache · Codes"
    assert merged.header == "Article: Kerberos\nSection: Introduction · Purger le cache · Codes"
    # A chunk inside one section still names just that one.
    long = "## Seule\n\n" + paragraph(300, "s") + "\n"
    assert {c.section for c in make_chunker(DEFAULT_STRATEGY, chunk_size=300, overlap=0).chunk(long)} == {"Seule"}
