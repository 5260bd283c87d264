# Two entry points: `make run` (the app) and `make test` (the whole suite). Both set up everything.
# `make test-fast` is the tight loop: the suite without the tests marked slow. `make docs` serves the
# documentation site (mkdocs.yml, docs/); `make test` builds it with --strict first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-fast lint docs docs-build install browser wordpress bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

# serve.py: the dashboard with its sign-in cookie routes. FORWARDED_ALLOW_IPS empty: the web server
# trusts no X-Forwarded-For itself; RAG_TRUSTED_PROXIES decides (none by default).
run: install
	FORWARDED_ALLOW_IPS= $(BIN)/streamlit run serve.py

# The browser test drives Debian's chromium at /usr/bin/chromium (Playwright's Python package comes
# with the test extras; no Playwright browser download). Install it when it is missing.
CHROMIUM := /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium >/dev/null; }
	@test -x $(CHROMIUM) || { echo "$(CHROMIUM) is still missing after apt-get install chromium" >&2; exit 1; }

# The real WordPress of the slow tests (tests/fixtures/real_wordpress.py): Debian's packages, started
# by the tests themselves on free ports under a temporary folder (no system service is used).
WP_PACKAGES := wordpress wordpress-l10n mariadb-server php-cli php-mysql
wordpress:
	@dpkg-query -W -f='$${Status}\n' $(WP_PACKAGES) 2>/dev/null | grep -c '^install ok installed' | grep -qx 5 || { \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$(WP_PACKAGES) >/dev/null; }
	@test -f /usr/share/wordpress/wp-settings.php && command -v mariadbd >/dev/null && php -m | grep -qx mysqli || { \
		echo "WordPress, MariaDB or PHP's mysqli is still missing after apt-get install $(WP_PACKAGES)" >&2; exit 1; }

# The linter first: CI (.ci/run) runs `make test`, so it checks the code too (rules in pyproject.toml).
lint: install
	$(BIN)/ruff check .

# argparse's own messages in French (its gettext domain `argparse`): the msgids of this Python's
# argparse.py and of rag/cli/argparse_language.py, merged into the French catalogue, then compiled
# (the .mo is committed; tests/cli/test_argparse_language.py checks both against this Python).
.PHONY: argparse-catalogue
argparse-catalogue: install
	$(BIN)/pybabel extract --no-location --project rag -o $(VENV)/argparse.pot \
		"$$($(BIN)/python -c 'import argparse; print(argparse.__file__)')" rag/cli/argparse_language.py
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -D argparse -l fr -d rag/locale \
		-i $(VENV)/argparse.pot -w 100
	$(BIN)/pybabel compile -D argparse -l fr -d rag/locale --statistics

# The documentation site: --strict turns a broken link, a missing page or an unknown anchor into a
# failure. It builds into site/ (git-ignored). Never with --quiet: it hides the warnings --strict counts.
docs-build: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

test: install browser wordpress lint docs-build
	$(BIN)/python -m pytest

test-fast: install browser
	$(BIN)/python -m pytest -m "not slow"

bench: install
	$(BIN)/pip install --quiet -e '.[bench]'

clean:
	rm -rf $(VENV) *.egg-info site
