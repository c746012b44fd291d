"""Time to collect and check every checked number on the site (target ≤ 2 s); not a timed test.

    .venv/bin/python benchmarks/collect_checked.py [docs]

Prints the import of the citable namespace (the eight forward passes), the scan of the pages and the
evaluation of every expression separately, then the total.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    docs = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    t0 = time.perf_counter()
    from transformer_site.checked import check, collect
    from transformer_site.citable import NAMES

    t1 = time.perf_counter()
    numbers = collect([docs], root=ROOT)
    t2 = time.perf_counter()
    outcomes, costs = [], []
    for number in numbers:
        start = time.perf_counter()
        outcomes.append(check(number))
        costs.append((time.perf_counter() - start, number))
    t3 = time.perf_counter()
    checked = sum(n.expression is not None for n in numbers)
    pages = len({n.path for n in numbers})
    failing = sum(not o.ok for o in outcomes)
    print(f"{checked} checked numbers and {len(numbers) - checked} exemptions on {pages} pages; {failing} failing")
    print(f"import citable ({len(NAMES)} names): {t1 - t0:.3f} s")
    print(f"scan pages:                  {t2 - t1:.3f} s")
    print(f"evaluate and compare:        {t3 - t2:.3f} s")
    print(f"total:                       {t3 - t0:.3f} s (target ≤ 2 s)")
    start = time.perf_counter()
    for number in numbers:
        check(number)
    print(f"evaluate and compare again:  {time.perf_counter() - start:.3f} s (lazily computed values now cached)")
    print("slowest expressions (the first use of a name pays for what it computes lazily):")
    for cost, number in sorted(costs, key=lambda c: -c[0])[:5]:
        print(f"  {cost:.3f} s  {number.location}  {number.expression}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
