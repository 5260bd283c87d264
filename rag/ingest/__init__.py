"""Ingestion: the run that reads a source and writes points (run.py), with resumable progress; its pure
decisions beside it (versions, strategy choice, payloads, vector checks, the window's cut) and what it reports."""
