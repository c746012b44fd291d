#!/usr/bin/env bash
# The whole test suite: lint, math (with the PyTorch cross-check), doc values, strict build, browser.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-venv.sh tests
export NO_MKDOCS_2_WARNING=1
.venv/bin/ruff check src tests snippets benchmarks
.venv/bin/pytest -q "$@"
