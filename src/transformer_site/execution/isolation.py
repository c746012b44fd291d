"""Executed code — an executed block, a checked number's expression — runs isolated from the build around it.

A :class:`Guard` around the code gives it

- **a time limit** of CPU time (a busy, shared machine does not make a block fail; code that waits instead is
  stopped at ``WALL_FACTOR`` times the limit on the wall clock): past it, ``BlockTimeout`` is raised in the
  code (a ``BaseException``, so a snippet's ``except Exception`` does not swallow it; it is raised again every
  second until the code stops);
- **its own temporary folder** (``tempfile`` uses it while the code runs) and nothing else to write to: an
  audit hook (PEP 578, ``sys.addaudithook``) refuses every ``open`` for writing and every rename, removal,
  link or new folder outside it (Python's own bytecode cache and the given tool caches excepted), as well as
  starting a process (what it writes could not be watched) and opening a network connection. The refusal is
  raised in the code *and* recorded, so a snippet that catches the ``PermissionError`` still fails;
- **a state that it cannot change for others**: a :class:`StateBaseline` records what executed code reads —
  the public module-level names of the library packages, what they hold (arrays byte for byte, lists, dicts,
  the attributes of the project's own objects such as the cached traces and the weights), the citable names,
  the builtins, ``os.environ``, ``sys.path`` and the global random generators. After the code ran, every
  difference is reported on that code and undone, so the next block or page reads what it would have read.

The audit hook is installed once per process (audit hooks cannot be removed), so this module is never
reloaded between builds (``transformer_site.incremental.KEPT``) and it imports no other project module.
"""

from __future__ import annotations

import builtins
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import types
from collections.abc import Iterable, Mapping
from itertools import repeat
from operator import eq, is_
from pathlib import Path

import numpy as np


class BlockTimeout(BaseException):
    """The code ran past its time limit (a BaseException: ``except Exception`` in a snippet does not stop it)."""


class ForbiddenEffectError(PermissionError):
    """The code tried to write outside its temporary folder, start a process or use the network."""


# --------------------------------------------------------------------------------------------- the audit hook

_guards: list[Guard] = []  # active guards, innermost last
_installed = False

_O_WRITE = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_PATH_EVENTS = {  # event → indices of the arguments that name a path the event writes to (or removes)
    "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,), "os.rename": (0, 1), "os.link": (1,),
    "os.symlink": (1,), "os.truncate": (0,), "os.chmod": (0,), "os.chown": (0,), "os.utime": (0,),
    "shutil.rmtree": (0,), "os.chflags": (0,), "os.lchmod": (0,), "os.mkfifo": (0,), "os.mknod": (0,),
}  # fmt: skip
_PROCESS_EVENTS = frozenset(
    "subprocess.Popen os.system os.posix_spawn os.spawn os.exec os.fork os.forkpty os.startfile pty.spawn".split()
)
_NETWORK_EVENTS = frozenset(("socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"))
WALL_FACTOR = 4  # a block that waits (no CPU) is stopped at this many times its time limit on the wall clock


def _audit(event: str, args: tuple) -> None:
    if not _guards:
        return
    guard = _guards[-1]
    if guard.thread != threading.get_ident():
        return  # another thread (mkdocs serve answering a request) is not the guarded code
    if event == "open":
        path, mode, flags = args
        if isinstance(path, int) or path is None:
            return  # an fd that was opened (and checked) before, or a pipe
        writing = (isinstance(flags, int) and flags & _O_WRITE) or (
            isinstance(mode, str) and any(c in mode for c in "wax+")
        )
        if writing:
            guard.check_write(path, "open for writing")
    elif event in _PATH_EVENTS:
        for index in _PATH_EVENTS[event]:
            if index < len(args) and isinstance(args[index], (str, bytes, os.PathLike)):
                guard.check_write(args[index], event)
    elif event in _PROCESS_EVENTS:
        guard.refuse(f"started a process ({event}): what it writes cannot be watched, so executed code may not")
    elif event in _NETWORK_EVENTS:
        guard.refuse(f"used the network ({event}): the build runs offline")


