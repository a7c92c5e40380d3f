#!/usr/bin/env bash
# README's second command, and CI's: set everything up, lint and type-check, fetch the small model,
# run the whole test suite (the real-model tests included, with the 0.5B model).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
.venv/bin/mypy
TEST_MODEL=${TEST_MODEL:-qwen2.5-coder-0.5b}
.venv/bin/localcode models pull "$TEST_MODEL"
LOCALCODE_TEST_MODEL="$TEST_MODEL" .venv/bin/pytest -ra "$@"
