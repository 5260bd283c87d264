"""Ask: questions answered from the indexed articles, with numbered citations and the passages."""

import streamlit as st

from ui import ask_view, conversations
from ui.i18n import t
from ui import resources
from ui.present.safe_markdown import escape_link_text

st.title(t("ask.title"))
settings = resources.settings()
store = resources.store(settings)
conversations.restore_from_address(settings, ask_view.HISTORY, ask_view.ASKED)
conversations.show_notice()
info = resources.collection_info(store, settings.collection)

if not info or not info.get("points"):
    ask_view.load_demo_button(settings, store)
    conversations.sidebar_list(settings, ask_view.HISTORY, ask_view.ASKED)
    st.stop()

intro, new = st.columns([3, 1], vertical_alignment="center")
intro.caption(t("ask.caption", name=escape_link_text(settings.collection)))
ask_view.finish_stopped(settings)
# The example buttons' place, drawn before the answer: a question empties it at once, where the
# buttons would otherwise linger, greyed, under the streaming answer until the run ends.
examples = st.empty()
question = st.chat_input(t("ask.input")) or ask_view.chosen_example()
ask_view.history(settings, compact_all=bool(question), info=info)
if question:
    ask_view.answer(question, settings, store, info)
else:
    ask_view.example_buttons(store, settings.collection, examples)
with new:  # drawn last: after a first question it is already usable
    ask_view.new_conversation_button()
conversations.sidebar_list(settings, ask_view.HISTORY, ask_view.ASKED)  # last: it lists this run's turn
conversations.keep_in_address(settings.collection)
