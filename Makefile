# The front door: `make run` for the demo site, `make test` for every check and test.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Tests run on the machine's PostgreSQL by default; pass DATABASE_URL=sqlite:///... for SQLite.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/cedana_blog
PYTEST_ARGS ?=

.PHONY: help install run serve test lint format lock bench clean lighthouse

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

install: $(VENV)/.installed ## create .venv and install the locked dependencies

$(VENV)/.installed: requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.lock
	touch $@

run: install ## install, migrate, load the demo content and serve http://127.0.0.1:8000 with the scheduler
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	@echo "Site: http://127.0.0.1:8000/blog/  Admin: http://127.0.0.1:8000/admin/ (admin / admin)"
	trap 'kill 0' EXIT; $(PY) manage.py run_scheduler & $(PY) manage.py runserver 127.0.0.1:8000

test: install ## run lint, Django checks, migrations check and every test with coverage
	bash .ci/services.sh
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PY) manage.py check
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PY) manage.py makemigrations --check --dry-run
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(VENV)/bin/pytest --cov --cov-report=term $(PYTEST_ARGS)

lighthouse: install ## Lighthouse scores for /blog/ and a post, served as in production (gunicorn, DEBUG off)
	bash .ci/services.sh
	VENV=$(VENV) bash tests/browser/lighthouse.sh

lint: install ## ruff lint and format check
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install ## apply ruff fixes and formatting
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

lock: ## re-resolve the dependencies from pyproject.toml into requirements.lock
	rm -rf /tmp/lock-venv && $(PYTHON) -m venv /tmp/lock-venv
	/tmp/lock-venv/bin/pip install --quiet --upgrade pip
	/tmp/lock-venv/bin/pip install --quiet ".[dev]"
	/tmp/lock-venv/bin/pip freeze --exclude cedana-blog > requirements.lock

clean: ## remove the virtualenv, the demo database and media
	rm -rf $(VENV) db.sqlite3 media var staticfiles
