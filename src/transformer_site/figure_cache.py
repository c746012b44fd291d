"""Figure cache: an executed block's output, keyed on its code AND on every ``src`` file it depends on.

markdown-exec would key on the code only, so an edit in ``src/`` would publish a stale figure. Here the key
is the SHA-256 of

- the block's code (the snippet text, as included by ``--8<--``),
- what every project module it imports, transitively, means (found statically from the import statements:
  ``import a.b``, ``from a import b``, relative imports; a module that imports its package's modules
  dynamically — ``importlib.import_module`` / ``pkgutil.iter_modules``, as ``citable`` does — depends on
  every project module): the module's syntax tree with its docstrings removed (``ast.dump`` of the parsed
  file, which holds no comments, line numbers or formatting), so a comment, a docstring or a reflowed line
  re-renders nothing, while a changed constant, name or statement re-renders every block that imports it
  (a block that reads source text — ``x.__doc__``, ``inspect.getsource`` —, or imports a module that does, is
  keyed on the bytes of its modules instead: it shows what the syntax tree leaves out; a module that reads
  only its own docstring, ``__doc__``, is keyed on its own bytes. Reads are found in the code's syntax tree,
  so a docstring that merely mentions ``inspect.getsource`` reads nothing),
- the bytes of any project file or directory the snippet names in a string literal (``collect(["docs"])``
  reads the pages, so its output depends on them),
- the versions of Python and of the libraries that shape the output (numpy, matplotlib, markdown-exec, torch),
  whether the build is a local preview (``TRANSFORMER_PREVIEW=1``), and
  the source of this module, of ``executed``, ``isolation`` and ``output_checks`` (what may be stored).

So a rebuild after editing a page's prose renders nothing; editing ``src/transformer_math/counting.py``
re-renders exactly the blocks whose import closure contains it, and only when the edit changes its code.

Environment: ``TRANSFORMER_FIGURE_CACHE`` = cache directory (default ``<project>/.cache/figures``) or ``off``;
``TRANSFORMER_SITE_NO_EXEC=1`` replaces every executed block's output by nothing (the benchmark's floor).
``transformer_site.executed`` runs every block through :meth:`FigureCache.run`.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import importlib.util
import logging
import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from transformer_site import PROJECT_PACKAGES

log = logging.getLogger("mkdocs.plugins.transformer_site.figure_cache")

CACHE_VERSION = "3"  # 2: blocks run isolated (transformer_site.executed); 3: modules keyed on their syntax tree
OWN_RULES = ("figure_cache.py", "executed.py", "isolation.py", "output_checks.py")
_DYNAMIC_IMPORT = re.compile(r"\bimportlib\.import_module\(|\bpkgutil\.iter_modules\(|\b__import__\(")
# Code that reads source text (a docstring, a comment) shows what source_meaning leaves out: such a block, or one
# importing a module that does, keys on the bytes of its modules instead (see source_reads).
_INSPECT_SOURCE = frozenset({"getdoc", "getsource", "getsourcelines", "getcomments"})
_DECLARED_READS = re.compile(r"^# reads source of: ([\w. ]+)$", re.MULTILINE)
_PATH_LITERAL = re.compile(r"^[\w\-]+(?:/[\w.\-]+)*/?$")


def _library_versions() -> str:
    versions = [f"python {sys.version.split()[0]}"]
    # torch: the appendix's table is measured with it, and a preview without it prints a notice instead — that notice
    # must never be served from the cache to a build that has torch, nor to a full build (which must fail).
    for name in ("numpy", "matplotlib", "markdown-exec", "torch"):
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} absent")
    from transformer_site import environment

    versions.append(f"preview {environment.value('TRANSFORMER_PREVIEW')}")
    return "; ".join(versions)


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    """``tree`` without the docstring of the module, of each class and of each function (they change no output)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.Pass()]
    return tree


def source_meaning(path: Path, data: bytes | None = None) -> bytes:
    """What a Python file means, as bytes: its syntax tree without docstrings, comments, positions or layout.
    ``data``: the file's bytes, if already read.

    A file that does not parse is keyed on its bytes (the block importing it will fail, and must re-run).
    """
    data = path.read_bytes() if data is None else data
    try:
        tree = ast.parse(data, filename=str(path))
    except (SyntaxError, ValueError):
        return b"unparsed\n" + data
    return ast.dump(_strip_docstrings(tree), annotate_fields=False).encode()


