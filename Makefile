# The front door: `make run` for the demo site, `make test` for every check and test.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Tests run on the machine's PostgreSQL by default; pass DATABASE_URL=sqlite:///... for SQLite.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/cedana_blog
PYTEST_ARGS ?=
# pytest-xdist workers. Django runs the tests that commit (transactional) last, because they leave
# the database empty; xdist's plain `load` keeps that order on each worker. The rehearsals that
# start servers for a whole file (tests/scale, tests/ops) then run in one process, in file order;
# its exit code 5 means PYTEST_ARGS deselected every one of them (the SQLite pass).
TEST_WORKERS ?= 2

.PHONY: help install run serve test test-sqlite lint format messages lock bench clean bench-search audit serve-prod scheduler worker scale-proof lighthouse faults load

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

install: $(VENV)/.installed ## create .venv and install the locked dependencies

$(VENV)/.installed: requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.lock
	touch $@

run: install ## install, migrate, load the demo content and serve http://127.0.0.1:8000 with the scheduler and the task worker
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo --address 127.0.0.1:8000 --prepare-pictures
	@echo "Site: http://127.0.0.1:8000/blog/  Admin: http://127.0.0.1:8000/admin/ (admin / admin)"
	trap 'kill 0' EXIT; $(PY) manage.py run_scheduler & $(PY) manage.py db_worker --backend background & $(PY) manage.py runserver 127.0.0.1:8000

test: install ## run lint, Django checks, migrations check and every test with coverage
	bash .ci/services.sh
	VENV=$(VENV) bash .ci/audit.sh
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PY) manage.py check
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PY) manage.py makemigrations --check --dry-run
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(VENV)/bin/pytest -n $(TEST_WORKERS) --ignore=tests/scale --ignore=tests/ops --cov --cov-report= --durations=30 $(PYTEST_ARGS)
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(VENV)/bin/pytest -n0 tests/scale tests/ops --cov --cov-append --cov-report=term $(PYTEST_ARGS) || [ $$? -eq 5 ]

# The demo's embedded database (SQLite): the tests where the database makes a difference (search
# has its own SQLite backend, the scheduler's locking, the demo, what readers may see, the caches,
# listings and query budgets, the importer's transactions, settings). PostgreSQL's pass runs these
# and every other test.
SQLITE_TESTS ?= tests/search tests/test_no_leak.py tests/blog/test_demo_site.py \
	tests/blog/test_scheduler.py tests/blog/test_cache.py tests/blog/test_listing.py \
	tests/blog/test_query_budget.py tests/blog/importing/test_import_rules.py \
	tests/blog/importing/test_wordpress.py tests/test_library_adapters.py tests/config
SQLITE_URL ?= sqlite:///$(CURDIR)/var/ci-sqlite.sqlite3
test-sqlite: install ## Django checks, migrations check and the database-sensitive tests on SQLite
	DATABASE_URL=$(SQLITE_URL) $(PY) manage.py check
	DATABASE_URL=$(SQLITE_URL) $(PY) manage.py makemigrations --check --dry-run
	DATABASE_URL=$(SQLITE_URL) $(VENV)/bin/pytest -n $(TEST_WORKERS) -m "not browser and not scale and not faults and not slow" $(SQLITE_TESTS)

audit: install ## check the locked dependencies for known vulnerabilities (pip-audit)
	VENV=$(VENV) bash .ci/audit.sh

serve-prod: install ## one production app server: gunicorn with config/gunicorn.py (env: SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, ...)
	DJANGO_SETTINGS_MODULE=config.settings.production $(VENV)/bin/gunicorn -c config/gunicorn.py config.wsgi

scheduler: install ## the scheduler process (run one or more, next to the app servers)
	DJANGO_SETTINGS_MODULE=config.settings.production $(PY) manage.py run_scheduler

worker: install ## the task worker: runs the imports confirmed in the admin (one or more, next to the app servers)
	DJANGO_SETTINGS_MODULE=config.settings.production $(PY) manage.py db_worker --backend background

scale-proof: install ## two app servers + two schedulers on loopback with S3 and Redis: checks and a wrk table
	bash .ci/services.sh
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PY) -m tests.scale.proof

faults: install ## PostgreSQL restarted, Redis stopped, scheduler killed: private servers on loopback, a table
	$(PY) -m tests.ops.faults

# LOAD_ARGS="--duration 10 --soak 60" runs the memory soak as well.
LOAD_ARGS ?= --duration 10
load: install ## mixed reader traffic against gunicorn + a private PostgreSQL: 5xx, p50/p95/p99, worker memory
	$(PY) -m tests.ops.load $(LOAD_ARGS)

lighthouse: install ## Lighthouse scores for /blog/, a post and one without a hero picture, served as in production
	bash .ci/services.sh
	VENV=$(VENV) bash tests/browser/lighthouse.sh

lint: install ## ruff lint and format check
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: install ## apply ruff fixes and formatting
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

messages: install ## compile the admin's wording (config/locale/en/LC_MESSAGES/django.po) into its committed .mo
	$(PY) manage.py compilemessages --locale en --ignore '$(VENV)' --ignore node_modules

lock: ## re-resolve the dependencies from pyproject.toml into requirements.lock
	rm -rf /tmp/lock-venv && $(PYTHON) -m venv /tmp/lock-venv
	/tmp/lock-venv/bin/pip install --quiet --upgrade pip
	/tmp/lock-venv/bin/pip install --quiet ".[dev]"
	/tmp/lock-venv/bin/pip freeze --exclude cedana-blog > requirements.lock

bench: install ## load reader pages with wrk and time admin pages on PostgreSQL and SQLite (1,000 and 10,000 posts; BENCH_ARGS=--huge adds 100,000)
	bash .ci/services.sh
	$(PY) -m tests.bench.run $(BENCH_ARGS)

# Fresh databases each run: the benchmark adds synthetic posts cumulatively. Each run gets its
# own file cache: Wagtail caches site root paths there, and they belong to one database.
BENCH_PG ?= postgres://postgres@127.0.0.1:5432/cedana_bench_search
BENCH_POSTS ?= 1000,10000
bench-search: install ## time reader search at 1,000 and 10,000 posts on PostgreSQL and SQLite
	dropdb -h 127.0.0.1 -U postgres --if-exists cedana_bench_search && createdb -h 127.0.0.1 -U postgres cedana_bench_search
	DATABASE_URL=$(BENCH_PG) $(PY) manage.py migrate --noinput -v0
	rm -rf var/bench-search-cache && DATABASE_URL=$(BENCH_PG) CACHE_DIR=$(CURDIR)/var/bench-search-cache $(PY) -m tests.bench.command search --posts $(BENCH_POSTS) $(BENCH_ARGS)
	mkdir -p var && rm -f var/bench-search.sqlite3*
	DATABASE_URL=sqlite:///$(CURDIR)/var/bench-search.sqlite3 $(PY) manage.py migrate --noinput -v0
	rm -rf var/bench-search-cache && DATABASE_URL=sqlite:///$(CURDIR)/var/bench-search.sqlite3 CACHE_DIR=$(CURDIR)/var/bench-search-cache $(PY) -m tests.bench.command search --posts $(BENCH_POSTS) $(BENCH_ARGS)

clean: ## remove the virtualenv, the demo database and media
	rm -rf $(VENV) db.sqlite3 media var staticfiles
