#!/usr/bin/env bash
# Create .venv (if needed) and install the project with the given extras, from pinned versions.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-tests}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade "pip>=24" 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/python -m pip install -q -e ".[${extras}]" 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/python -c "import transformer_math" # fails loudly if the install did not happen
