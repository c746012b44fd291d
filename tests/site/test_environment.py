"""Every environment variable the site reads is declared in transformer_site.environment and validated there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from transformer_site import environment

REPO = Path(__file__).resolve().parents[2]
# Read by the environment module itself, or only written by the build (never read from a user).
_READ = re.compile(r"""(?:os\.environ\.get|os\.getenv|os\.environ\[|environ\.get)\(?\s*["']([A-Z_]+)["']""")


def test_every_variable_read_in_src_is_declared():
    found = {}
    for path in (REPO / "src").rglob("*.py"):
        for name in _READ.findall(path.read_text(encoding="utf-8")):
            found.setdefault(name, path.relative_to(REPO).as_posix())
    undeclared = {name: where for name, where in found.items() if name not in environment.VARIABLES}
    assert not undeclared, f"read but not validated in transformer_site/environment.py: {undeclared}"


@pytest.mark.parametrize(
    ("name", "raw", "expected"),
    [
        ("TRANSFORMER_PREVIEW", "1", True), ("TRANSFORMER_PREVIEW", "0", False), ("TRANSFORMER_PREVIEW", "", False),
        ("TRANSFORMER_BLOCK_TIME_LIMIT", "2.5", 2.5), ("TRANSFORMER_BLOCK_TIME_LIMIT", "", 60.0),
        ("SOURCE_DATE_EPOCH", "1767322245", 1767322245), ("TRANSFORMER_FIGURE_CACHE", "off", None),
        ("TRANSFORMER_SITE_NO_EXEC", "1", True),
    ],
)  # fmt: skip
def test_good_values(monkeypatch, name, raw, expected):
    monkeypatch.setenv(name, raw)
    assert environment.value(name) == expected


@pytest.mark.parametrize(
    ("name", "raw", "says"),
    [
        ("TRANSFORMER_PREVIEW", "yes", "not 0 or 1"), ("TRANSFORMER_BLOCK_TIME_LIMIT", "nan", "not between"),
        ("TRANSFORMER_BLOCK_TIME_LIMIT", "-1", "not between"), ("TRANSFORMER_BLOCK_TIME_LIMIT", "1e9", "not between"),
        ("SOURCE_DATE_EPOCH", "-5", "not a whole number"), ("SOURCE_DATE_EPOCH", "", "not a whole number"),
        ("SOURCE_DATE_EPOCH", "１２", "not a whole number"), ("TRANSFORMER_SITE_DATE_FROM_GIT", "yes", "not 1"),
    ],
)  # fmt: skip
def test_bad_values_name_the_variable(monkeypatch, name, raw, says):
    monkeypatch.setenv(name, raw)
    with pytest.raises(environment.EnvironmentSettingError, match=re.escape(f"{name}={raw!r}: {says}")):
        environment.value(name)
    assert any(problem.startswith(f"{name}={raw!r}") for problem in environment.problems())
