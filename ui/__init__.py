"""Streamlit helpers shared by the pages: cached resources, the access gate, the sidebar, widgets.

Streamlit code lives here and in pages/; everything it calls is in the plain package `rag`.
"""
