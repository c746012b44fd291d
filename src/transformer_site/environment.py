"""Every environment variable the site's build reads, in one place, each validated with a message naming it.

A mistyped value is an error before anything is built (``fresh_build``'s ``on_config`` calls
:func:`problems`), never a raw ``int()`` traceback halfway through, and never silently read as "off".

- ``TRANSFORMER_PREVIEW``: ``1``, ``0`` or unset — a local preview (``scripts/serve.sh``) may skip the appendix's
  PyTorch table;
- ``TRANSFORMER_FIGURE_CACHE``: a folder, ``off`` or unset — where executed blocks' outputs are cached
  (default ``<project>/.cache/figures``);
- ``TRANSFORMER_SITE_NO_EXEC``: ``1``, ``0`` or unset — executed blocks give nothing (the benchmark's floor);
- ``TRANSFORMER_SITE_STOCK_SEARCH``: ``1``, ``0`` or unset — leave Material's search as it is (to compare);
- ``TRANSFORMER_BLOCK_TIME_LIMIT``: seconds (more than 0, at most 3600) or unset — the wall-clock limit of
  one executed block (default 60);
- ``SOURCE_DATE_EPOCH``: whole seconds since 1970 or unset — the date MkDocs writes (reproducible-builds.org);
  unset, the build sets it to the last commit's;
- ``TRANSFORMER_SITE_DATE_FROM_GIT``: ``1`` or unset — set by the build itself: ``SOURCE_DATE_EPOCH`` came
  from git.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


class EnvironmentSettingError(ValueError):
    """An environment variable holds a value the build cannot use; the message names the variable."""


@dataclass(frozen=True)
class Variable:
    name: str
    expected: str  # what a good value looks like, for the message
    parse: Callable[[str], object]  # raw text → value; raises ValueError with the reason
    default: object = False  # the value when unset (or empty, where empty is allowed)
    empty_is_unset: bool = True  # False where another program reads the variable too and fails on ""


def _switch(raw: str) -> bool:
    if raw not in ("0", "1"):
        raise ValueError("not 0 or 1")
    return raw == "1"


def _figure_cache(raw: str) -> Path | None:
    if raw.lower() == "off":
        return None
    path = Path(raw).expanduser()
    if path.exists() and not path.is_dir():
        raise ValueError("names a file, not a folder")
    return path


def _seconds(raw: str) -> float:
    try:
        seconds = float(raw)
    except ValueError:
        raise ValueError("not a number") from None
    if not 0 < seconds <= 3600:  # NaN fails this too
        raise ValueError("not between 0 and 3600 seconds")
    return seconds


def _epoch(raw: str) -> int:
    if not raw.isdigit() or not raw.isascii():
        raise ValueError("not a whole number of seconds")
    return int(raw)


def _ours(raw: str) -> bool:
    if raw != "1":
        raise ValueError("not 1")
    return True


DEFAULT_BLOCK_TIME_LIMIT = 60.0  # the slowest block takes about 2 s of CPU; a busy machine may triple that

VARIABLES = {
    v.name: v
    for v in (
        Variable("TRANSFORMER_PREVIEW", "1 for a local preview (may skip the PyTorch table), 0 or unset", _switch),
        Variable("TRANSFORMER_FIGURE_CACHE", "a folder for the figure cache, or off", _figure_cache, None),
        Variable("TRANSFORMER_SITE_NO_EXEC", "1 to run no executed block (the benchmark's floor), 0 or unset", _switch),
        Variable("TRANSFORMER_SITE_STOCK_SEARCH", "1 to keep Material's own search, 0 or unset", _switch),
        Variable(
            "TRANSFORMER_BLOCK_TIME_LIMIT", "the seconds one executed block may run, e.g. 60", _seconds,
            DEFAULT_BLOCK_TIME_LIMIT,
        ),
        Variable(
            "SOURCE_DATE_EPOCH", "whole seconds since 1970-01-01 UTC, e.g. 1767322245", _epoch, None,
            empty_is_unset=False,  # MkDocs reads it with int(): "" would be a traceback
        ),
        Variable("TRANSFORMER_SITE_DATE_FROM_GIT", "1 (set by the build itself) or unset", _ours),
    )
}  # fmt: skip


def value(name: str) -> object:
    """The parsed value of ``name`` (its default when unset or empty); ``EnvironmentSettingError`` if bad."""
    variable = VARIABLES[name]
    raw = os.environ.get(name)
    if raw is None or (raw == "" and variable.empty_is_unset):
        return variable.default
    try:
        return variable.parse(raw)
    except ValueError as exc:
        raise EnvironmentSettingError(f"{name}={raw!r}: {exc}; expected {variable.expected}") from None


def problems() -> list[str]:
    """One message per variable that holds a bad value (all of them, not just the first)."""
    found = []
    for name in VARIABLES:
        try:
            value(name)
        except EnvironmentSettingError as exc:
            found.append(str(exc))
    return found
