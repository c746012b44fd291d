#!/usr/bin/env bash
# Build the site strictly, then serve it with live reload on http://127.0.0.1:8000/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-venv.sh docs
export NO_MKDOCS_2_WARNING=1
.venv/bin/mkdocs build --strict
exec .venv/bin/mkdocs serve --strict -a 127.0.0.1:8000
