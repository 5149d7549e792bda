# Set-up is automatic: every target creates .venv and installs the project first when needed.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: serve test test-full bench lint

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

bench: $(STAMP)  ## benchmarks: kernel (needs a real Redis) and each game engine
	$(BIN)/python bench/kernel_bench.py
	for f in bench/*_bench.py; do [ "$$f" = bench/kernel_bench.py ] || $(BIN)/python $$f; done

lint: $(STAMP)
	$(BIN)/mypy domain
