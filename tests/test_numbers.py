"""Numbers written the way the reader's language writes them: 0,833 and 12 345 and 94 % in French,
0.833 and 12,345 and 94% in English; durations in s, min and h in both."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.i18n import language
from rag.i18n.numbers import decimal, duration, integer, percent, read_decimal, score_text, threshold_text

NNBSP, NBSP = "\u202f", "\u00a0"


@pytest.mark.parametrize("value, places, fr, en", [
    (0.833, 3, "0,833", "0.833"),
    (0.8336, 3, "0,834", "0.834"),  # rounded, not cut
    (0.83, 2, "0,83", "0.83"),
    (0.9, 2, "0,90", "0.90"),  # the places asked for, trailing zero kept
    (0, 2, "0,00", "0.00"),
    (-0.25, 2, "-0,25", "-0.25"),
    (-0.0004, 3, "0,000", "0.000"),  # no minus sign on a value that rounds to nothing
    (12345.678, 2, f"12{NNBSP}345,68", "12,345.68"),
    (-1234567.5, 1, f"-1{NNBSP}234{NNBSP}567,5", "-1,234,567.5"),
    (2.5, 0, "2", "2"),  # half to even, as Python rounds
])
def test_decimals(value, places, fr, en):
    with language("fr"):
        assert decimal(value, places) == fr
    with language("en"):
        assert decimal(value, places) == en
    assert decimal(value, places, lang="fr") == fr  # an explicit language wins over the current one


def test_a_signed_change_shows_its_plus():
    assert decimal(0.02, 2, signed=True, lang="fr") == "+0,02"
    assert decimal(-0.02, 2, signed=True, lang="en") == "-0.02"
    assert decimal(0.0001, 2, signed=True, lang="en") == "0.00"
    assert integer(3, signed=True, lang="fr") == "+3"


@pytest.mark.parametrize("value, fr, en", [
    (0, "0", "0"),
    (999, "999", "999"),
    (1000, f"1{NNBSP}000", "1,000"),
    (12345, f"12{NNBSP}345", "12,345"),
    (-98765432, f"-98{NNBSP}765{NNBSP}432", "-98,765,432"),
    (1234.6, f"1{NNBSP}235", "1,235"),
])
def test_integers_group_thousands(value, fr, en):
    assert integer(value, lang="fr") == fr
    assert integer(value, lang="en") == en


def test_percentages():
    assert percent(0.94, lang="fr") == f"94{NBSP}%"
    assert percent(0.94, lang="en") == "94%"
    assert percent(0, lang="fr") == f"0{NBSP}%"
    assert percent(1, lang="en") == "100%"
    assert percent(0.12345, 1, lang="fr") == f"12,3{NBSP}%"
    assert percent(-0.05, lang="en") == "-5%"
    assert percent(123.45, lang="fr") == f"12{NNBSP}345{NBSP}%"


@pytest.mark.parametrize("seconds, places, text", [
    (0, 0, "0 s"),
    (-2, 0, "0 s"),
    (4.6, 0, "5 s"),
    (59.4, 0, "59 s"),
    (59.7, 0, "1 min"),  # rounds up to a whole minute, not "60 s"
    (90, 0, "1 min 30 s"),
    (150, 0, "2 min 30 s"),
    (185, 0, "3 min 05 s"),
    (3599.6, 0, "1 h"),
    (3900, 0, "1 h 05 min"),
    (3 * 3600 + 59 * 60 + 50, 0, "4 h"),  # past an hour the seconds are dropped, minutes rounded
    (26 * 3600 + 60, 0, "26 h 01 min"),
])
def test_durations_read_the_same_in_both_languages(seconds, places, text):
    assert duration(seconds, places, lang="fr") == text
    assert duration(seconds, places, lang="en") == text


def test_a_short_duration_keeps_its_decimals_in_the_readers_way():
    assert duration(3.24, 1, lang="fr") == "3,2 s"
    assert duration(3.24, 1, lang="en") == "3.2 s"
    assert duration(0.05, 2, lang="fr") == "0,05 s"
    assert duration(12000 * 3600, lang="fr") == f"12{NNBSP}000 h"


def test_the_current_language_decides_when_none_is_given():
    with language("fr"):
        assert (decimal(0.5), percent(0.5), integer(1500)) == ("0,50", f"50{NBSP}%", f"1{NNBSP}500")
    with language("en"):
        assert (decimal(0.5), percent(0.5), integer(1500)) == ("0.50", "50%", "1,500")


def test_a_threshold_is_written_with_three_decimals_wherever_it_is_shown():
    """The Ask page said "seuil 0,82" where the sidebar said "seuil 0,820" for the same value, and a
    past run "suggéré 0,82" beside "seuil 0,834"."""
    assert threshold_text(0.833, lang="fr") == "0,833" and threshold_text(0.85, lang="fr") == "0,850"
    assert threshold_text(0.82, lang="fr") == decimal(0.82, 3, lang="fr") == "0,820"
    assert threshold_text(0.833, lang="en") == "0.833" and threshold_text(-0.003, signed=True, lang="en") == "-0.003"


@pytest.mark.parametrize("typed, value", [("0,85", 0.85), ("0.85", 0.85), (" 0,85 ", 0.85), (",5", 0.5),
                                          ("1", 1.0), ("0\u202f,\u202f9", 0.9), ("", None), ("  ", None)])
def test_a_decimal_is_read_with_a_comma_or_a_point(typed, value):
    assert read_decimal(typed) == value


@pytest.mark.parametrize("typed", ["0,8x", "1,000.5", "0,,8", "abc", "0.8.5", "e", "nan", "inf"])
def test_what_is_not_a_decimal_is_refused(typed):
    with pytest.raises(ValueError):
        read_decimal(typed)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e20, max_value=1e20), st.integers(0, 4))
def test_english_rounds_exactly_as_python_writes_a_float(value, places):
    """CLDR's marks, Python's rounding of the float's exact value (2.675 is stored as 2.67499…)."""
    python = f"{value:,.{places}f}"
    expected = python.lstrip("-") if float(python.replace(",", "")) == 0 else python
    assert decimal(value, places, lang="en") == expected
    assert decimal(value, places, lang="fr") == expected.replace(",", NNBSP).replace(".", ",")


def test_rounding_follows_the_stored_float():
    assert decimal(2.675, 2, lang="en") == "2.67" and decimal(0.125, 2, lang="en") == "0.12"
    assert percent(0.005, lang="en") == "0%"  # 0.005 * 100 is 0.5, half to even
    assert integer(1e30, lang="en") == "1,000,000,000,000,000,019,884,624,838,656"


def test_a_language_is_written_by_its_own_cldr_rules():
    """A language added to the list writes numbers its way with no code; one Babel does not know,
    as English does."""
    assert (decimal(12345.678, lang="de"), percent(0.94, lang="de")) == ("12.345,68", f"94{NBSP}%")
    assert (decimal(12345.678, lang="xx"), percent(0.94, lang="xx")) == ("12,345.68", "94%")


def test_a_score_under_a_threshold_never_reads_as_reaching_it():
    """The passages, the refusals ("best score 0.830 < threshold 0.830") and `rag ask` print a
    score beside a threshold of three decimals: rounded to the nearest, 0.8296 read 0.830."""
    for threshold in (0.817, 0.83, 0.85):
        for score in (threshold - 0.0004, threshold - 0.00001, threshold, threshold + 0.0004):
            shown = read_decimal(score_text(score, lang="en"))
            assert (shown >= round(threshold, 3)) == (score >= threshold), (score, threshold, shown)
