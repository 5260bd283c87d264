"""Pure presentation helpers for the pages: rows, Markdown, HTML and charts from plain data.

No streamlit here, so they are tested as plain functions."""
