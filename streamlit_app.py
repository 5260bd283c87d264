"""Entry point: the reader's language, navigation over app_pages/, then the frame (page config,
access gate, sidebar)."""

import streamlit as st

from ui import access, frame, journal_view, lang, resources
from ui.i18n import t

lang.apply()
frame.page_config()
auth_mode = access.mode()
signed_in = access.allowed(auth_mode)
# Signed in, only the pages the role may open are listed, and so reachable (each page checks
# too). Before sign-in every page is known, so a link to one survives the login screen, which
# the frame shows whatever page was asked for.
pages = [st.Page("app_pages/1_Ask.py", title=t("nav.ask"), icon=":material/forum:", default=True)]
if not signed_in or access.page_allowed_for(auth_mode, "ingest"):
    pages.append(st.Page("app_pages/2_Ingest.py", title=t("nav.ingest"), icon=":material/upload_file:"))
if not signed_in or access.page_allowed_for(auth_mode, "evaluate"):
    pages.append(st.Page("app_pages/3_Evaluate.py", title=t("nav.evaluate"), icon=":material/analytics:"))
if not signed_in or access.page_allowed_for(auth_mode, "journal"):
    pages.append(st.Page("app_pages/4_Journal.py", title=t("nav.journal"), icon=":material/history:"))
page = st.navigation(pages, position="sidebar" if signed_in else "hidden")
frame.run()
journal_view.at_start(resources.settings())
page.run()
