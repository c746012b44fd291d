"""``python -m transformer_site.checked {check,list,lint,refresh} [paths]`` (default path: docs/)."""

from __future__ import annotations

import argparse
import sys

from .lint import lint_paths, summary
from .refresh import refresh_paths
from .verify import check, collect, describe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m transformer_site.checked", description=__doc__)
    parser.add_argument("command", choices=["check", "list", "lint", "refresh"])
    parser.add_argument("paths", nargs="*", default=["docs"], help="Markdown files or folders (default: docs)")
    args = parser.parse_args(argv)
    if args.command == "lint":
        problems = lint_paths(args.paths)
        for problem in problems:
            print(problem)
        print(f"lint: {len(problems)} problem(s); {summary(args.paths)}", file=sys.stderr)
        return 1 if problems else 0
    if args.command == "refresh":
        changes, errors = refresh_paths(args.paths)
        for change in changes:
            print(change)
        for error in errors:
            print(error, file=sys.stderr)
        print(f"{len(changes)} literal(s) rewritten, {len(errors)} error(s) left", file=sys.stderr)
        return 1 if errors else 0
    outcomes = [check(number) for number in collect(args.paths)]
    failed = [o for o in outcomes if not o.ok]
    for outcome in outcomes if args.command == "list" else failed:
        print(describe(outcome) if args.command == "list" else outcome.message)
    print(f"{len(outcomes)} checked number(s), {len(failed)} failing", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
