"""The journal's UTC times on the reader's clock (ui.present.times)."""

from __future__ import annotations

from ui.present.times import local_minute


def test_a_utc_time_reads_on_the_browsers_clock_or_says_utc():
    asked = "2026-12-01T17:46:05.123456+00:00"
    assert local_minute(asked, "Europe/Paris") == "2026-12-01 18:46"
    assert local_minute("2026-07-01T17:46:00+00:00", "Europe/Paris") == "2026-07-01 19:46"  # summer time
    assert local_minute(asked, "America/New_York") == "2026-12-01 12:46"
    assert local_minute(asked, None) == "2026-12-01 17:46 UTC"
    assert local_minute(asked, "Nowhere/Atlantis") == "2026-12-01 17:46 UTC"
    assert local_minute("2026-12-01T23:30:00", "Europe/Paris") == "2026-12-02 00:30"  # no zone: UTC, the next day
    assert local_minute("pas une date", "Europe/Paris") == "pas une date"
