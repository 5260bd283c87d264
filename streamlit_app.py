"""Entry point: page config, navigation over pages/, the shared sidebar. Nothing else."""

import streamlit as st

st.set_page_config(page_title="RAG workbench", page_icon="📚", layout="wide")

pages = [
    st.Page("pages/1_Ask.py", title="Ask", icon="💬", default=True),
]
st.navigation(pages).run()
