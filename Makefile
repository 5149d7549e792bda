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

test: $(STAMP)  ## the whole test suite (integration tests use Redis on 127.0.0.1:6379 db 13)
	$(BIN)/pytest -q

test-full: $(STAMP)  ## also the full count of soak games (slow)
	$(BIN)/pytest -q --soak-full

bench: $(STAMP)  ## benchmarks: kernel (needs a real Redis) and each game engine
	$(BIN)/python bench/kernel_bench.py
	for f in bench/*_bench.py; do [ "$$f" = bench/kernel_bench.py ] || $(BIN)/python $$f; done

lint: $(STAMP)  ## ruff, mypy (0 errors), the layer contract (import-linter), complexity (no function above 20)
	$(BIN)/ruff check .
	$(BIN)/mypy domain services projections
	$(BIN)/lint-imports
	$(BIN)/xenon --max-absolute C domain services projections
