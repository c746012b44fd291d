"""The test tiers are chosen by markers (CONTRIBUTING: テストの段): the fast tier is every test without one of the
markers it leaves out, so a test that needs PyTorch must say so, or the fast tier would import and run it."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEST_SCRIPT = ROOT / "scripts" / "test.sh"
PYPROJECT = ROOT / "pyproject.toml"
FAST_LEAVES_OUT = {"build", "browser", "torch", "repeat", "slow"}


def _suite_conftest():
    """tests/conftest.py, loaded from its path: the name ``conftest`` may be any folder's conftest."""
    spec = importlib.util.spec_from_file_location("suite_conftest", ROOT / "tests" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up while it is made
    spec.loader.exec_module(module)
    return module


conftest = _suite_conftest()  # the order of the groups and the clock that times them


def _marks(decorators: list[ast.expr]) -> set[str]:
    """The names of the ``pytest.mark.<name>`` among decorators or a ``pytestmark`` value (called or not)."""
    names = set()
    for node in decorators:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute) and sub.value.attr == "mark":
                names.add(sub.attr)
    return names


def _imports_torch(statement: ast.stmt) -> bool:
    for node in ast.walk(statement):
        if isinstance(node, ast.Import) and any(alias.name.split(".")[0] == "torch" for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("torch", "torch_reference"):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "importorskip"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value == "torch"
        ):
            return True
    return False


def unmarked_torch_tests(source: str, path: str) -> list[str]:
    """``path:line`` of each function that imports PyTorch where neither it (a test) nor its file (a fixture or a
    helper, which serve the whole file) carries the ``torch`` marker; a file that imports it at its top level must
    carry the marker too."""
    tree = ast.parse(source, filename=path)
    file_marks = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
            file_marks |= _marks([node.value])
    if "torch" in file_marks:
        return []
    problems = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _imports_torch(node):
            if node.name.startswith("test_") and "torch" in _marks(node.decorator_list):
                continue
            problems.append(f"{path}:{node.lineno}: {node.name} imports torch without the torch marker")
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign)) and _imports_torch(node):
            problems.append(f"{path}:{node.lineno}: the file imports torch without the torch marker")
    return problems


def _test_files() -> list[Path]:
    return sorted(path for path in (ROOT / "tests").rglob("*.py") if "vendor" not in path.parts)


def test_every_test_that_imports_torch_is_marked_torch():
    problems = []
    for path in _test_files():
        problems += unmarked_torch_tests(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "source",
    [
        "import pytest\n\ndef test_a():\n    torch = pytest.importorskip('torch')\n",
        "import pytest\n\ndef test_a():\n    import torch\n",
        "import pytest\n\n@pytest.fixture\ndef model():\n    from torch import nn\n",
        "import pytest\n\ntorch = pytest.importorskip('torch')\n",
        "import pytest\nimport torch\n",
        "import pytest\nfrom torch_reference import torch\n",
        "import pytest\n\n@pytest.mark.slow\ndef test_a():\n    import torch\n",
    ],
)
def test_a_torch_test_without_the_marker_is_found_with_its_line(source):
    problems = unmarked_torch_tests(source, "tests/math/test_planted.py")
    assert len(problems) == 1 and re.match(r"tests/math/test_planted\.py:\d+: ", problems[0]), problems


@pytest.mark.parametrize(
    "source",
    [
        "import pytest\n\n@pytest.mark.torch\ndef test_a():\n    torch = pytest.importorskip('torch')\n",
        "import pytest\n\npytestmark = pytest.mark.torch\n\n@pytest.fixture\ndef t():\n    import torch\n",
        "import pytest\n\npytestmark = [pytest.mark.slow, pytest.mark.torch]\nimport torch\n",
        "import pytest\n\ndef test_a():\n    assert 'torch' in 'PyTorch'.lower()\n",
    ],
)
def test_a_marked_or_torch_free_file_passes(source):
    assert unmarked_torch_tests(source, "tests/math/test_planted.py") == []


