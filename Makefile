# Two commands: `make run` and `make test`. Everything else is a helper for them.
# The system's Python 3.11 before one found on PATH: a distribution builds it with
# profile-guided optimisation, pyenv by default without, and the prints took 9-24 % less
# CPU on Debian's (docs/performance-log.md, session 42). Only where it can make a venv.
SYSTEM_PYTHON := $(shell /usr/bin/python3.11 -c "import ensurepip, venv" 2>/dev/null && echo /usr/bin/python3.11)
PYTHON ?= $(or $(SYSTEM_PYTHON),$(shell command -v python3.11 || command -v python3))
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_WORKERS ?= auto

.PHONY: run hall test lint format serve-prod bench messages release clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(PY)
	$(PIP) install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(PY)
	$(PIP) install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.runtime

run: $(VENV)/.runtime
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py seed_demo --if-empty
	@echo
	@echo "Rommé Ledger is starting on http://$(HOST):$(PORT)/ (stop with Ctrl+C)"
	@# Long exports are tasks: a worker beside the dev server takes them from the database
	@# queue; it reloads on code changes like runserver and stops with it.
	DEBUG=1 $(PY) manage.py db_worker --queue-name "*" & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

# The hall mode: the director's laptop as the server for the phones in the hall (production
# settings, waitress, the data folder, backups; docs/hall.md). The same without make, also on
# Windows and macOS: python -m romme.hall. DATA=<folder> picks another data folder.
hall: $(VENV)/.runtime
	$(PY) -m romme.hall --port $(PORT) $(if $(DATA),--data "$(DATA)")

test: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run
	@# On every core (at most four): pytest-xdist, a test file's tests together in one worker
	@# (their module fixtures and fixed ports stay theirs), the slowest files first
	@# (tests/conftest.py). TEST_WORKERS=0 runs one process.
	@# TEST_ARGS: more pytest options (CI's PostgreSQL pass leaves out what ran on SQLite).
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --maxprocesses 4 --dist loadfile --no-loadscope-reorder $(TEST_ARGS)

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Production-style serving: gunicorn + whitenoise and one task worker for the long exports.
# Set SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL.
serve-prod: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput
	$(PY) manage.py db_worker --no-reload --queue-name "*" & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	$(VENV)/bin/gunicorn romme.wsgi --bind $(HOST):$(PORT) --workers $${WORKERS:-3}

bench: $(VENV)/.dev
	$(PY) -m bench

# Refresh translation catalogues after changing texts (needs GNU gettext).
messages: $(VENV)/.dev
	DEBUG=1 $(PY) manage.py makemessages -l de -l en --ignore=.venv --ignore=staticfiles
	DEBUG=1 $(PY) manage.py compilemessages --ignore=.venv

# The release's artefacts in dist/: the wheel and the sdist (the sdist, then the wheel built
# from it), checked: twine check, the wheel's contents and the version everywhere the same
# (tests/packaging: the package's name and metadata, --version, CHANGELOG.md's first entry).
release: $(VENV)/.dev
	rm -rf dist
	$(PY) -m build --outdir dist .
	$(VENV)/bin/twine check --strict dist/*
	ROMME_DIST=dist $(VENV)/bin/pytest -q -p no:cacheprovider tests/packaging/test_wheel.py \
		tests/packaging/test_cli.py
	@ls -l dist

clean:
	rm -rf $(VENV) staticfiles build dist
