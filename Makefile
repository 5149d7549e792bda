# Set-up is automatic: every target creates .venv and installs the project first when needed.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: serve test test-full bench arena tune-heaven-and-ale lint lint-client i18n-extract i18n-update i18n-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

serve: $(STAMP)  ## run the whole service (embedded Redis unless REDIS_URL is set)
	$(BIN)/taproom serve

# Two xdist workers (the machine has two cores; much of the suite waits on Redis, HTTP and subprocesses).
# Each worker uses its own Redis database: REDIS_TEST_URL's (13 by default) plus the worker's index.
# Plain `pytest` stays serial.
XDIST ?= -n 2 --dist loadgroup

test: $(STAMP)  ## the whole test suite (integration tests use Redis on 127.0.0.1:6379 dbs 13 and 14)
	$(BIN)/pytest -q $(XDIST)

test-full: $(STAMP)  ## also the full count of soak games (slow)
	$(BIN)/pytest -q $(XDIST) --soak-full

bench: $(STAMP)  ## benchmarks: kernel and Redis calls per command (a private redis-server, or BENCH_REDIS_URL) and each game engine
	$(BIN)/python bench/kernel_bench.py
	$(BIN)/python bench/redis_calls.py
	for f in bench/*_bench.py; do [ "$$f" = bench/kernel_bench.py ] || $(BIN)/python $$f; done

arena: $(STAMP)  ## the standard bot arena (each game: search-greedy, search-random, greedy-random), appended to bench/strength_history.csv
	$(BIN)/python bench/arena.py --standard --uncapped --jobs 2 --history

tune-heaven-and-ale: $(STAMP)  ## refit the Heaven & Ale evaluation by seeded self-play (writes domain/heaven_and_ale/weights.py)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/tune_heaven_and_ale.py --generations 4 --games 60 --every 2 --jobs 2 --write

lint: $(STAMP) lint-client  ## ruff (complexity: no function above 15 by mccabe), mypy (0 errors, bench/ included; --strict on domain/ and projections/), the layer contract (import-linter), xenon (radon: no function above grade C, 20), the client's ESLint
	$(BIN)/ruff check .
	$(BIN)/mypy domain services projections bench
	$(BIN)/mypy --strict domain projections
	$(BIN)/lint-imports
	$(BIN)/xenon --max-absolute C domain services projections

# The web client's own tools (services/web/package.json, lockfile committed): ESLint from the npm registry.
# Running Taproom needs no Node; without npm this lint is skipped with a note, except in CI, where it fails.
CLIENT := services/web

$(CLIENT)/node_modules/.ci-stamp: $(CLIENT)/package-lock.json
	cd $(CLIENT) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint-client:  ## the web client's lint (ESLint on services/web; needs node and npm)
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(CLIENT)/node_modules/.ci-stamp && \
		cd $(CLIENT) && npx --no-install eslint .; \
	elif [ -n "$$CI" ]; then echo "CI lints the web client: node and npm are missing" >&2; exit 1; \
	else echo "lint-client skipped: no npm here (apt-get install nodejs npm)"; fi

# Translations (issue 38). The server's catalogs are gettext .po files under services/locale, read and compiled in
# memory at start (no .mo to keep in step); the web client's are JSON under services/web/static/i18n.
LOCALES := services/locale
i18n-extract: $(STAMP)  ## every server msgid (gettext, ngettext, N_) into services/locale/messages.pot
	$(BIN)/pybabel extract -F $(LOCALES)/babel.cfg -k N_ --no-location --sort-output --project=Taproom \
		--copyright-holder=Taproom -o $(LOCALES)/messages.pot services

i18n-update: i18n-extract  ## the .pot's new msgids into each language's .po (then translate the empty ones)
	$(BIN)/pybabel update -i $(LOCALES)/messages.pot -d $(LOCALES) --no-fuzzy-matching --ignore-obsolete \
		--width 0

i18n-check: $(STAMP)  ## no msgid of the server or the client without a non-empty, non-fuzzy German entry
	$(BIN)/pytest -q -p no:xdist tests/services/test_i18n_catalogs.py
