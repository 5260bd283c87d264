"""Entry point: the reader's language, navigation over app_pages/, then the frame (page config,
access gate, sidebar)."""

import streamlit as st

from ui import access, frame, journal_view, lang, resources
from ui.i18n import t

lang.apply()
frame.page_config()
auth_mode = access.mode()
signed_in = access.allowed(auth_mode)
# Signed in, the pages the role may not open stay known but unlisted: a reader following a link to
# one gets that page's own refusal, which says what it is for and how to sign in as an editor
# (each page checks the role before drawing anything), not Streamlit's English "Page not found".
# Before sign-in every page is known too, so a link to one survives the login screen, which the
# frame shows whatever page was asked for.
def shown(action: str) -> str:
    return "visible" if not signed_in or access.page_allowed_for(auth_mode, action) else "hidden"


pages = [
    st.Page("app_pages/1_Ask.py", title=t("nav.ask"), icon=":material/forum:", default=True),
    st.Page("app_pages/2_Ingest.py", title=t("nav.ingest"), icon=":material/upload_file:", visibility=shown("ingest")),
    st.Page("app_pages/3_Evaluate.py", title=t("nav.evaluate"), icon=":material/analytics:",
            visibility=shown("evaluate")),
    st.Page("app_pages/4_Journal.py", title=t("nav.journal"), icon=":material/history:", visibility=shown("journal")),
]
page = st.navigation(pages, position="sidebar" if signed_in else "hidden")
frame.run()
journal_view.at_start(resources.settings())
page.run()
