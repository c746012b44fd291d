"""``python -m transformer_site.checked {check,list,lint,refresh} [paths]`` (default path: docs/).

``lint --code-names [--figures]`` lists the code names in lesson pages (``code_names``) at page.md:line; it fails
only once the rule is enforced (``code_names.ENFORCED``), as ``lint`` itself then does."""

from __future__ import annotations

import argparse
import sys

from . import code_names
from .lint import lint_paths, summary
from .refresh import refresh_paths
from .verify import check, collect, describe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m transformer_site.checked", description=__doc__)
    parser.add_argument("command", choices=["check", "list", "lint", "refresh"])
    parser.add_argument("paths", nargs="*", default=["docs"], help="Markdown files or folders (default: docs)")
    parser.add_argument(
        "--code-names", action="store_true", help="lint: list the code names in lesson pages (prose, tooltips …)"
    )
    parser.add_argument(
        "--figures", action="store_true", help="lint: also run lesson pages' executed blocks and read their output"
    )
    args = parser.parse_intermixed_args(argv)
    if args.command == "lint" and args.code_names:
        return _code_names(args.paths, args.figures)
    if args.command == "lint":
        problems = lint_paths(args.paths)
        if args.figures and code_names.ENFORCED:  # the pages' text is part of lint_paths once enforced
            problems += code_names.find(args.paths, pages=False, figures=True)
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


def _code_names(paths: list[str], figures: bool) -> int:
    try:
        found = code_names.find(paths, figures=figures)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    for name in found:
        print(name)
    pages = len({name.path for name in found})
    state = "enforced" if code_names.ENFORCED else "reported only (code_names.ENFORCED is False)"
    read = "prose, tooltip labels and block outputs" if figures else "prose and tooltip labels (--figures: outputs too)"
    print(f"code names: {len(found)} in {pages} lesson page(s), read in {read}; {state}", file=sys.stderr)
    return 1 if found and code_names.ENFORCED else 0


if __name__ == "__main__":
    sys.exit(main())
