"""Greetings and thanks are not questions: no search, no refusal (rag.answer.small_talk)."""

from __future__ import annotations

import pytest

from rag.answer.small_talk import GOODBYE, GREETING, THANKS, kind_of


@pytest.mark.parametrize("message, kind", [
    ("Bonjour", GREETING), ("bonjour !", GREETING), ("Salut 👋", GREETING), ("Hello", GREETING), ("Hi there!", GREETING),
    ("Merci !", THANKS), ("Merci beaucoup.", THANKS), ("ok, merci", THANKS), ("Thanks a lot", THANKS),
    ("D'accord, merci", THANKS), ("Au revoir", GOODBYE), ("Bonne journée !", GOODBYE), ("bye", GOODBYE),
])
def test_a_message_that_is_only_a_greeting_or_thanks(message, kind):
    assert kind_of(message) == kind


@pytest.mark.parametrize("message", [
    "Bonjour, comment purger les tickets Kerberos ?", "Merci de m'expliquer klist purge", "Hello world en PowerShell ?",
    "", "   ", "klist", "Comment dire bonjour en LDAP ?", "Merci, et pour un compte de service ?",
])
def test_a_question_is_never_small_talk(message):
    assert kind_of(message) is None
