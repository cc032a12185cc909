# Embedded mode: `make run`. Tests: `make test` (all), `make test-fast` (the inner loop).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist: tests/conftest.py groups the tests that share a server or the shared PostgreSQL and
# Redis onto one worker each (--dist loadgroup), in the order it sorts them in. Three workers on two
# cores: the whole suite spends half its time waiting on servers, sockets and pages, and a third
# worker fills that (the figures: docs/TESTING.md).
WORKERS ?= 3
# Python may cache compiled modules (and pytest its assertion-rewritten tests): a machine that
# forbids it (PYTHONDONTWRITEBYTECODE, set on ours) recompiles the project in every process the
# tests start, every xdist worker, server, shell and bench (the figures: docs/TESTING.md).
unexport PYTHONDONTWRITEBYTECODE
# A worker that crashes (a segfault seen once in the interpreter) ends the run as a failure: when
# xdist replaced one, its scheduler never handed out the rest and the run hung.
PARALLEL ?= -n $(WORKERS) --dist loadgroup --no-loadscope-reorder --max-worker-restart 0
PARALLEL_FAST ?= $(PARALLEL)

.PHONY: run test test-fast install migrate demo messages clean

$(BIN)/activate: requirements.txt
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements.txt
	touch $(BIN)/activate

install: $(BIN)/activate

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo_data

# DEBUG is off unless asked for (`DEBUG=1 make run`): whitenoise serves the collected, hashed files.
run: demo
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(BIN)/python -m config.serve --host $(HOST) --port $(PORT)

test: install
	@# chromium for the browser tests, nginx for deploy/nginx.conf's (tests/scaled/test_proxy.py),
	@# promtool (prometheus) and systemd-analyze (systemd) for deploy/'s (tests/ops/test_deploy.py)
	@test -x /usr/bin/chromium -a -x /usr/sbin/nginx -a -x /usr/bin/promtool -a -x /usr/bin/systemd-analyze || \
		(apt-get update && apt-get install -y --no-install-recommends chromium nginx prometheus systemd)
	test -d node_modules/axe-core || npm ci --no-audit --no-fund
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest $(PARALLEL) --durations=25

# The inner loop: engine, bots, services, sockets, views; no browser, no servers in subprocesses
# (tests/conftest.py marks those by directory and by what their module runs).
test-fast: install
	$(BIN)/pytest $(PARALLEL_FAST) -m "not browser and not scaled and not e2e"

# Recompile translations (needs gettext; the compiled .mo files are committed).
messages:
	$(BIN)/python manage.py makemessages -l pl -l bg -l de --ignore=.venv --ignore=tests
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) db.sqlite3*
