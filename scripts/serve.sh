#!/usr/bin/env bash
# Preview: install the docs extra into .venv, build the site strictly and serve it with live reload on
# http://127.0.0.1:8000/ (TRANSFORMER_SERVE_ADDR=host:port to change it). The first build fails loudly and
# nothing is served when a page is wrong; when a later rebuild fails, the open page shows the errors (page:line,
# block, snippet) and reloads by itself once they are fixed.
#
# PyTorch is not installed here: a preview of a prose edit should not cost a download of hundreds of MB
# (several GB for the CUDA build that a plain "pip install torch" pulls on Linux). So this is a preview build
# (TRANSFORMER_PREVIEW=1): the appendix page says that its measured PyTorch table is missing. A full build without
# torch fails instead; if .venv already has torch (bash scripts/test.sh installs the CPU build), the table is there.
set -euo pipefail
cd "$(dirname "$0")/.."
addr="${TRANSFORMER_SERVE_ADDR:-127.0.0.1:8000}"
if ! [[ "$addr" =~ ^[A-Za-z0-9.:-]+:[0-9]{1,5}$ ]]; then
  echo "TRANSFORMER_SERVE_ADDR=$addr: expected host:port, e.g. 127.0.0.1:8000" >&2
  exit 2
fi
bash scripts/setup-venv.sh docs
export NO_MKDOCS_2_WARNING=1 TRANSFORMER_PREVIEW=1
# --dirty: a prose edit rebuilds its page (and the pages that read it) in a second or two; an edit of src,
# a snippet or the configuration rebuilds the whole site (transformer_site.incremental decides).
exec .venv/bin/mkdocs serve --strict --dirty -a "$addr"
