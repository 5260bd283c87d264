"""Work done before sign-in was required (open mode: one person, an editor reading everything)
that a signed-in editor no longer sees: said where it is and how to get it back, never hidden
without a word."""

from __future__ import annotations

from typing import Any, Sequence

from rag.evaluate.runs import list_runs
from ui.i18n import tn


def runs_note(settings: Any, groups: Sequence[str] | None) -> str | None:
    """For a session that does not read every document: the evaluation runs made unfiltered (in
    open mode, or by an administrator), which only an administrator may list (their figures count
    every document), with where they are and how to see them; None when there are none."""
    if groups is None:
        return None
    unfiltered = [run for run in list_runs(settings, None) if not isinstance(run.get("groups"), list)]
    if not unfiltered:
        return None
    return tn("eval.runs_before_sign_in", len(unfiltered), path=str(settings.evals_dir))
