#!/usr/bin/env bash
# Create .venv (if needed) and install the project with the given extras, from pinned versions.
# When the extras need PyTorch (tests, torch), 2.13.0 is installed first, and this says from where: a wheel
# already on this machine (pip's find-links), or else the CPU build from PyTorch's own index — PyPI's Linux wheel
# of the same version pulls several GB of CUDA libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-tests}"
case "$extras" in
  docs|figures|torch|tests) ;;
  *) echo "setup-venv.sh: unknown extra '$extras' (docs, figures, torch or tests)" >&2; exit 2 ;;
esac
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# Already installed from this very pyproject.toml with these extras: nothing to do (the install is editable, so
# src edits need none). Saves the edit loop's tier the half minute pip takes to find that out itself.
stamp=".venv/.installed-${extras}"
inputs="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$inputs" ] && .venv/bin/python -c "import transformer_math" 2>/dev/null; then
  exit 0
fi
quiet() { grep -v "^WARNING: Location" || true; }
.venv/bin/python -m pip install -q --upgrade "pip>=24" 2>&1 | quiet
if [ "$extras" = tests ] || [ "$extras" = torch ]; then
  if ! .venv/bin/python -c "import torch" 2>/dev/null; then
    # A wheel of 2.13.0 where this machine's pip looks without an index (its find-links) comes first: no
    # download, and no waiting on an index this machine may not reach. Its dependencies come with the extras.
    if .venv/bin/python -m pip install -q --no-index --no-deps "torch==2.13.0" >/dev/null 2>&1; then
      # (torch cannot be imported yet: its dependencies come with the extras below)
      echo "setup-venv.sh: installed PyTorch $(.venv/bin/python -m pip show torch | sed -n 's/^Version: //p') from a wheel on this machine" >&2
    else
      echo "setup-venv.sh: installing PyTorch 2.13.0, CPU build (download.pytorch.org/whl/cpu)" >&2
      .venv/bin/python -m pip install -q "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu 2>&1 | quiet
    fi
  fi
fi
.venv/bin/python -m pip install -q -e ".[${extras}]" 2>&1 | quiet
.venv/bin/python -c "import transformer_math" # fails loudly if the install did not happen
echo "$inputs" > "$stamp"