# What a file says, kept for the life of the process and keyed on the file's bytes: under ``mkdocs serve`` a
# prose edit keeps the project's modules imported (hooks/fresh_build.py), so the next build parses none of the
# unchanged ``src`` files again (it parsed each of them for every block's cache key, and once more for every
# page's notebook). Reading and hashing a file is cheap; parsing it is not. An edited file has a new key.
_FILE_FACTS: dict[tuple[str, str, bytes], object] = {}


def _file_fact(kind: str, path: Path, compute: Callable[[bytes], object]):
    """``compute(the file's bytes)``, computed once per content of the file."""
    data = path.read_bytes()
    key = (kind, str(path), hashlib.sha256(data).digest())
    if key not in _FILE_FACTS:
        _FILE_FACTS[key] = compute(data)
    return _FILE_FACTS[key]


def find_src_root() -> Path:
    """The directory holding the project packages (``src/``), found without importing them."""
    spec = importlib.util.find_spec(PROJECT_PACKAGES[0])
    if spec is None or spec.origin is None:
        raise RuntimeError(f"figure cache: cannot find the package {PROJECT_PACKAGES[0]!r} on sys.path")
    return Path(spec.origin).resolve().parent.parent


@dataclass
class DependencyGraph:
    """Static import graph of the project packages under ``src_root``."""

    src_root: Path
    packages: tuple[str, ...] = PROJECT_PACKAGES
    _imports: dict[str, frozenset[str]] = field(default_factory=dict)
    _digests: dict[tuple[Path, bool], str] = field(default_factory=dict)
    _files: dict[str, Path | None] = field(default_factory=dict)
    _closures: dict[frozenset[str], list[str]] = field(default_factory=dict)
    _reads: dict[str, str | None] = field(default_factory=dict)  # module → source_reads of its file

    def module_file(self, module: str) -> Path | None:
        if module not in self._files:  # memoised: a build asks about the same few dozen modules again and again
            base = self.src_root.joinpath(*module.split("."))
            candidates = (base.with_suffix(".py"), base / "__init__.py")
            self._files[module] = next((c for c in candidates if c.is_file()), None)
        return self._files[module]

    def all_modules(self) -> list[str]:
        modules = []
        for package in self.packages:
            root = self.src_root / package
            for path in sorted(root.rglob("*.py")):
                parts = path.relative_to(self.src_root).with_suffix("").parts
                modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        return modules

    def imports_of_code(self, code: str, module: str | None = None) -> set[str]:
        """Project modules that ``code`` imports directly (``module``: its own name, for relative imports)."""
        return self._modules_among(*self._import_facts(code, module))

    def _import_facts(self, code: str, module: str | None) -> tuple[set[str], tuple[str, ...]]:
        """What ``code`` says about its imports: the names its import statements name, and the project packages
        it imports from dynamically (importlib/pkgutil over a package: citable imports every transformer_math
        module; only a module's own code counts)."""
        dynamic = module is not None and _DYNAMIC_IMPORT.search(code) is not None
        packages = tuple(package for package in self.packages if dynamic and package in code)
        return self._named_imports(code, module), packages

    def _modules_among(self, named: set[str], dynamic_packages: tuple[str, ...]) -> set[str]:
        """The project modules among ``named``, and every module of the packages imported dynamically."""
        found = set(named)
        if dynamic_packages:
            found |= {m for m in self.all_modules() if m.split(".", 1)[0] in dynamic_packages}
        return {name for name in found if self.module_file(name) is not None}

    def _named_imports(self, code: str, module: str | None) -> set[str]:
        """Project module names (and their parents) that the import statements of ``code`` name."""
        try:
            tree = ast.parse(code)
        except SyntaxError:
            return set()  # the block will fail when run; nothing to key on but its code
        is_package = (
            module is not None
            and self.module_file(module) is not None
            and (self.module_file(module).name == "__init__.py")
        )
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found.update(self._with_parents(alias.name))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    if module is None:
                        continue
                    anchor = module.split(".")
                    anchor = anchor if is_package else anchor[:-1]
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                found.update(self._with_parents(base))
                for alias in node.names:
                    found.update(self._with_parents(f"{base}.{alias.name}"))  # kept only if it is a module
        return found

    def _with_parents(self, name: str) -> list[str]:
        parts = name.split(".")
        if parts[0] not in self.packages:
            return []
        return [".".join(parts[: i + 1]) for i in range(len(parts))]

    def direct_imports(self, module: str) -> frozenset[str]:
        if module not in self._imports:
            path = self.module_file(module)
            if path is None:
                self._imports[module] = frozenset()
            else:
                kind = f"imports {module} {self.packages}"
                facts = _file_fact(kind, path, lambda data: self._import_facts(data.decode("utf-8"), module))
                self._imports[module] = frozenset(self._modules_among(*facts))
        return self._imports[module]

    def closure(self, code: str) -> list[str]:
        """Every project module ``code`` imports, transitively, sorted."""
        direct = frozenset(self.imports_of_code(code))
        if direct not in self._closures:
            todo, seen = list(direct), set()
            while todo:
                name = todo.pop()
                if name not in seen:
                    seen.add(name)
                    todo.extend(self.direct_imports(name) - seen)
            self._closures[direct] = sorted(seen)
        return list(self._closures[direct])

    def digest(self, path: Path, exact: bool = False) -> str:
        """SHA-256 of a file (a ``.py`` file: of what it means, unless ``exact``) or of a directory's files."""
        if (path, exact) not in self._digests:
            if path.is_dir():
                parts = [
                    f"{p.relative_to(path).as_posix()}:{self.digest(p, exact)}"
                    for p in sorted(path.rglob("*"))
                    if p.is_file()
                ]
                found = hashlib.sha256("\n".join(parts).encode()).hexdigest()
            elif path.suffix == ".py" and not exact:  # code: what it means (see source_meaning)
                found = _file_fact("meaning", path, lambda data: hashlib.sha256(source_meaning(path, data)).hexdigest())
            else:
                found = hashlib.sha256(path.read_bytes()).hexdigest()
            self._digests[path, exact] = found
        return self._digests[path, exact]

    def exact_modules(self, code: str, modules: Iterable[str]) -> set[str] | None:
        """The modules to key on their bytes: ``None`` for all of them (``code`` or one of ``modules`` reads
        another object's source text), else those that read their own docstring (see :func:`source_reads`).

        A block that reads other objects' source may name the packages or modules it reads from in a comment
        line ``# reads source of: transformer_math transformer_pages``: then only those are keyed on their
        bytes (a comment in a module it merely imports, such as a table helper, re-renders nothing). A wrong
        list can only make a local rebuild serve a stale block; a clean build has no cache.
        """
        modules = list(modules)
        if source_reads(code) == "others":
            declared = _DECLARED_READS.search(code)
            if declared is None:
                return None
            prefixes = tuple(declared.group(1).split())
            return {m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)}
        own = set()
        for module in modules:
            if module not in self._reads:
                path = self.module_file(module)
                if path is None:
                    self._reads[module] = None
                else:
                    self._reads[module] = _file_fact("reads", path, lambda data: source_reads(data.decode("utf-8")))
            if self._reads[module] == "others":
                return None
            if self._reads[module] == "own":
                own.add(module)
        return own


