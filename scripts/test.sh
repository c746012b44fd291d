#!/usr/bin/env bash
# Tests, in two tiers (README: テスト):
#   bash scripts/test.sh [pytest args]        the whole suite: ruff, math with the PyTorch cross-check, doc values,
#                                             strict builds, notebooks, browser (what CI runs: .ci/run)
#   bash scripts/test.sh fast [pytest args]   the edit loop's tier: ruff, math, doc values (checked numbers,
#                                             questions, labels), lint, figures rendered once; no build, no
#                                             browser, no torch, no repeat-to-compare determinism tests
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
  exec .venv/bin/pytest -q "${parallel[@]}" tests/math tests/docs tests/figures tests/site/test_checked_lint.py \
    --ignore tests/math/test_backward_vs_torch.py --ignore tests/math/test_block_vs_torch.py \
    -k "not torch" -m "not repeat" "$@"
fi
exec .venv/bin/pytest -q "${parallel[@]}" --durations=25 "$@"  # the slowest tests, for whoever speeds the suite up