def _install() -> None:
    global _installed
    if not _installed:
        sys.addaudithook(_audit)
        _installed = True


# ------------------------------------------------------------------------------------------------- the guard


class Guard:
    """Run code with a time limit, a temporary folder of its own and a state it cannot change (see the module).

    ``what`` names the code in messages (``docs/page.md:12: executed block id='…'``). After the ``with``
    block, :attr:`problems` lists what it did wrong (refused writes, processes, state changes, the time limit);
    the exception the code raised, if any, propagates as usual. ``check_before``: compare the state with the
    record on entry too, and take a change found then as the new record (it was not this code's doing).
    """

    def __init__(
        self,
        what: str,
        *,
        time_limit: float | None = None,
        baseline: StateBaseline | None = None,
        allowed_dirs: Iterable[str | os.PathLike] = (),
        cwd: str | os.PathLike | None = None,
        temp_dir: bool = True,
        process_state: bool = True,
        check_before: bool = True,
    ):
        self.what = what
        self.time_limit = time_limit
        self.baseline = baseline
        self.allowed_dirs = [os.path.realpath(d) for d in allowed_dirs]
        self.cwd = cwd
        self.refused: list[str] = []
        self.changes: list[str] = []
        self.timed_out = False
        self.wants_temp_dir = temp_dir
        self.process_state = process_state
        self.check_before = check_before
        self.temp_dir: str | None = None
        self.thread = threading.get_ident()
        self._alarms = 0
        self._closing = self._closed = True  # until entered: close() has nothing to do

    @property
    def problems(self) -> list[str]:
        found = list(self.refused)
        if self.timed_out:
            found.insert(0, f"ran past its time limit of {self.time_limit:g} s (TRANSFORMER_BLOCK_TIME_LIMIT)")
        return found + [f"changed {change}" for change in self.changes]

    # -- writes
    def check_write(self, path, action: str) -> None:
        where = os.path.realpath(os.fsdecode(path))
        if self._may_write(where):
            return
        self.refuse(f"wrote outside its temporary folder: {action} {where}")

    def _may_write(self, where: str) -> bool:
        if where == os.devnull or "__pycache__" in Path(where).parts:  # Python's own bytecode cache
            return True
        return any(where == d or where.startswith(d + os.sep) for d in [self.temp_dir or "", *self.allowed_dirs] if d)

    def refuse(self, message: str) -> None:
        if message not in self.refused:
            self.refused.append(message)
        raise ForbiddenEffectError(message)

    # -- time
    def _alarm(self, signum, frame) -> None:
        self.timed_out = True
        if self._closing:
            return  # the code is over; the guard is putting things back (the timer is about to stop)
        self._alarms += 1
        if self._alarms > 10:  # the code catches BaseException and goes on: nothing else can stop it
            sys.stderr.write(f"ERROR: {self.what}: still running 10 s past its time limit; stopping the build\n")
            sys.stderr.flush()
            os._exit(3)
        raise BlockTimeout(f"ran past its time limit of {self.time_limit:g} s (TRANSFORMER_BLOCK_TIME_LIMIT)")

    def __enter__(self) -> Guard:
        _install()
        outermost = not any(g.thread == self.thread for g in _guards)
        if not outermost:  # e.g. a block that checks checked numbers: the block's own guard watches the state
            self.baseline = None
        if self.baseline is not None:
            self.baseline.refresh()  # modules imported since the last guard, recorded as they are now
            if self.check_before and self.baseline.changes(self.process_state):
                self.baseline.rebase()  # changed by code outside any guard (the build, a test): not this code's
        self.temp_dir = tempfile.mkdtemp(prefix="transformer-block-") if self.wants_temp_dir else None
        self._saved_tempdir = tempfile.tempdir
        self._saved_cwd = os.getcwd()
        self._timer = False
        self._closing = False
        self._closed = False
        if self.time_limit is not None and outermost:
            if threading.current_thread() is not threading.main_thread():
                raise RuntimeError(f"{self.what}: a time limit needs the main thread (MkDocs builds there)")
            # The limit counts the process's CPU time, so a block is not blamed for a busy machine; a block that
            # waits instead of computing (sleep, a lock) is stopped by the wall clock at WALL_FACTOR times it.
            self._saved_handlers = {sig: signal.signal(sig, self._alarm) for sig in (signal.SIGPROF, signal.SIGALRM)}
            signal.setitimer(signal.ITIMER_PROF, self.time_limit, 1.0)
            signal.setitimer(signal.ITIMER_REAL, self.time_limit * WALL_FACTOR, 1.0)
            self._timer = True
        if self.temp_dir is not None:
            tempfile.tempdir = self.temp_dir
        if self.cwd is not None:
            os.chdir(self.cwd)
        _guards.append(self)
        return self

    def __exit__(self, *exc) -> bool:
        self.close()
        return False

    def close(self) -> None:
        """Stop the timer and put everything back; idempotent, so a caller may call it again in ``finally``
        (the time limit can strike on the very call of ``__exit__``, before it ran)."""
        while not self._closed:
            try:
                self._closing = True  # from here on the timer no longer raises
                self._close()
            except BlockTimeout:
                continue

    def _close(self) -> None:
        if self in _guards:
            _guards.remove(self)
        if self._timer:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            for sig, handler in self._saved_handlers.items():
                signal.signal(sig, handler)
            self._timer = False
        tempfile.tempdir = self._saved_tempdir
        os.chdir(self._saved_cwd)
        if self.temp_dir is not None:
            shutil.rmtree(self.temp_dir, ignore_errors=True)
        if self.baseline is not None:
            self.changes = self.baseline.changes(self.process_state)
            if self.changes:
                self.baseline.restore()
        self._closed = True