def source_reads(code: str) -> str | None:
    """What source text ``code`` reads: ``"others"`` (another object's docstring or source: ``f.__doc__``,
    ``inspect.getsource``), ``"own"`` (only its module's docstring, the bare name ``__doc__``) or ``None``.

    Read from the syntax tree, so words in a docstring or a comment are not reads; code that does not parse
    counts as reading others (the safe side).
    """
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return "others"
    own = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "__doc__":
            return "others"
        if isinstance(node, ast.Attribute) and node.attr in _INSPECT_SOURCE and isinstance(node.value, ast.Name):
            if node.value.id == "inspect":
                return "others"
        if isinstance(node, ast.ImportFrom) and node.module == "inspect":
            if any(alias.name in _INSPECT_SOURCE or alias.name == "*" for alias in node.names):
                return "others"
        if isinstance(node, ast.Name) and node.id == "__doc__":
            own = True
    return "own" if own else None


def named_paths(code: str, project_root: Path) -> list[Path]:
    """Project files and directories that ``code`` names in a string literal (``"docs"``, ``"data/x.csv"``)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _PATH_LITERAL.match(node.value):
            path = (project_root / node.value).resolve()
            if path.exists() and path != project_root.resolve() and project_root.resolve() in path.parents:
                found.add(path)
    return sorted(found)


@dataclass
class FigureCache:
    """Look up or render one executed block. ``renders``/``hits`` count what a build did."""

    project_root: Path
    cache_dir: Path | None  # None: never store (still counts renders)
    src_root: Path | None = None
    renders: int = 0
    hits: int = 0
    rendered: list[str] = field(default_factory=list)
    render_seconds: dict[str, float] = field(default_factory=dict)  # CPU time of each render, by label

    def __post_init__(self) -> None:
        self.project_root = Path(self.project_root)
        self.graph = DependencyGraph(Path(self.src_root) if self.src_root else find_src_root())
        # The cache's own rules, how blocks run and the output checks decide what may be stored: a change to
        # them re-renders.
        here = Path(__file__).resolve().parent
        own = [self.graph.digest(here / name) for name in OWN_RULES]
        self._environment = f"{_library_versions()}; {' '.join(own)}"

    def key(self, code: str) -> str:
        h = hashlib.sha256()
        h.update(f"figure-cache {CACHE_VERSION}\n{self._environment}\n".encode())
        h.update(hashlib.sha256(code.encode()).hexdigest().encode())
        modules = self.graph.closure(code)
        exact = self.graph.exact_modules(code, modules)  # None: every module by its bytes
        for module in modules:
            path = self.graph.module_file(module)
            h.update(f"\n{module} {self.graph.digest(path, exact is None or module in exact)}".encode())
        for path in named_paths(code, self.project_root):
            relative = path.relative_to(self.project_root.resolve()).as_posix()
            h.update(f"\n{relative} {self.graph.digest(path, exact is None)}".encode())
        return h.hexdigest()

    def run(self, code: str, render: Callable[[], str], label: str = "") -> str:
        """The cached output of ``code``, or ``render()``'s (stored only when it returns normally)."""
        path = None
        if self.cache_dir is not None:
            path = self.cache_dir / f"{self.key(code)}.out"
            if path.is_file():
                self.hits += 1
                return path.read_text(encoding="utf-8")
        start = time.process_time()
        output = render()
        self.render_seconds[label] = self.render_seconds.get(label, 0.0) + time.process_time() - start
        self.renders += 1
        self.rendered.append(label)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(output, encoding="utf-8")
            os.replace(partial, path)  # atomic: a concurrent build never reads half a file
        return output