def _fast_tier_command() -> str:
    script = TEST_SCRIPT.read_text(encoding="utf-8")
    block = script.split('if [ "$tier" = fast ]; then', 1)[1].split("\nfi", 1)[0]
    (command,) = [line for line in block.splitlines() if "pytest" in line and not line.lstrip().startswith("#")]
    return command


def test_the_fast_tier_is_chosen_by_markers_alone():
    command = _fast_tier_command()
    assert not re.search(r"\btests/|--ignore|-k\b", command), f"the fast tier names paths or test names: {command}"
    (expression,) = re.findall(r'-m "([^"]+)"', command)
    assert set(re.findall(r"\w+", expression)) - {"not", "or", "and"} == FAST_LEAVES_OUT, expression
    assert re.fullmatch(r"not \(\w+(?: or \w+)*\)", expression), expression


def test_every_marker_the_tiers_name_is_registered_and_used():
    registered = set(re.findall(r'^\s*"(\w+):', PYPROJECT.read_text(encoding="utf-8"), re.M))
    assert FAST_LEAVES_OUT <= registered, FAST_LEAVES_OUT - registered
    sources = "\n".join(path.read_text(encoding="utf-8") for path in _test_files())
    unused = {m for m in FAST_LEAVES_OUT if f"pytest.mark.{m}" not in sources}
    assert not unused, f"markers no test carries: {sorted(unused)}"


# ----------------------------------------------------------------------------- the order of the groups
class _Cache:
    def __init__(self, data=None):
        self.data = dict(data or {})

    def get(self, key, default):
        return self.data.get(key, default)

    def set(self, key, value):
        self.data[key] = value


class _Config:
    def __init__(self, cache, markexpr="not slow"):
        self.cache = cache
        self.option = type("Option", (), {"markexpr": markexpr})()


class _Item:
    fixturenames = ()

    def __init__(self, nodeid):
        self.nodeid, self.markers = nodeid, []

    def get_closest_marker(self, name):
        return next((m for m in self.markers if m.name == name), None)

    def add_marker(self, marker):
        self.markers.append(marker.mark)


def _order(cache: _Cache, markexpr="not slow") -> list[str]:
    items = [_Item(f"tests/{name}.py::test_{i}") for name in ("a", "b", "c", "d") for i in (1, 2)]
    conftest.pytest_collection_modifyitems(_Config(cache, markexpr), items)
    return list(dict.fromkeys(item.nodeid.split("::")[0][6:-3] for item in items))


def test_groups_go_longest_first_by_the_last_run_of_the_same_tier():
    """The last groups handed out are the shortest, so the two workers finish together; a group not timed yet
    goes after the timed ones, and without a record (a fresh clone) the order is the files' order."""
    assert _order(_Cache()) == ["a", "b", "c", "d"]
    timed = {"not slow": {"tests/b.py": 1.0, "tests/c.py": 9.0}, "": {"tests/d.py": 50.0}}
    assert _order(_Cache({conftest.SECONDS_KEY: timed})) == ["c", "b", "a", "d"]
    assert _order(_Cache({conftest.SECONDS_KEY: timed}), markexpr=None) == ["d", "a", "b", "c"]


def test_the_clock_adds_up_each_group_and_keeps_the_other_tiers_and_groups():
    cache = _Cache({conftest.SECONDS_KEY: {"": {"tests/a.py": 3.0}, "not slow": {"tests/z.py": 2.0}}})
    clock = conftest.GroupClock(_Config(cache))
    for nodeid, seconds in [("tests/a.py::t[x]@tests/a.py", 0.5), ("tests/a.py::t[y]@tests/a.py", 1.25),
                            ("tests/b.py::t@walk-390", 2.0), ("tests/c.py::t[a@b]", 9.0)]:  # fmt: skip
        clock.pytest_runtest_logreport(type("Report", (), {"nodeid": nodeid, "duration": seconds})())
    clock.pytest_sessionfinish()
    assert cache.data[conftest.SECONDS_KEY] == {
        "": {"tests/a.py": 3.0},
        "not slow": {"tests/z.py": 2.0, "tests/a.py": 1.75, "walk-390": 2.0},
    }
