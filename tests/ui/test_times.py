"""The journal's UTC times on the reader's clock, as the reader's language writes them
(ui.present.times, rag.i18n.dates): "1 déc. 2026, 20:04", never "2026-12-01 20:04"."""

from __future__ import annotations

from datetime import date, datetime

from rag.i18n import language
from rag.i18n.dates import day_text, minute_text
from ui.present.times import local_day, local_minute


def test_a_utc_time_reads_on_the_browsers_clock_or_says_utc():
    asked = "2026-12-01T17:46:05.123456+00:00"
    with language("en"):
        assert local_minute(asked, "Europe/Paris") == "1 Dec 2026, 18:46"
        assert local_minute("2026-07-01T17:46:00+00:00", "Europe/Paris") == "1 Jul 2026, 19:46"  # summer time
        assert local_minute(asked, "America/New_York") == "1 Dec 2026, 12:46"
        assert local_minute(asked, None) == "1 Dec 2026, 17:46 UTC"
        assert local_minute(asked, "Nowhere/Atlantis") == "1 Dec 2026, 17:46 UTC"
        assert local_minute("2026-12-01T23:30:00", "Europe/Paris") == "2 Dec 2026, 00:30"  # no zone: UTC, the next day
        assert local_minute("pas une date", "Europe/Paris") == "pas une date"
        assert local_day("2026-12-01T23:30:00+00:00", "Europe/Paris") == "2 Dec 2026"


def test_a_french_reader_reads_french_dates():
    with language("fr"):
        assert local_minute("2026-12-01T19:04:00+00:00", "Europe/Paris") == "1 déc. 2026, 20:04"
        assert local_day("2026-11-30T10:00:00+00:00", "Europe/Paris") == "30 nov. 2026"
    assert minute_text(datetime(2026, 5, 3, 9, 5), lang="fr") == "3 mai 2026, 09:05"
    assert day_text(date(2026, 11, 30), lang="en") == "30 Nov 2026"


def test_the_journals_weeks_are_named_by_their_monday_as_the_reader_writes_a_day():
    """It read "semaine du 2026-11-30"."""
    from ui.present.charts import journal_weeks_chart

    weeks = [{"week": "2026-11-23", "answered": 3, "refused": 1, "up": 1, "down": 0},
             {"week": "2026-11-30", "answered": 2, "refused": 0, "up": 0, "down": 1}]
    with language("fr"):
        chart = journal_weeks_chart(weeks)
    assert list(chart.data[0].x) == ["23 nov. 2026", "30 nov. 2026"] and chart.layout.xaxis.title.text == "semaine du"
    with language("en"):
        assert list(journal_weeks_chart(weeks).data[0].x) == ["23 Nov 2026", "30 Nov 2026"]