# ---------------------------------------------------------------------------------------------- the state

_LEAVES = (str, bytes, int, float, complex, bool, type(None), frozenset, range, slice, np.generic)
_MAX_ITEMS = 10_000  # longer lists and dicts are compared by identity of their items, not walked into
_MAX_DEPTH = 12


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


class _Entry:
    __slots__ = ("label", "obj", "saved")

    def __init__(self, label: str, obj, saved):
        self.label, self.obj, self.saved = label, obj, saved


def _same_array(entry: _ArrayEntry) -> bool:
    shape, dtype, data = entry.saved
    a = entry.obj
    return a.shape == shape and a.dtype == dtype and a.tobytes() == data


class _ArrayEntry(_Entry):
    def changed(self) -> list[str]:
        shape, dtype, data = self.saved
        a = self.obj
        if a.shape != shape or a.dtype != dtype or a.tobytes() != data:
            return [f"{self.label} (an array, in place)"]
        return []

    def restore(self) -> None:
        shape, dtype, data = self.saved
        if self.obj.shape == shape and self.obj.dtype == dtype and self.obj.flags.writeable:
            self.obj[...] = np.frombuffer(data, dtype=dtype).reshape(shape)


class _MappingEntry(_Entry):
    """A dict, a module's namespace (public names only) or an object's attributes: each name → the same object."""

    __slots__ = ("keys", "namespace", "public_only", "read", "setter", "size", "values")

    def __init__(self, label, obj, saved, public_only=False, setter=None, read=None):
        super().__init__(label, obj, saved)
        self.public_only, self.setter = public_only, setter
        self.read = read or (vars if setter is not None else None)
        # A module's or an object's __dict__ is the same dict from call to call: read it once.
        self.namespace = vars(obj) if self.read is vars else None
        self.size = len(self._namespace())
        self.keys, self.values = tuple(saved), tuple(saved.values())

    @property
    def fixed(self) -> bool:
        """Whether the names live in one mapping that stays the same object (a dict, a module's or an object's
        ``__dict__``), so that a copy of it can be compared with it as it is now."""
        return self.namespace is not None or self.read is None

    def _namespace(self) -> Mapping:
        if self.namespace is not None:
            return self.namespace
        return self.read(self.obj) if self.read is not None else self.obj

    def _current(self) -> Mapping:
        namespace = self._namespace()
        if self.public_only:
            return {k: v for k, v in namespace.items() if isinstance(k, str) and not k.startswith("_")}
        return namespace

    def changed(self) -> list[str]:
        namespace, saved = self._namespace(), self.saved
        # Fast path (this runs after every block and every checked number): same size, same objects, compared
        # in C (map over dict.get and operator.is_), a few nanoseconds a name.
        if len(namespace) == self.size and all(map(is_, map(namespace.get, self.keys, repeat(_MISSING)), self.values)):
            return []
        current = self._current()
        if current.keys() == saved.keys() and all(current[k] is v for k, v in saved.items()):
            self.size = len(namespace)  # only private names came or went (a module's own cache)
            return []
        sep = "." if self.setter is not None else ""
        out = []
        for key in saved:
            if key not in current:
                out.append(f"{self.label}{sep}{_key(key, sep)} (removed)")
            elif current[key] is not saved[key]:
                out.append(f"{self.label}{sep}{_key(key, sep)}: {_short(saved[key])} → {_short(current[key])}")
        out.extend(f"{self.label}{sep}{_key(key, sep)} (added)" for key in current if key not in saved)
        return out

    def restore(self) -> None:
        current = self._current()
        if self.setter is None:  # a plain dict
            self.obj.clear()
            self.obj.update(self.saved)
            return
        for key in [k for k in current if k not in self.saved]:
            self.setter(self.obj, key, None, delete=True)
        for key, value in self.saved.items():
            if current.get(key, _MISSING) is not value:
                self.setter(self.obj, key, value)


