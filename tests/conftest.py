"""Suite-wide settings. With REQUIRE_TORCH=1 (set by .ci/run) the PyTorch cross-check may not be skipped; with
REQUIRE_BROWSER=1 neither may the browser tests. Any other value than 1, 0 or unset is refused, naming it."""

from __future__ import annotations

import importlib
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

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
# module fixtures (a tiny project, a server on the one shared build of the site) are made once, on one worker;
# the tests that read the browser walk of the site in one view are one group per view (tests/browser/walk.py:
# ``in_views``), so the four walks are shared out among the workers. The shared build itself is made once per
# run, by the first worker that needs it (``shared_build`` below).
#
# The scheduler hands out the groups in the order of the collection (test.sh: --no-loadscope-reorder), each to
# the first worker that runs short: the longest go first, so that no long group is left for the end while the
# other worker stands idle. A walk takes minutes; the first walk builds the shared site, and while it does, the
# other worker makes its own builds (the tests that build a project of their own), then takes the next walk.
# Within each of these ranks the groups go longest first by what they took in the last runs (pytest's cache,
# .pytest_cache): the last groups handed out are then the shortest, and the workers finish together.
FIRST_WALK, OWN_BUILD, WALK, SHARED_SITE, REST = range(5)
SECONDS_KEY = "transformer/group-seconds"  # tier (the -m expression) → group → seconds, setup and teardown included


def _rank(group: str, items: list[pytest.Item], first_walk: str | None) -> int:
    """Where a group goes in the queue: by what its tests need (a group waits for what any of its tests needs)."""
    if group.startswith("walk-"):  # tests/browser/walk.py: group_of
        return FIRST_WALK if group == first_walk else WALK
    if any("shared_build" in getattr(item, "fixturenames", ()) for item in items):  # shared_site needs it too
        return SHARED_SITE
    return OWN_BUILD if any(item.get_closest_marker("build") for item in items) else REST


# tryfirst: on a worker, xdist's own pytest_collection_modifyitems reads the xdist_group marks and moves each test
# to its group (it appends "@group" to the node id); a conftest hook runs after it by default, and its marks would
# then be seen by nobody.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    members: dict[str, list[pytest.Item]] = {}
    group_of: dict[str, str] = {}
    for item in items:
        marker = item.get_closest_marker("xdist_group")
        if marker is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
            marker = item.get_closest_marker("xdist_group")
        group = marker.args[0] if marker.args else marker.kwargs.get("name", "default")  # as xdist reads it
        members.setdefault(group, []).append(item)
        group_of[item.nodeid] = group
    first_walk = next((group for group in members if group.startswith("walk-")), None)  # in collection order
    rank = {group: _rank(group, grouped, first_walk) for group, grouped in members.items()}
    seconds = _group_seconds(config)  # a group not timed yet goes after the timed ones of its rank
    items.sort(key=lambda item: (rank[group_of[item.nodeid]], -seconds.get(group_of[item.nodeid], 0.0)))


def _group_seconds(config: pytest.Config) -> dict[str, float]:
    """What each group took in the last run of this tier (a tier's groups hold fewer tests than the same groups
    in the whole suite)."""
    return _all_seconds(config).get(_tier(config), {})


def _tier(config: pytest.Config) -> str:
    return config.option.markexpr or ""


def _all_seconds(config: pytest.Config) -> dict[str, dict[str, float]]:
    cache = getattr(config, "cache", None)  # None under -p no:cacheprovider: the order of the files
    return cache.get(SECONDS_KEY, {}) if cache is not None else {}


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # a worker's reports reach the controller, which records them
        config.pluginmanager.register(GroupClock(config), "group-clock")


class GroupClock:
    """Adds up each group's time as the reports come in, and keeps it in pytest's cache for the next run's order
    (groups that did not run this time keep their earlier time)."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        group = _group_in_nodeid(report.nodeid)
        if group is not None:  # a grouped run (--dist loadgroup)
            self.seconds[group] = self.seconds.get(group, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        cache = getattr(self.config, "cache", None)
        if cache is not None and self.seconds:
            every, tier = _all_seconds(self.config), _tier(self.config)
            every[tier] = {**every.get(tier, {}), **{group: round(t, 3) for group, t in self.seconds.items()}}
            cache.set(SECONDS_KEY, every)


def _group_in_nodeid(nodeid: str) -> str | None:
    """The group a worker of --dist loadgroup appended to a node id (``…@group``; a ``@`` inside the test's
    parameters does not count), or None."""
    return nodeid.rsplit("@", 1)[1] if "@" in nodeid.rsplit("]", 1)[-1] else None


def pytest_collection_finish(session: pytest.Session) -> None:
    """On a worker of --dist loadgroup, every test must carry its group in its node id: the scheduler reads the
    group from there. If it does not (a pytest or pytest-xdist upgrade changed how node ids are made), the groups
    are ignored without a word and the shared site is built and walked on every worker: refuse instead."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    ungrouped = [item.nodeid for item in session.items if _group_in_nodeid(item.nodeid) is None]
    if ungrouped:
        raise pytest.UsageError(
            f"--dist loadgroup: {len(ungrouped)} tests reach the scheduler without their xdist_group "
            f"(first: {ungrouped[0]}); pytest-xdist does not see the groups of tests/conftest.py"
        )


# ----------------------------------------------------------------------------- the one build of the site
@dataclass(frozen=True)
class SharedBuild:
    project: Path  # the exported project (tests/project_export.py), with its figure cache
    site: Path  # the strict build of it
    log: str  # what the build printed


@pytest.fixture(scope="session")
def shared_build(tmp_path_factory) -> SharedBuild | None:
    """One strict, cold build of the site for the whole run, made in an export of the project (its own folder, a
    fixed commit date, hash seed 1): the browser tests read it, and test_reproducible.py compares it with a second
    cold build. The first worker to need it builds it, under a file lock; the others wait for it and read the same
    folder (pytest-xdist workers share the parent of their basetemp). None when ``SITE_DIR`` names a built site."""
    if os.environ.get("SITE_DIR"):
        return None
    from filelock import FileLock
    from project_export import LOG, export, finish, start_build

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    project, partial, failed = root / "site-project", root / "site-project.partial", root / "site-project.failed"
    with FileLock(root / "site-project.lock"):
        if failed.is_file():  # another worker's build failed: the same message, not a second build
            pytest.fail(failed.read_text(encoding="utf-8"))
        if not project.is_dir():
            start = time.perf_counter()
            shutil.rmtree(partial, ignore_errors=True)
            code, log = finish(start_build(export(partial), "site", "1", strict=True))
            if code != 0:
                message = f"mkdocs build --strict failed:\n{log[-4000:]}"
                failed.write_text(message, encoding="utf-8")
                pytest.fail(message)
            (partial / LOG).write_text(log, encoding="utf-8")
            partial.rename(project)  # whole or not at all: a reader never sees half a site
            print(f"\nshared strict build: {time.perf_counter() - start:.1f} s in {project}")
    return SharedBuild(project, project / "site", (project / LOG).read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def shared_site(shared_build: SharedBuild | None) -> Path:
    """The built site every test that needs one reads: the run's one build, or ``SITE_DIR`` (an already built
    site: the author's own, to test it quickly)."""
    if shared_build is not None:
        return shared_build.site
    site_dir = Path(os.environ["SITE_DIR"])
    assert (site_dir / "index.html").is_file(), f"SITE_DIR={site_dir} holds no built site"
    return site_dir
