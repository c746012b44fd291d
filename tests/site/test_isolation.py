"""The isolation guard on its own: time limit, writes, processes, and a state that comes back (no build)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import types

import numpy as np
import pytest

from transformer_site.execution.isolation import BlockTimeout, ForbiddenEffectError, Guard, StateBaseline


@pytest.mark.slow  # waits for the time limit
def test_the_time_limit_stops_a_loop_that_catches_exceptions():
    start = time.monotonic()
    guard = Guard("loop", time_limit=0.5)
    with pytest.raises(BlockTimeout, match=r"time limit of 0\.5 s"), guard:
        while True:
            try:
                time.sleep(5)
            except Exception:
                pass
    assert time.monotonic() - start < 3
    assert guard.problems[0].startswith("ran past its time limit")


def test_writes_go_to_the_temporary_folder_only(tmp_path):
    outside = tmp_path / "outside.txt"
    with Guard("w") as guard:
        inside = os.path.join(tempfile.gettempdir(), "ok.txt")
        with open(inside, "w") as f:  # tempfile's folder is the guard's own while it runs
            f.write("fine")
        assert inside.startswith(guard.temp_dir)
        with pytest.raises(ForbiddenEffectError, match="wrote outside its temporary folder"):
            outside.write_text("no")
        for action in (lambda: os.mkdir(tmp_path / "d"), lambda: os.rename(inside, tmp_path / "moved")):
            with pytest.raises(ForbiddenEffectError):
                action()
    assert not outside.exists() and not (tmp_path / "d").exists()
    assert not os.path.exists(guard.temp_dir)  # removed afterwards
    assert len(guard.problems) == 3


def test_a_caught_refusal_still_counts(tmp_path):
    with Guard("w") as guard:
        try:
            open(tmp_path / "x", "a").close()
        except OSError:
            pass
    assert guard.problems and "open for writing" in guard.problems[0]


def test_processes_are_refused_and_other_threads_are_not_watched(tmp_path):
    import threading

    with Guard("p") as guard:
        with pytest.raises(ForbiddenEffectError, match="started a process"):
            subprocess.run([sys.executable, "-c", "pass"])
        other = threading.Thread(target=lambda: (tmp_path / "by-another-thread").write_text("x"))
        other.start()
        other.join()
    assert (tmp_path / "by-another-thread").exists()  # mkdocs serve answering a request is not the block
    assert len(guard.problems) == 1


def _module(name: str, **values) -> types.ModuleType:
    module = types.ModuleType(name)
    vars(module).update(values)
    sys.modules[name] = module
    return module


@pytest.fixture
def library():
    module = _module("probe_library", D_FF=32, BONDS={"a": [1, 2]}, W=np.arange(4.0), _cache={})
    yield module
    del sys.modules["probe_library"]


def test_the_baseline_reports_and_restores_every_kind_of_change(library):
    baseline = StateBaseline(["probe_library"])
    original = library.W
    library.D_FF = 64
    library.BONDS["a"].append(3)
    library.BONDS["b"] = []
    library.W[0] = 9.0
    library.NEW = 1
    library._cache["x"] = 1  # a module's private cache is its own business
    os.environ["PROBE_VARIABLE"] = "1"
    np.random.random()
    changes = baseline.changes()
    assert "probe_library.D_FF: 32 → 64" in changes
    assert "probe_library.NEW (added)" in changes
    assert "probe_library.BONDS['a'] (a list, now [1, 2, 3])" in changes
    assert "probe_library.BONDS['b'] (added)" in changes
    assert "probe_library.W (an array, in place)" in changes
    assert "os.environ" in changes
    assert any(change.startswith("numpy's global random state: draw from np.random.default_rng") for change in changes)
    assert not any("_cache" in change for change in changes)
    baseline.restore()
    assert baseline.changes() == []
    assert library.D_FF == 32 and library.BONDS == {"a": [1, 2]} and not hasattr(library, "NEW")
    assert library.W is original and library.W.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert "PROBE_VARIABLE" not in os.environ


def test_a_guard_blames_only_what_happened_inside_it(library):
    baseline = StateBaseline(["probe_library"])
    library.D_FF = 16  # outside any guard (a test, the build itself): not the next code's doing
    with Guard("clean", baseline=baseline) as clean:
        pass
    assert clean.problems == [] and library.D_FF == 16
    with Guard("dirty", baseline=baseline) as dirty:
        library.D_FF = 8
    assert dirty.problems == ["changed probe_library.D_FF: 16 → 8"] and library.D_FF == 16


def test_a_nested_guard_leaves_the_state_to_the_outer_one(library):
    baseline = StateBaseline(["probe_library"])
    with Guard("outer", baseline=baseline) as outer:
        library.D_FF = 1
        with Guard("inner", baseline=baseline) as inner:
            pass
    assert inner.problems == [] and outer.problems == ["changed probe_library.D_FF: 32 → 1"]
