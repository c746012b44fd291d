"""Probes of a build that must not be fooled: each in a throwaway project, each fails the build — with ``-q`` as
without — naming the page, line and block that caused it, within the time limit, and leaves nothing wrong behind.

Every probe is built on its own with ``-q`` (which hides warnings from strict mode: what fails there fails
without it too, since the same errors are counted). ``test_all_probes_without_q`` builds them all on one page
without ``-q`` and checks each message. For the checked-number probes, ``check`` and ``lint`` must say the same.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tiny_project import build_env, run_build, write_tiny_project

pytestmark = pytest.mark.build

FENCE = '```python exec="on" html="on" source="tabbed-right" tabs="ソース|結果"\n--8<-- "snippets/page/{name}.py"\n```'
TIME_LIMIT = "3"  # seconds: the endless loop must be stopped well within the test's patience


@dataclass(frozen=True)
class Probe:
    name: str
    prose: str = ""  # a line of the page (a checked number), or "" for a snippet probe
    snippet: str | None = None  # the code of snippets/page/<name>.py, included by a fence on the page
    says: tuple[str, ...] = ()  # what the message at the probe's line must contain
    extra_files: dict[str, bytes] = field(default_factory=dict)


PROBES = [
    Probe("endless-loop", snippet="while True:\n    pass\n",
          says=("executed block id='page-endless-loop' (snippet snippets/page/endless-loop.py)",
                "BlockTimeout: ran past its time limit of 3 s")),
    Probe("catches-everything",
          snippet="import time\nwhile True:\n    try:\n        time.sleep(10)\n    except Exception:\n        pass\n",
          says=("executed block id='page-catches-everything'", "BlockTimeout")),
    Probe("writes-docs",
          snippet="from pathlib import Path\nPath('docs/evil.md').write_text('# 悪')\nprint('<p>x</p>')\n",
          says=("executed block id='page-writes-docs'", "wrote outside its temporary folder", "docs/evil.md")),
    Probe("writes-and-hides",
          snippet=("try:\n    open('src/evil.py', 'w').write('x = 1')\nexcept OSError:\n    pass\n"
                   "print('<p>x</p>')\n"),
          says=("executed block id='page-writes-and-hides'", "wrote outside its temporary folder", "src/evil.py")),
    Probe("starts-a-process",
          snippet="import subprocess\nsubprocess.run(['touch', 'docs/evil.md'])\nprint('<p>x</p>')\n",
          says=("executed block id='page-starts-a-process'", "started a process")),
    Probe("sets-a-constant", snippet="from transformer_math import preset\npreset.D_FF = 64\nprint('<p>x</p>')\n",
          says=("executed block id='page-sets-a-constant'", "changed transformer_math.preset.D_FF")),
    Probe("changes-the-weights",
          snippet="from transformer_site.citable import NAMES\nNAMES['W'].W1[...] = 0.0\nprint('<p>x</p>')\n",
          says=("executed block id='page-changes-the-weights'", "read-only")),  # the preset's arrays are read-only
    Probe("changes-a-trace",
          snippet="from transformer_math import preset_trace\npreset_trace(1).scores[0, 2, 3] = 0.0\nprint('<p>x</p>')",
          says=("executed block id='page-changes-a-trace'", "read-only")),
    Probe("raises", snippet="values = [1.0, 2.0]\nprint(values[5])\n",
          says=("executed block id='page-raises'", "IndexError: list index out of range")),
    Probe("nan-figure",
          snippet=("import numpy as np\nfrom transformer_figures import new_figure, show\nfig, ax = new_figure(3, 2)\n"
                   "ax.plot([0, 1, 2], [0.0, np.nan, 1.0], label='gelu')\nshow(fig, alt='NaN を含む折れ線')\n"),
          says=("executed block id='page-nan-figure'", "NonFiniteFigureError: the figure has NaN data in Line2D")),
    Probe("brace-single-closing", prose="引用 {{ +3.526 = s1.scores[0, 2, 3] }。", says=("unclosed checked number",)),
    Probe("brace-left-open", prose="引用 {{ +3.526 = s1.scores[0, 2, 3] が続く。", says=("unclosed checked number",)),
    Probe("literal-only", prose="引用 {{ 3.526 }}。", says=("malformed checked number",)),
    Probe("expression-only", prose="引用 {{ = s1.scores[0, 2, 3] }}。", says=("has no literal before its =",)),
    Probe("in-a-table", prose="| 量 | {{ +3.526 = s1.scores[0, 2, 3] } |", says=("unclosed checked number",)),
    Probe("in-math", prose="数式 $s = {{ +3.526 = s1.scores[0, 2, 3] }$。", says=("unclosed checked number",)),
    Probe("state-through-a-module", prose="副作用 {{ 0 = len([ops.np.copyto(W.W1, 0.0)]) - 1 }}。",
          says=("reaches the module numpy, which is not a citable name",)),
    Probe("state-in-place", prose="副作用 {{ 0 = len([W.W1.fill(0.0)]) - 1 }}。", says=("read-only",)),
]  # fmt: skip

# A second page that reads what the probes try to change, built after theirs (MkDocs goes by file name): it must
# never be blamed.
INNOCENT = "# 無実\n\nW1 の最大の要素 {{ {w1} = W.W1.max() }}、D_FF は {{ {d_ff} = preset.D_FF }}。\n"


def _innocent_page() -> str:
    from transformer_math import build_preset, preset

    w1 = build_preset().W1.max()
    assert w1 != 0.0  # so that zeroed weights would show
    return INNOCENT.format(w1=f"{w1:+.3f}", d_ff=preset.D_FF)


def write_probe_project(root: Path, probes: list[Probe]) -> dict[str, int]:
    """One page holding the probes (each at its own line), the innocent page; returns each probe's line."""
    lines, where = ["# 悪い入力", ""], {}
    for probe in probes:
        where[probe.name] = len(lines) + 1
        lines += [*(probe.prose if probe.snippet is None else FENCE.format(name=probe.name)).split("\n"), ""]
    snippets = {f"snippets/page/{p.name}.py": p.snippet for p in probes if p.snippet is not None}
    write_tiny_project(root, "\n".join(lines), snippets, nav=[{"悪": "page.md"}, {"無実": "z-innocent.md"}])
    (root / "docs" / "z-innocent.md").write_text(_innocent_page(), encoding="utf-8")
    for name in ("src", "docs"):
        (root / name).mkdir(exist_ok=True)
    return where


