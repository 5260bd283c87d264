"""Ask: questions answered from the indexed articles, with numbered citations and the passages."""

import streamlit as st

from ui import ask_view
from ui import resources
from ui.present.safe_markdown import escape_link_text

st.title("Ask")
settings = resources.settings()
store = resources.store(settings)
info = resources.collection_info(store, settings.collection)

if not info or not info.get("points"):
    ask_view.load_demo_button(settings, store)
    st.stop()

st.caption(
    f"Answers come only from the collection **{escape_link_text(settings.collection)}**, with [n] citations; "
    "a question no passage matches well enough is refused."
)
ask_view.history()
question = st.chat_input("Ask a question about the articles") or ask_view.chosen_example()
if question:
    ask_view.answer(question, settings, store, info)
else:
    ask_view.example_buttons(store, settings.collection)
