"""Streamlit helpers shared by the pages: cached resources, the access gate, the sidebar, widgets.

Streamlit code lives here and in app_pages/; everything it calls is in the plain package `rag`;
ui/present turns its results into rows, Markdown and charts without importing streamlit.
"""
