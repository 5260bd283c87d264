"""What every page stands in: page config, the access gate, the reader's groups, the sidebar.

streamlit_app.py runs it before the page, on every run: the page files live in app_pages/, not
in a `pages/` folder Streamlit would also serve as an old-style multipage app, so st.navigation
is the only way to reach a page and the gate cannot be skipped.
"""

from __future__ import annotations

from contextlib import suppress

import streamlit as st
from streamlit.errors import StreamlitAPIException

from rag.auth import access as rag_access
from ui import access, lang, sidebar
from ui import resources
from ui.i18n import t


def page_config() -> None:
    # No menu item: with client.toolbarMode = "minimal" Streamlit then draws no menu (its "About",
    # "System / Light / Dark" and "Made with Streamlit" are English) and, in 1.67, nothing at the
    # top right, its "Running..." and "Stop" included. The theme follows the browser's; the app's
    # own spinners and stop button say what runs, in the page's language; the About text is in the
    # sidebar, under its settings (run()).
    st.set_page_config(page_title=t("app.title"), page_icon=":material/menu_book:", layout="wide")


def run() -> None:
    lang.apply()
    lang.hide_english_hints()
    auth_mode = access.mode()
    if not access.allowed(auth_mode):
        access.login_screen(auth_mode)
        st.stop()
    access.apply(auth_mode)
    access.keep_signed_in()
    settings = resources.settings()
    store = resources.store(settings)
    sidebar.render(settings, store, access.signed_in_caption(auth_mode),
                   access.exposure_warning(auth_mode) or access.key_warning(auth_mode))
    access.sign_out_button(auth_mode)
    st.sidebar.caption(t("app.about"))


def require(action: str) -> None:
    """Refuse the page unless the signed-in role may do `action`. The navigation lists only the
    role's pages; a page never relies on that alone."""
    if not rag_access.can(resources.role(), action):
        # A reader reaches it by a link (the navigation does not list it): say what it is and how
        # to become an editor in this sign-in mode, and draw nothing else.
        st.error(t("access.editors_only_oidc" if access.mode() == "oidc" else "access.editors_only",
                   sign_out=t("login.sign_out"), ask=t("nav.ask")))
        # A reader's navigation lists one page, so the sidebar shows none: the way back is here
        # (a page file run on its own, outside the navigation, has no other page to link to).
        with suppress(StreamlitAPIException):
            st.page_link("app_pages/1_Ask.py", label=t("nav.ask"), icon=":material/forum:")
        st.stop()
