#!/usr/bin/env bash
# Tests, in two tiers (README: テスト):
#   bash scripts/test.sh [pytest args]        the whole suite: ruff, math with the PyTorch cross-check, doc values,
#                                             strict builds, notebooks, browser (what CI runs: .ci/run)
#   bash scripts/test.sh fast [pytest args]   the edit loop's tier: every test without one of the markers
#                                             build, browser, torch, repeat or slow (pyproject.toml): math, doc
#                                             values, figures, pages, the site's steps on small inputs
# Both run on TEST_JOBS workers (default 2, pytest-xdist; tests/conftest.py keeps each test file, and the tests
# that share one built site, on one worker). TEST_JOBS=0 runs in this process.
set -euo pipefail
cd "$(dirname "$0")/.."
tier=all
if [ "${1:-}" = fast ]; then
  tier=fast
  shift
fi
jobs="${TEST_JOBS:-2}"
if ! [[ "$jobs" =~ ^[0-9]+$ ]]; then
  echo "TEST_JOBS=$jobs: expected a number of workers (0: no workers)" >&2
  exit 2
fi
bash scripts/setup-venv.sh tests
export NO_MKDOCS_2_WARNING=1  # the suite's dozens of builds do not repeat Material's notice (serve.sh shows it)
.venv/bin/ruff check src tests snippets benchmarks
parallel=(-n "$jobs" --dist loadgroup --no-loadscope-reorder)  # tests/conftest.py orders the groups, longest first
if [ "$jobs" = 0 ]; then
  parallel=(-p no:xdist)
fi
if [ "$tier" = fast ]; then
  # Python's bytecode caches (and pytest's of the rewritten test modules), even where the environment turns them
  # off: without them each worker compiles every module again, a third of this tier's start-up.
  unset PYTHONDONTWRITEBYTECODE
  exec .venv/bin/pytest -q "${parallel[@]}" -m "not (build or browser or torch or repeat or slow)" "$@"
fi
exec .venv/bin/pytest -q "${parallel[@]}" --durations=25 "$@"  # the slowest tests, for whoever speeds the suite up