def _message_at(log: str, line: int) -> str:
    found = [m for m in log.splitlines() if f"docs/page.md:{line}:" in m]
    return found[0] if found else ""


def _nothing_wrong_left(root: Path) -> None:
    site = root / "site"
    assert not site.exists() or not any(site.iterdir()), f"a failed build left {sorted(site.iterdir())[:5]}"
    assert not (root / "docs" / "evil.md").exists() and not (root / "src" / "evil.py").exists()


@pytest.mark.parametrize("probe", PROBES, ids=[p.name for p in PROBES])
def test_each_probe_fails_the_quiet_build_naming_its_line(tmp_path, probe):
    where = write_probe_project(tmp_path, [probe])
    start = time.monotonic()
    code, log = run_build(tmp_path, "-q", env=build_env(TRANSFORMER_BLOCK_TIME_LIMIT=TIME_LIMIT), timeout=240)
    elapsed = time.monotonic() - start
    assert code != 0, f"{probe.name}: the quiet build passed:\n{log[-3000:]}"
    message = _message_at(log, where[probe.name])
    assert message and all(part in message for part in probe.says), f"{probe.name}: {message!r}\n{log[-3000:]}"
    assert "docs/z-innocent.md" not in log, f"{probe.name}: an innocent page was blamed:\n{log[-3000:]}"
    assert "Traceback" not in log.split("ERROR")[0], log[-3000:]  # no raw traceback before our messages
    _nothing_wrong_left(tmp_path)
    if probe.name == "endless-loop":
        assert elapsed < 90, f"the endless loop took {elapsed:.0f} s to stop"
    if probe.snippet is None:  # check says what the build said; lint too, where it is the token's syntax
        _check_and_lint_agree(tmp_path, where[probe.name], syntax=not probe.prose.startswith("副作用"))


