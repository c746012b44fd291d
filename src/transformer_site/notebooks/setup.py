"""What a page's notebook needs to run anywhere: its setup cell, its links to the site, its "Open in Colab" link.

- :func:`requirements`: the extras of the project a notebook's code needs, found from what its cells import
  (their import closure inside the project, as the figure cache follows it, and the libraries those modules
  import): ``figures`` for matplotlib, ``docs`` for the site's own tools (a cell that reads the checked
  numbers), and PyTorch — installed first from PyTorch's CPU index, as ``scripts/setup-venv.sh`` does, since
  PyPI's Linux wheel of the same version pulls several GB of CUDA libraries — and the project files a cell
  names (``collect(["docs"])`` reads the pages: the site serves them as ``files.zip`` beside the wheel).
- :func:`setup_source`: the first code cell — ``%pip install`` of exactly the wheel the site serves for this
  build (``transformer_site.notebooks.wheel``), then the display helpers.
- :func:`site_links`: every relative link to a page (``04-concat.md#…``) becomes the page's URL on the site
  (``site_url`` in mkdocs.yml), so a downloaded notebook's links lead to the site, not to a missing file.
- :func:`colab_url`: ``https://colab.research.google.com/github/<owner>/<repo>/blob/<branch>/<notebook>``.
  Colab opens notebooks from a public GitHub repository only; the publishing workflow commits the built
  notebooks to the branch ``NOTEBOOK_BRANCH`` of the repository in ``repo_url``, at the site's own paths.
"""

from __future__ import annotations

import ast
import functools
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

TEXT = {
    "install_comment": (
        "# このサイトと同じ版のプロジェクトを入れる (サイトが配る wheel。Python と pip とネットワークがあれば動きます)"
    ),
    "torch_comment": "  # PyTorch の CPU 版 (CUDA なし)",
    "files_comment": "# このページのコードが読むプロジェクトのファイル ({files}) を作業フォルダへ",
    "generated": (
        "> このノートブックは[サイトのこのページ]({url})から自動生成したもので、"
        "ビルドしたときの実行結果が入っています。図や表を作るコードは、ページの「ソース」タブと同じスニペットです。"
    ),
    "run": "> 最初のコードセルが、サイトと同じ版のプロジェクトを pip で入れます。あとは上から順に実行してください。",
    "commit": "> ビルドしたコミット: `{commit}`",
    "colab": "> [Google Colab で開く]({url})",
}
"""The reader-facing words of a notebook's first cells (where it comes from, what its setup cell does)."""

NOTEBOOK_BRANCH = "notebooks"
TORCH_PIN = "torch==2.13.0"
TORCH_INDEX = "https://download.pytorch.org/whl/cpu"
PACKAGE = "transformer-anatomy"
# Third-party modules → the extra of pyproject.toml that installs them.
EXTRA_OF_MODULE = {"matplotlib": "figures", "matplotlib_fontja": "figures", "mkdocs": "docs", "markdown": "docs",
                   "markdown_exec": "docs", "nbformat": "docs", "pymdownx": "docs", "torch": "torch"}  # fmt: skip
FILES_ZIP = "files.zip"
DISPLAY_IMPORT = "from IPython.display import HTML, Markdown, display"


@dataclass(frozen=True)
class Requirements:
    extras: tuple[str, ...] = ("figures",)
    torch: bool = False
    files: tuple[str, ...] = ()  # project paths the code reads (docs), relative to the project


@dataclass(frozen=True)
class SiteInfo:
    """What the notebooks of one build point at: the site, the wheel it serves, the repository."""

    site_url: str  # ends with "/"
    wheel_uri: str = ""  # wheels/<digest>/<name>.whl ("" when no wheel is served: a notebook made for a test)
    repo_url: str = ""
    commit: str = ""
    files_uri: str = ""  # wheels/<digest>/files.zip
    page_urls: dict[str, str] = field(default_factory=dict)  # docs-relative .md → the page's URL path

    def url(self, uri: str) -> str:
        return self.site_url + uri


def _third_party_imports(code: str) -> set[str]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


