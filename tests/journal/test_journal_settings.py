"""RAG_JOURNAL_NAMES and RAG_JOURNAL_DAYS as a user writes them."""

import pytest

from rag.config import Settings
from rag.errors import ConfigError


def test_defaults_number_readers_and_keep_ninety_days():
    settings = Settings.from_env({})
    assert settings.journal_names is False and settings.journal_days == 90


@pytest.mark.parametrize("raw, names", [("1", True), ("oui", True), ("True", True), ("0", False), ("non", False)])
def test_names_accept_the_usual_yes_and_no(raw, names):
    assert Settings.from_env({"RAG_JOURNAL_NAMES": raw}).journal_names is names


def test_a_wrong_value_says_which_setting_and_what_to_write():
    with pytest.raises(ConfigError, match="RAG_JOURNAL_NAMES='peut-être'"):
        Settings.from_env({"RAG_JOURNAL_NAMES": "peut-être"})
    with pytest.raises(ConfigError, match="RAG_JOURNAL_DAYS"):
        Settings.from_env({"RAG_JOURNAL_DAYS": "trois mois"})
    assert Settings.from_env({"RAG_JOURNAL_DAYS": "0"}).journal_days == 0
