# Two entry points: `make run` (the app) and `make test` (the whole suite). Both set up everything.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test install browser bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

run: install
	$(BIN)/streamlit run streamlit_app.py

# The browser test drives Debian's chromium; install it when it is missing.
browser:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium >/dev/null; }

test: install browser
	$(BIN)/python -m pytest

bench: install
	$(BIN)/pip install --quiet -e '.[bench]'

clean:
	rm -rf $(VENV) *.egg-info
