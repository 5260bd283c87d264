"""A local RAG workbench for a technical blog: plain Python, no UI code here."""

__version__ = "0.1.0"
