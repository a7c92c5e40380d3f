# Shortcuts for the scripts README and CI run; each does all set-up on a fresh machine.
.PHONY: setup run test lint format

setup:
	bash scripts/setup.sh

run:
	bash scripts/run.sh

test:
	bash scripts/test.sh

lint: setup
	.venv/bin/ruff check src tests bench
	.venv/bin/ruff format --check src tests bench
	.venv/bin/mypy

format: setup
	.venv/bin/ruff format src tests bench
	.venv/bin/ruff check --fix src tests bench
