"""The dashboard with its sign-in cookie: `streamlit run serve.py` (what `make run` and the image
do) serves streamlit_app.py and the two routes that keep a password sign-in across a reload."""

import streamlit as st

from ui.sessions import routes

app = st.App("streamlit_app.py", routes=routes())
