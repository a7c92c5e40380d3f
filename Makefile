# The targets README and CI run. `make run` and `make test` each do all set-up on a fresh machine.
VENV := .venv/bin
TASK ?= Write a function `second_largest_unique(nums)` that returns the second largest unique number in a list, or None if fewer than two unique values exist.
MODEL ?= qwen2.5-coder-1.5b
TEST_MODEL ?= qwen2.5-coder-0.5b
export TASK  # handed to the shell as a variable, so backticks in a task stay text

.PHONY: setup run test lint format bench-sandbox bench-engine

setup:
	bash scripts/setup.sh

run: setup
	$(VENV)/localcode models pull $(MODEL)
	$(VENV)/localcode --model $(MODEL) --task "$$TASK"

lint: setup
	$(VENV)/ruff check src tests bench
	$(VENV)/ruff format --check src tests bench
	$(VENV)/mypy

test: lint
	$(VENV)/localcode models pull $(TEST_MODEL)
	LOCALCODE_TEST_MODEL=$(TEST_MODEL) $(VENV)/pytest -ra

format: setup
	$(VENV)/ruff format src tests bench
	$(VENV)/ruff check --fix src tests bench