_MISSING = object()


def _key(key, sep: str) -> str:
    return str(key) if sep else f"[{key!r}]"


def _slot_values(obj) -> dict:
    """The attributes of an object without ``__dict__`` (a dataclass with ``slots=True``)."""
    names = [name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ())]
    return {name: getattr(obj, name) for name in names if hasattr(obj, name) and not name.startswith("__")}


def _set_attribute(obj, key, value, delete=False) -> None:
    # object.__setattr__ also undoes a change to a frozen dataclass (which the change itself must have used)
    if isinstance(obj, type) or isinstance(obj, types.ModuleType):
        delattr(obj, key) if delete else setattr(obj, key, value)
    else:
        object.__delattr__(obj, key) if delete else object.__setattr__(obj, key, value)


class _SequenceEntry(_Entry):
    def changed(self) -> list[str]:
        obj, saved = self.obj, self.saved
        if len(obj) == len(saved) and all(a is b for a, b in zip(obj, saved, strict=True)):
            return []
        return [f"{self.label} (a {type(obj).__name__}, now {_short(obj)})"]

    def restore(self) -> None:
        if isinstance(self.obj, list):
            self.obj[:] = self.saved
        else:  # a set
            self.obj.clear()
            self.obj.update(self.saved)


class _CallEntry(_Entry):
    """Process state read through a public getter: the global random generators, os.environ, sys.path."""

    __slots__ = ("advice", "read", "same", "write")

    def __init__(self, label, read, write, same, advice=""):
        super().__init__(label, None, read())
        self.read, self.write, self.same, self.advice = read, write, same, advice

    def changed(self) -> list[str]:
        return [] if self.same(self.read(), self.saved) else [f"{self.label}{self.advice}"]

    def restore(self) -> None:
        self.write(self.saved)


def _same_rng(a, b) -> bool:
    return a[0] == b[0] and a[2:] == b[2:] and np.array_equal(a[1], b[1])


