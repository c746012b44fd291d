"""PyTorch for the cross-check tests, imported at its first use rather than when a test file is collected: a run
that leaves the ``torch`` tests out (``scripts/test.sh fast``) does not pay for importing it. Where torch is
absent the test that uses it is skipped; with REQUIRE_TORCH=1 (CI) the session refuses to start instead
(tests/conftest.py)."""

from __future__ import annotations

from types import ModuleType

import pytest

REASON = "the PyTorch cross-check needs torch==2.13.0 (CPU): pip install -e '.[torch]'"


class _OnFirstUse:
    """Stands for a module of PyTorch; the first attribute read imports it (or skips the test)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def _module(self) -> ModuleType:
        return pytest.importorskip(self._name, reason=REASON)

    def __getattr__(self, attribute: str):
        if attribute.startswith("_"):  # pytest's collection asks every module global for such names (__test__, …)
            raise AttributeError(attribute)
        return getattr(self._module(), attribute)


torch = _OnFirstUse("torch")
F = _OnFirstUse("torch.nn.functional")
