"""What every page stands in: page config, the access gate, the reader's groups, the sidebar.

streamlit_app.py runs it before the page. Streamlit also knows a `pages/` folder next to the
entry script as an old-style multipage app, and then may run a page file *directly* (the first
request after a server start when the URL names a page; every rerun under AppTest). So each page
begins with ensure(): the gate can never be skipped, and the sidebar is always there.
"""

from __future__ import annotations

import streamlit as st

from ui import access, sidebar
from ui import resources as R

_DONE = "_frame_done"  # set by run() as its last step, consumed by the page's ensure()


def page_config() -> None:
    st.set_page_config(page_title="RAG workbench", page_icon=":material/menu_book:", layout="wide")


def run() -> None:
    page_config()
    auth_mode = access.mode()
    if not access.allowed(auth_mode):
        access.login_screen(auth_mode)
        st.stop()
    access.apply(auth_mode)
    settings = R.settings()
    store = R.store(settings)
    sidebar.render(settings, store, access.signed_in_caption(auth_mode))
    st.session_state[_DONE] = True


def ensure() -> None:
    """Run the frame unless the entry script just did, in this same run."""
    if not st.session_state.pop(_DONE, False):
        run()
        st.session_state.pop(_DONE, None)