def cache_dir_from_env(project_root: Path) -> Path | None:
    """``TRANSFORMER_FIGURE_CACHE`` (validated in ``transformer_site.environment``): a folder, ``off``, or default."""
    from transformer_site import environment

    if os.environ.get("TRANSFORMER_FIGURE_CACHE", "") == "":
        return Path(project_root) / ".cache" / "figures"
    return environment.value("TRANSFORMER_FIGURE_CACHE")


def execution_disabled() -> bool:
    from transformer_site import environment

    return bool(environment.value("TRANSFORMER_SITE_NO_EXEC"))


_current: FigureCache | None = None  # the cache of the build in progress (set by transformer_site.executed)


def use(cache: FigureCache | None) -> None:
    global _current
    _current = cache


def report() -> str:
    if _current is None:
        return "figure cache: not installed"
    where = _current.cache_dir if _current.cache_dir is not None else "off"
    rendered = ", ".join(_current.rendered)
    return f"figure cache: {_current.renders} rendered, {_current.hits} from cache ({where}); rendered: {rendered}"


def cost_report() -> str:
    """CPU time the build spent running blocks, and the five slowest (what to look at when a build is slow)."""
    if _current is None or not _current.render_seconds:
        return "executed blocks: none rendered"
    slowest = sorted(_current.render_seconds.items(), key=lambda item: -item[1])[:5]
    listed = ", ".join(f"{label} {seconds:.2f} s" for label, seconds in slowest)
    return f"executed blocks: {sum(_current.render_seconds.values()):.1f} s CPU rendering, slowest {listed}"


def rendered_ids() -> Iterable[str]:
    return list(_current.rendered) if _current else []
