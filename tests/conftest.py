"""Suite-wide settings. With REQUIRE_TORCH=1 (set by .ci/run) the PyTorch cross-check may not be skipped; with
REQUIRE_BROWSER=1 neither may the browser tests. Any other value than 1, 0 or unset is refused, naming it."""

from __future__ import annotations

import importlib
import os

import pytest
from hypothesis import settings

# Property tests judge values, never speed (speed is for the benchmarks): on a shared machine, or with two
# workers, one example may take longer than Hypothesis' default 200 ms deadline.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


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


# ----------------------------------------------------------------------------- parallel runs (pytest-xdist)
# scripts/test.sh runs the suite on two workers with --dist loadgroup. Each test file is one group, so its
# module fixtures (a tiny project, one build of the site for several tests) are made once, on one worker; every
# test that uses the one shared strict build of the site (tests/browser/conftest.py: ``shared_site``) is in a
# single group, so that build is made once per run, not once per worker.
SHARED_SITE_GROUP = "shared-site"


# tryfirst: on a worker, xdist's own pytest_collection_modifyitems reads the xdist_group marks and moves each test
# to its group (it appends "@group" to the node id); a conftest hook runs after it by default, and its marks would
# then be seen by nobody.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        uses_shared_site = "shared_site" in getattr(item, "fixturenames", ())
        group = SHARED_SITE_GROUP if uses_shared_site else item.nodeid.split("::", 1)[0]
        item.add_marker(pytest.mark.xdist_group(group))


def pytest_collection_finish(session: pytest.Session) -> None:
    """On a worker of --dist loadgroup, every test must carry its group in its node id: the scheduler reads the
    group from there. If it does not (a pytest or pytest-xdist upgrade changed how node ids are made), the groups
    are ignored without a word and the shared site is built and walked on every worker: refuse instead."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    ungrouped = [item.nodeid for item in session.items if "@" not in item.nodeid.rsplit("]", 1)[-1]]
    if ungrouped:
        raise pytest.UsageError(
            f"--dist loadgroup: {len(ungrouped)} tests reach the scheduler without their xdist_group "
            f"(first: {ungrouped[0]}); pytest-xdist does not see the groups of tests/conftest.py"
        )