def _set_environ(saved: dict) -> None:
    for key in [k for k in os.environ if k not in saved]:
        del os.environ[key]
    for key, value in saved.items():
        if os.environ.get(key) != value:
            os.environ[key] = value


def _set_sys_path(saved: tuple) -> None:
    path_list, contents = saved
    sys.path = path_list
    path_list[:] = contents


class StateBaseline:
    """What executed code may read but not change, recorded once; :meth:`changes` and :meth:`restore` after.

    ``packages``: the library packages whose modules' public names (and what they hold) are watched.
    """

    def __init__(self, packages: Iterable[str]):
        self.packages = tuple(packages)
        self.rebase()

    def rebase(self) -> None:
        """Record the state as it is now (forgetting the earlier record)."""
        self._entries: list[_Entry] = []
        self._seen: set[int] = set()
        self._keep: list[object] = []  # keeps recorded objects alive, so their ids stay theirs
        self._modules: dict[str, types.ModuleType] = {}
        self._arrays: list[_ArrayEntry] = []  # checked together: the most numerous entries
        # The namespaces of the fixed mapping entries and a whole copy of each (private names too), taken when
        # they were recorded: when every one still equals its copy, nothing in them changed.
        self._namespaces: list[Mapping] = []
        self._pictures: list[dict] = []
        self._unpictured: list[_Entry] = []  # the entries the copies do not cover
        self._module_count = -1
        self._process = self._process_state()
        self.refresh()

    def _process_state(self) -> list[_Entry]:
        advice = ": draw from np.random.default_rng(seed), so the output does not depend on what ran before"

        def equal(a, b) -> bool:
            return a == b

        return [
            _CallEntry("numpy's global random state", np.random.get_state, np.random.set_state, _same_rng, advice),
            _CallEntry("Python's global random state", random.getstate, random.setstate, equal, advice),
            _CallEntry("os.environ", lambda: dict(os.environ), _set_environ, equal),
            _CallEntry("sys.path", lambda: (sys.path, list(sys.path)), _set_sys_path,
                       lambda a, b: a[0] is b[0] and a[1] == b[1]),
            _CallEntry("numpy's print options", np.get_printoptions, lambda o: np.set_printoptions(**o), equal),
            _CallEntry("numpy's error handling", np.geterr, lambda o: np.seterr(**o), equal),
        ]  # fmt: skip

    def refresh(self) -> None:
        """Record modules of the watched packages imported since (their state as it is now), and the names."""
        if len(sys.modules) == self._module_count:
            return
        self._module_count = len(sys.modules)
        for name, module in list(sys.modules.items()):
            if module is None or name in self._modules or name.split(".", 1)[0] not in self.packages:
                continue
            self._modules[name] = module
            self._walk(name, module, 0, module_root=True)
        if "builtins" not in self._modules:
            self._modules["builtins"] = builtins
            self._walk("builtins", builtins, 0, module_root=True)
        citable = sys.modules.get("transformer_site.citable")
        if citable is not None and "transformer_site.citable" not in self._modules:
            self._modules["transformer_site.citable"] = citable
            for key, value in getattr(citable, "NAMES", {}).items():
                self._walk(key, value, 1)

    def _walk(self, label: str, obj, depth: int, module_root: bool = False) -> None:
        if isinstance(obj, _LEAVES) or depth > _MAX_DEPTH or id(obj) in self._seen:
            return
        if isinstance(obj, types.ModuleType):
            if not module_root:
                return  # another module: watched as its own root if it is one of ours
            self._remember(obj)
            public = {k: v for k, v in vars(obj).items() if not k.startswith("_")}
            self._add(_MappingEntry(label, obj, public, public_only=True, setter=_set_attribute))
            for key, value in public.items():
                if not isinstance(value, types.ModuleType) and self._ours(value, obj.__name__):
                    self._walk(f"{label}.{key}", value, depth + 1)
            return
        self._remember(obj)
        if isinstance(obj, np.ndarray):
            if obj.dtype != object:
                self._arrays.append(_ArrayEntry(label, obj, (obj.shape, obj.dtype, obj.tobytes())))
        elif isinstance(obj, dict):
            self._add(_MappingEntry(label, obj, dict(obj)))
            if len(obj) <= _MAX_ITEMS:
                for key, value in obj.items():
                    self._walk(f"{label}[{key!r}]", value, depth + 1)
        elif isinstance(obj, Mapping) and isinstance(obj, types.MappingProxyType):
            for key, value in obj.items():
                self._walk(f"{label}[{key!r}]", value, depth + 1)
        elif isinstance(obj, (list, set)):
            self._add(_SequenceEntry(label, obj, list(obj) if isinstance(obj, list) else set(obj)))
            if isinstance(obj, list) and len(obj) <= _MAX_ITEMS:
                for i, value in enumerate(obj):
                    self._walk(f"{label}[{i}]", value, depth + 1)
        elif isinstance(obj, tuple):
            if len(obj) <= _MAX_ITEMS:
                for i, value in enumerate(obj):
                    self._walk(f"{label}[{i}]", value, depth + 1)
        elif isinstance(obj, type):
            if self._is_project_class(obj):
                public = {k: v for k, v in vars(obj).items() if not k.startswith("_")}
                self._add(_MappingEntry(label, obj, public, public_only=True, setter=_set_attribute))
        elif self._is_project_class(type(obj)):
            read = vars if hasattr(obj, "__dict__") else _slot_values
            attributes = dict(read(obj))
            self._add(_MappingEntry(label, obj, attributes, setter=_set_attribute, read=read))
            for key, value in attributes.items():
                self._walk(f"{label}.{key}", value, depth + 1)

    def _add(self, entry: _Entry) -> None:
        self._entries.append(entry)
        if isinstance(entry, _MappingEntry) and entry.fixed:
            namespace = entry._namespace()
            self._namespaces.append(namespace)
            self._pictures.append(dict(namespace))
        else:
            self._unpictured.append(entry)

    def _untouched(self) -> bool:
        """Whether every fixed namespace equals its copy: one comparison in C each, and dict equality tests
        identity first, so an unchanged namespace costs no Python call (this runs after every checked number)."""
        try:
            return all(map(eq, self._namespaces, self._pictures))
        except Exception:  # a value whose == cannot answer (an array rebound to another array): look closer
            return False

    def _remember(self, obj) -> None:
        self._seen.add(id(obj))
        self._keep.append(obj)

    def _is_project_class(self, cls: type) -> bool:
        return getattr(cls, "__module__", "").split(".", 1)[0] in self.packages

    def _ours(self, value, module_name: str) -> bool:
        """Whether a module-level value is state of ours: not a function or class imported from elsewhere."""
        if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
            return False  # identity is enough (recorded in the module's namespace)
        if isinstance(value, type):
            return self._is_project_class(value)
        return True

    def changes(self, process_state: bool = True) -> list[str]:
        """What differs from the recorded state, one description each (empty when nothing changed).

        ``process_state=False`` leaves out the random generators, ``os.environ``, ``sys.path`` and numpy's
        settings (a quarter of a millisecond): a checked number's expression cannot reach them.
        """
        found: list[str] = []
        arrays = self._arrays
        if not all(map(is_, map(_same_array, arrays), repeat(True))):
            for entry in arrays:
                found.extend(entry.changed())
        untouched = self._untouched()
        for entry in self._unpictured if untouched else self._entries:
            found.extend(entry.changed())
        if not untouched and not found:  # only private names came or went (a module's own cache): copy again
            self._pictures = [dict(namespace) for namespace in self._namespaces]
        if process_state:
            for entry in self._process:
                found.extend(entry.changed())
        return found

    def restore(self) -> None:
        """Put everything recorded back as it was."""
        for entry in [*self._arrays, *self._entries, *self._process]:
            if entry.changed():
                entry.restore()
