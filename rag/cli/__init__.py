"""The `rag` command line: main.py builds the parser, one module per command."""
