"""Suite-wide settings. With REQUIRE_TORCH=1 (set by .ci/run) the PyTorch cross-check may not be skipped."""

from __future__ import annotations

import importlib
import os

import pytest


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("REQUIRE_TORCH") != "1":
        return
    try:
        importlib.import_module("torch")
    except ImportError as exc:
        hint = "pip install -e '.[torch]'"
        raise pytest.UsageError(f"REQUIRE_TORCH=1 but torch cannot be imported ({exc}); {hint}") from exc
