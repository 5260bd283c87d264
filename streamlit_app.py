"""Entry point: the reader's language, navigation over app_pages/, then the frame (page config,
access gate, sidebar)."""

import streamlit as st

from ui import access, frame, lang
from ui.i18n import t

lang.apply()
frame.page_config()
pages = [
    st.Page("app_pages/1_Ask.py", title=t("nav.ask"), icon=":material/forum:", default=True),
    st.Page("app_pages/2_Ingest.py", title=t("nav.ingest"), icon=":material/upload_file:"),
    st.Page("app_pages/3_Evaluate.py", title=t("nav.evaluate"), icon=":material/analytics:"),
]
page = st.navigation(pages, position="sidebar" if access.allowed(access.mode()) else "hidden")
frame.run()
page.run()