@functools.cache
def _graph(src_root: Path):
    """One import graph of ``src`` while it is unchanged (a rebuild after a change of code imports this anew)."""
    from transformer_site.execution.cache import DependencyGraph

    return DependencyGraph(src_root)


@functools.cache
def _module_imports(path: Path) -> frozenset[str]:
    """What one project module imports, read once per build."""
    return frozenset(_third_party_imports(path.read_text(encoding="utf-8")))


def requirements(codes: list[str], project_root: Path) -> Requirements:
    """The extras, PyTorch and project files that the given cells need (see the module docstring)."""
    from transformer_site.execution.cache import find_src_root, named_paths

    graph = _graph(find_src_root())  # what its files say is parsed once per process (execution.cache)
    imported: set[str] = set()
    files: set[str] = set()
    for code in codes:
        imported |= _third_party_imports(code)
        for module in graph.closure(code):
            path = graph.module_file(module)
            if path is not None:
                imported |= _module_imports(path)
        root = Path(project_root).resolve()
        files.update(path.relative_to(root).as_posix() for path in named_paths(code, root))
    extras = {"figures"} | {EXTRA_OF_MODULE[name] for name in imported if name in EXTRA_OF_MODULE}
    torch = "torch" in extras
    extras.discard("torch")
    return Requirements(tuple(sorted(extras)), torch, tuple(sorted(files)))


def setup_source(site: SiteInfo, needs: Requirements) -> str:
    """The setup cell: installs the served wheel of this build (and PyTorch's CPU build where needed)."""
    lines = [TEXT["install_comment"]]
    if needs.torch:
        lines.append(f'%pip install -q "{TORCH_PIN}" --index-url {TORCH_INDEX}' + TEXT["torch_comment"])
    extras = ",".join(needs.extras)
    lines.append(f'%pip install -q "{PACKAGE}[{extras}] @ {site.url(site.wheel_uri)}"')
    if needs.files:
        lines += [
            TEXT["files_comment"].format(files=", ".join(needs.files)),
            "import io, urllib.request, zipfile",
            f'zipfile.ZipFile(io.BytesIO(urllib.request.urlopen("{site.url(site.files_uri)}").read())).extractall()',
        ]
    lines.append(DISPLAY_IMPORT)
    return "\n".join(lines)


def intro_markdown(page: str, site: SiteInfo, notebook_uri: str) -> str:
    """The first cell: where the notebook comes from, how to run it, where it opens in Colab."""
    page_url = site.url(site.page_urls.get(page, ""))
    lines = [TEXT["generated"].format(url=page_url), TEXT["run"]]
    if site.commit:
        lines.append(TEXT["commit"].format(commit=site.commit))
    colab = colab_url(site.repo_url, notebook_uri)
    if colab:
        lines.append(TEXT["colab"].format(url=colab))
    return "\n".join(lines)


def colab_url(repo_url: str, notebook_uri: str, branch: str = NOTEBOOK_BRANCH) -> str | None:
    """Colab's address for a notebook of a public GitHub repository, or None when ``repo_url`` is not GitHub's."""
    parts = urlsplit(repo_url or "")
    path = parts.path.strip("/").removesuffix(".git")
    if parts.netloc.lower() != "github.com" or path.count("/") != 1:
        return None
    return f"https://colab.research.google.com/github/{path}/blob/{branch}/{notebook_uri}"


_LINK = re.compile(r"(?P<open>\]\()(?P<target>[^()\s]+?\.md)(?P<anchor>#[^()\s]*)?(?P<close>\))")


def site_links(markdown: str, page: str, site: SiteInfo) -> str:
    """Relative ``.md`` links of the page ``page`` (docs-relative) as absolute URLs of the site's pages."""

    def absolute(match: re.Match) -> str:
        target = match["target"]
        if "://" in target:
            return match.group(0)
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
        url = site.page_urls.get(resolved)
        if url is None:
            raise ValueError(f"{page}: the link {target} names no page of the site")
        return f"{match['open']}{site.url(url)}{match['anchor'] or ''}{match['close']}"

    return _LINK.sub(absolute, markdown)
