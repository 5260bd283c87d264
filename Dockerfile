# The app: Streamlit dashboard + the `rag` command line. Qdrant runs in its own container
# (docker-compose.yml) and LM Studio on the host.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    RAG_DATA_DIR=/data \
    STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false \
    FORWARDED_ALLOW_IPS=""

WORKDIR /app

# Dependencies first, so editing a page does not reinstall them.
COPY pyproject.toml README.md ./
COPY rag ./rag
RUN pip install .

COPY streamlit_app.py ./
COPY serve.py ./
COPY app_pages ./app_pages
COPY ui ./ui
COPY .streamlit/config.toml ./.streamlit/config.toml

# Run unprivileged; /data is the volume for logs, evaluations and an embedded store.
RUN useradd --create-home --uid 1000 rag && mkdir -p /data && chown rag:rag /data
USER rag

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"

CMD ["streamlit", "run", "serve.py", "--server.address", "0.0.0.0", "--server.port", "8501"]
