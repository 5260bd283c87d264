"""What a reader sees is plain words: no model name, store folder or LM Studio address, no
threshold or score chart; an editor gets them, and the steps that start LM Studio."""

from __future__ import annotations

from tests.ui.test_app_roles import EDITOR_PASSWORD, READER_PASSWORD, ok, passwords, sidebar_text, sign_in  # noqa: F401


def test_a_reader_sees_no_internals_and_plain_words_on_the_passages(passwords, lmstudio):  # noqa: F811
    lmstudio.down()
    at = sign_in(READER_PASSWORD)
    side = sidebar_text(at)
    assert "multilingual-e5-small" not in side and str(passwords.data_dir) not in side
    assert lmstudio.url.split("/v1")[0].split("//")[1] not in side  # host:port of LM Studio
    assert "LM Studio" in side and "How to start LM Studio" not in [e.label for e in at.sidebar.expander]
    at.chat_input[0].set_value("Quelle commande purge les tickets Kerberos ?").run()
    ok(at)
    [passages] = [e for e in at.expander if "passages found" in e.label]
    assert passages.label == "6 passages found"  # no "· threshold 0.83"
    assert not at.get("plotly_chart")  # the scores chart is the editors'
    shown = "\n".join(m.value for m in passages.markdown)
    assert "close enough" in shown or "too far from the question" in shown
    assert "used" not in shown.split() and "below the threshold" not in shown


def test_an_editor_gets_the_steps_that_start_lm_studio(passwords, lmstudio):  # noqa: F811
    lmstudio.down()
    at = sign_in(EDITOR_PASSWORD)
    [help_box] = [e for e in at.sidebar.expander if e.label == "How to start LM Studio"]
    steps = "\n".join(m.value for m in help_box.markdown)
    assert "1. Open LM Studio and load a chat model" in steps
    assert "2. Start the local server" in steps and "lms server start" in steps
    assert "3. Check the address" in steps and lmstudio.url.rstrip("/") in steps
    side = sidebar_text(at)
    assert "multilingual-e5-small" in side and lmstudio.url.split("//")[1].split("/")[0] in side