def _check_and_lint_agree(root: Path, line: int, syntax: bool) -> None:
    def run(command: str) -> list[str]:
        result = subprocess.run(
            [sys.executable, "-m", "transformer_site.checked", command, "docs/page.md"],
            cwd=root, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert result.returncode == 1, f"{command} passed: {result.stdout}{result.stderr}"
        return [m for m in result.stdout.splitlines() if m.startswith(f"docs/page.md:{line}:")]

    checked = run("check")
    assert checked
    if syntax:
        linted = run("lint")
        assert set(checked) <= set(linted), f"check: {checked}\nlint: {linted}"


def test_all_probes_without_q(tmp_path):
    """Without -q: the same build fails, and every probe is reported at its own line, none on the innocent page."""
    where = write_probe_project(tmp_path, PROBES)
    code, log = run_build(tmp_path, env=build_env(TRANSFORMER_BLOCK_TIME_LIMIT=TIME_LIMIT), timeout=300)
    assert code != 0
    for probe in PROBES:
        message = _message_at(log, where[probe.name])
        assert all(part in message for part in probe.says), f"{probe.name}: {message!r}"
    assert "docs/z-innocent.md" not in log
    _nothing_wrong_left(tmp_path)


# ------------------------------------------------------------------------------ the other failure kinds (-q)

# A planted placeholder: the page's own set-aside pieces (the block's code and its tab labels) come back, and one
# placeholder more than was set aside is left over.
STRAY_PLACEHOLDER = re.compile(r"search_skip: page\.md: (\d+) figures were set aside, (\d+) placeholders remain")


def _says(log: str, says: str | re.Pattern) -> bool:
    if isinstance(says, str):
        return says in log
    match = says.search(log)
    return bool(match) and int(match.group(2)) == int(match.group(1)) + 1


PAGE = """\
# テスト

本文。

```python exec="on" html="on" source="tabbed-right" tabs="ソース|結果" id="kind-block"
--8<-- "snippets/page/figure.py"
```
"""


@pytest.mark.parametrize(
    ("kind", "snippets", "extra", "says"),
    [
        ("missing snippet", {}, "", "docs/page.md:5: executed block includes snippets/page/figure.py, which does not"),
        ("notebook export", {"snippets/page/figure.py": b"print('\xff\xfe')\n"}, "", "notebook export: "),
        ("search placeholder", {"snippets/page/figure.py": b"print('<p>ok</p>')\n"},
         "\n<!-- tf-search-skip 0 -->\n", STRAY_PLACEHOLDER),
    ],
)  # fmt: skip
def test_other_failure_kinds_fail_the_quiet_build(tmp_path, kind, snippets, extra, says):
    write_tiny_project(tmp_path, PAGE + extra, {})
    for name, content in snippets.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(content)
    for quiet in (("-q",), ()):
        code, log = run_build(tmp_path, *quiet)
        assert code != 0, f"{kind} {quiet}: built\n{log[-3000:]}"
        assert _says(log, says), f"{kind} {quiet}: {log[-3000:]}"
        _nothing_wrong_left(tmp_path)


# ------------------------------------------------------------------------------------ environment variables


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SOURCE_DATE_EPOCH", "yesterday"),
        ("SOURCE_DATE_EPOCH", ""),
        ("TRANSFORMER_BLOCK_TIME_LIMIT", "ten"),
        ("TRANSFORMER_BLOCK_TIME_LIMIT", "0"),
        ("TRANSFORMER_PREVIEW", "true"),
        ("TRANSFORMER_SITE_NO_EXEC", "yes"),
        ("TRANSFORMER_SITE_STOCK_SEARCH", "2"),
    ],
)
def test_a_bad_environment_variable_is_named(tmp_path, name, value):
    write_tiny_project(tmp_path, "# テスト\n\n本文。\n", {})
    code, log = run_build(tmp_path, "-q", env=build_env(**{name: value}))
    assert code != 0
    assert f"{name}={value!r}" in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]


def test_a_figure_cache_that_is_a_file_is_named(tmp_path):
    write_tiny_project(tmp_path, "# テスト\n\n本文。\n", {})
    (tmp_path / "cache").write_text("not a folder", encoding="utf-8")
    code, log = run_build(tmp_path, "-q", env=build_env(TRANSFORMER_FIGURE_CACHE=str(tmp_path / "cache")))
    assert code != 0 and "TRANSFORMER_FIGURE_CACHE=" in log and "names a file, not a folder" in log, log[-3000:]


# --------------------------------------------------------------------------------------- from anywhere


def test_the_build_works_from_another_directory(tmp_path):
    """``mkdocs build -f …/mkdocs.yml`` from elsewhere: snippets found, relative paths in blocks mean the project."""
    project = tmp_path / "project"
    snippet = textwrap.dedent("""\
        from pathlib import Path

        pages = sorted(p.name for p in Path("docs").glob("*.md"))  # relative: the project's folder
        print(f"<p>pages={pages}</p>")
        """)
    write_tiny_project(project, PAGE, {"snippets/page/figure.py": snippet})
    elsewhere = tmp_path / "elsewhere" / "deeper"
    elsewhere.mkdir(parents=True)
    code, log = run_build(project, "-q", "-f", str(project / "mkdocs.yml"), cwd=elsewhere)
    assert code == 0, log[-3000:]
    assert "pages=['page.md']" in (project / "site" / "page" / "index.html").read_text(encoding="utf-8")
