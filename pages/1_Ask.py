import streamlit as st

st.title("Ask")
st.write("Index a source first, then ask a question about it.")
