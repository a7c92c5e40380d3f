#!/usr/bin/env bash
# README's first command: set everything up, fetch and verify the model, run the agent on a task.
#   bash scripts/run.sh                                   # the demo task, default model
#   bash scripts/run.sh --task 'Write `is_prime(n)` ...'  # any localcode flags
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
MODEL=${MODEL:-qwen2.5-coder-1.5b}
.venv/bin/localcode models pull "$MODEL"
if [ $# -eq 0 ] && [ -n "${TASK:-}" ]; then
    set -- --task "$TASK"
fi
exec .venv/bin/localcode --model "$MODEL" "$@"
