#!/usr/bin/env bash
# Set up localcode on a fresh machine: system libraries, a virtual environment, the package.
# Idempotent: run it again and it only does what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

need_apt=()
"$PYTHON" -c "import ensurepip, venv" 2>/dev/null || need_apt+=("python3-venv")
ldconfig -p 2>/dev/null | grep -q 'libgomp\.so\.1' || need_apt+=("libgomp1")
if [ ${#need_apt[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "setup: installing ${need_apt[*]} with apt-get"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
    else
        echo "setup: missing system packages: ${need_apt[*]} -- install them (e.g. sudo apt-get install ${need_apt[*]}) and run again" >&2
        exit 1
    fi
fi

if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
stamp=.venv/.localcode-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e '.[bench,seccomp,test,dev]'
    touch "$stamp"
fi
