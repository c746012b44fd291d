"""Suite-wide settings. With REQUIRE_TORCH=1 (set by .ci/run) the PyTorch cross-check may not be skipped; with
REQUIRE_BROWSER=1 neither may the browser tests. Any other value than 1, 0 or unset is refused, naming it."""

from __future__ import annotations

import importlib
import os

import pytest


def pytest_sessionstart(session: pytest.Session) -> None:
    for name in ("REQUIRE_TORCH", "REQUIRE_BROWSER"):  # a typo must not turn a required check into a skip
        if os.environ.get(name, "") not in ("", "0", "1"):
            raise pytest.UsageError(f"{name}={os.environ[name]!r}: expected 1 (required), 0 or unset")
    if os.environ.get("REQUIRE_TORCH") != "1":
        return
    try:
        importlib.import_module("torch")
    except ImportError as exc:
        hint = "pip install -e '.[torch]'"
        raise pytest.UsageError(f"REQUIRE_TORCH=1 but torch cannot be imported ({exc}); {hint}") from exc
