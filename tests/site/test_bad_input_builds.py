"""Bad input fails ``mkdocs build --strict`` with a message naming the page (and the snippet) at fault.

Each case builds a tiny temporary MkDocs project that uses the real mkdocs.yml's extensions, plugins and
hooks, with one page and one snippet.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from tiny_project import write_tiny_project

pytestmark = pytest.mark.build

REPO = Path(__file__).resolve().parents[2]


def build_project(tmp_path: Path, page: str, snippets: dict[str, str], nav: list | None = None):
    """Write docs/page.md and snippets, then run the strict build in ``tmp_path``; return (returncode, log)."""
    write_tiny_project(
        tmp_path, textwrap.dedent(page), {name: textwrap.dedent(code) for name, code in snippets.items()}, nav
    )
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=tmp_path, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    return result.returncode, result.stdout + result.stderr


PAGE_WITH_SNIPPET = """\
    # テスト

    本文。

    ```python exec="on" html="on" source="tabbed-right" tabs="ソース|結果" id="bad-block"
    --8<-- "snippets/page/figure.py"
    ```
    """


def test_a_good_project_builds(tmp_path):
    """The harness itself: the same project with a working snippet passes, so failures below mean something."""
    code, log = build_project(tmp_path, PAGE_WITH_SNIPPET, {"snippets/page/figure.py": 'print("<p>ok</p>")\n'})
    assert code == 0, log
    assert "<p>ok</p>" in (tmp_path / "site" / "page" / "index.html").read_text(encoding="utf-8")


def test_a_raising_snippet_names_page_line_and_snippet(tmp_path):
    snippet = """\
        values = [1.0, 2.0]
        print(values[5])
        """
    code, log = build_project(tmp_path, PAGE_WITH_SNIPPET, {"snippets/page/figure.py": snippet})
    assert code != 0
    assert "docs/page.md:5" in log and "snippets/page/figure.py" in log and "bad-block" in log, log
    assert "IndexError" in log


def test_a_missing_snippet_file_names_page_and_file(tmp_path):
    code, log = build_project(tmp_path, PAGE_WITH_SNIPPET, {})
    assert code != 0
    assert "page.md" in log and "snippets/page/figure.py" in log, log


def test_a_glyph_the_font_lacks_fails_naming_page_and_snippet(tmp_path):
    snippet = """\
        from transformer_figures import new_figure, show

        fig, ax = new_figure(3, 2)
        ax.set_title("注意 ꙮ")  # U+A66E is not in IPAexGothic: readers would see a box
        show(fig, alt="字形のない文字を含む図")
        """
    code, log = build_project(tmp_path, PAGE_WITH_SNIPPET, {"snippets/page/figure.py": snippet})
    assert code != 0
    assert "docs/page.md:5" in log and "snippets/page/figure.py" in log, log
    assert "MissingGlyphError" in log and "missing from font" in log, log


def test_a_nav_entry_without_a_page_fails_naming_it(tmp_path):
    page = "# テスト\n\n本文。\n"
    code, log = build_project(tmp_path, page, {}, nav=[{"ページ": "page.md"}, {"まだ無い": "notes/99-missing.md"}])
    assert code != 0
    assert "notes/99-missing.md" in log, log


def test_inline_executed_code_without_id_fails_naming_page_line(tmp_path):
    page = PAGE_WITH_SNIPPET.replace(' id="bad-block"', "").replace('--8<-- "snippets/page/figure.py"', "print(1)")
    code, log = build_project(tmp_path, page, {})
    assert code != 0
    assert "page.md:5" in log and "no id" in log, log


def test_a_block_without_id_is_named_by_its_page_and_snippet(tmp_path):
    page = PAGE_WITH_SNIPPET.replace(' id="bad-block"', "")
    code, log = build_project(tmp_path, page, {"snippets/page/figure.py": "raise ValueError('boom')\n"})
    assert code != 0
    assert "docs/page.md:5: executed block id='page-figure'" in log, log


def test_a_snippet_outside_its_page_folder_fails_naming_page_line(tmp_path):
    page = PAGE_WITH_SNIPPET.replace("snippets/page/figure.py", "snippets/elsewhere/figure.py")
    code, log = build_project(tmp_path, page, {"snippets/elsewhere/figure.py": 'print("<p>ok</p>")\n'})
    assert code != 0
    assert "page.md:5" in log and "snippets/<page path>/" in log, log
