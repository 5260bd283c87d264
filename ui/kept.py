"""Widgets whose value outlives the runs where they are not drawn.

Streamlit forgets a widget's value when a run does not draw it: switching the ingest source to
an empty "pasted text" stops the page before the chunk settings, and they came back empty.
Here the value lives under its own session key and the widget is set from it before it is
drawn. That also keeps it when a widget's identity changes (a page file run directly, see
ui.frame), and lets a page change the value (a new collection) before the widget is drawn.
"""

from __future__ import annotations

from typing import Any, Callable

import streamlit as st


def kept(widget: Callable[..., Any], label: str, name: str, key: str, default: Any = None, **kwargs: Any) -> Any:
    """`widget(label, key=key, **kwargs)` editing the session value `name` (first `default`)."""
    st.session_state.setdefault(name, default)
    st.session_state[key] = st.session_state[name]

    def copy() -> None:
        st.session_state[name] = st.session_state[key]
        if on_change is not None:
            on_change()

    on_change = kwargs.pop("on_change", None)
    return widget(label, key=key, on_change=copy, **kwargs)
