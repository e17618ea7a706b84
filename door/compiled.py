"""The modules mypyc compiles when the install asks for it, and the guard that uses them
only while they are what their source says.

Every key of every caller runs through the cell buffer, the renderer, the character sets
and the key decoder; compiled to C (setup.py) they cost 40 % less CPU in-process and a
key a sixth to a quarter less in the server (issue #20; docs/workers.md).  A small board
does not need that, and the compile (mypy fetched into the build, then a C compiler) made
the first install take minutes on a busy machine: so an install is plain Python unless
``REUSSITE_COMPILE=1`` asks (``build_backend/reussite_build.py`` then adds mypy to the
build's requirements, and setup.py compiles).
The compiled modules sit beside their ``.py`` files, and Python's import system prefers
them.  In a source tree installed with ``pip install -e`` that is a trap: a module edited
after the install would go on running as it was built.  So :func:`load_hot_modules`, run
by ``door.term`` before it imports any of them, loads all of them from source when any
compiled one is older than its source in a source tree, or does not load (a partial
build): all or none, since compiled modules reach into each other's classes directly.

Mariant's solver is a second group (:data:`SOLVER`): its search is a tight loop of small
integers and bytes that mypyc runs twice as fast (docs/solvability.md), so a hint or a
"still winnable?" searches twice as deep in the same budget.  ``door.games`` runs its guard
before anything of the engines is imported.

Standard library only: setup.py and the build backend import this module to know what to
compile, and when.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Group:
    """Modules mypyc compiles into one shared library (``<name>__mypyc.*.so`` beside
    ``door/``), in the order they import each other, and loaded all or none."""

    name: str
    package: str
    modules: tuple[str, ...]
    what: str
    """What they are, in a warning and in :func:`build_name`."""


TERMINAL = Group("reussite_hot", "door.term",
                 ("door.term.width", "door.term.screen", "door.term.charset",
                  "door.term.render", "door.term.keys"), "the terminal modules")
"""Every key of every caller runs through these (issue #20)."""
SOLVER = Group("reussite_solver", "door.games",
               ("door.games.mariant_ids", "door.games.mariant_solver"), "Mariant's solver")
"""The Mariant solver's search and the card ids it runs on (issue #38)."""
GROUPS = (TERMINAL, SOLVER)

COMPILE_ENV = "REUSSITE_COMPILE"
"""Set (to anything but 0), the install compiles the modules: ``REUSSITE_COMPILE=1 pip
install .``.  Unset, it installs plain Python, with no mypy and no C compiler involved."""

COMPILE_REQUIRES = ("mypy>=2.4,<2.5", "wcwidth>=0.2.13")
"""What the build needs only to compile: mypyc (mypy's; the same mypy as the test extra's
type checker), and wcwidth, which mypyc reads to type-check ``door/term/width.py``."""

PURE_PYTHON_ENV = "REUSSITE_PURE_PYTHON"
"""Set (to anything), it asks for plain Python at run time (the compiled modules of a
compiled install are passed over), and at install even with :data:`COMPILE_ENV` set."""

_SOURCE_TREE = (Path(__file__).parent.parent / "setup.py").exists()
"""The package is a source checkout (an editable install), where sources change after the
build; an installed wheel's never do."""


def pure_python_asked() -> bool:
    """Whether :data:`PURE_PYTHON_ENV` asks for plain Python."""
    return bool(os.environ.get(PURE_PYTHON_ENV))


def compile_asked() -> bool:
    """Whether this install is to compile the modules (:data:`COMPILE_ENV`, and not
    :data:`PURE_PYTHON_ENV`)."""
    return os.environ.get(COMPILE_ENV, "") not in ("", "0") and not pure_python_asked()


def build_products(root: Path) -> list[Path]:
    """The compiled files an in-place build (``pip install -e .``) left in the source tree
    ``root``: what a plain editable install removes, so that the tree then runs as built."""
    found: list[Path] = []
    for group in GROUPS:
        found += root.glob(f"{group.name}__mypyc.*")
        for name in group.modules:
            path = root / (name.replace(".", "/") + ".py")
            found += [p for p in path.parent.glob(path.stem + ".*")
                      if p.suffix in (".so", ".pyd")]
    return sorted(found)


def compiled_paths(group: Group = TERMINAL) -> dict[str, Path]:
    """Each of the group's modules' compiled file, for those that have one (none: plain
    Python)."""
    found = {}
    for name in group.modules:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin and not spec.origin.endswith(".py"):
            found[name] = Path(spec.origin)
    return found


def stale_source(found: dict[str, Path]) -> str | None:
    """The first source file edited since its module was compiled (``found``: each
    module's compiled file), or None."""
    for name, path in found.items():
        source = path.with_name(name.rpartition(".")[2] + ".py")
        if source.exists() and source.stat().st_mtime > path.stat().st_mtime:
            return source.name
    return None


def why_not_compiled(found: dict[str, Path], source_tree: bool = _SOURCE_TREE) -> str | None:
    """Why the compiled modules ``found`` must not be used, or None when they may."""
    if pure_python_asked():
        return f"{PURE_PYTHON_ENV} is set"
    if source_tree and (edited := stale_source(found)) is not None:
        return (f"{edited} changed since it was compiled ({COMPILE_ENV}=1 pip install -e . "
                "builds it again; pip install -e . alone, plain Python)")
    for name in found:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            return f"{name} does not load ({exc})"
    return None


def load_from_source(group: Group = TERMINAL) -> None:
    """Import the group's modules from their ``.py`` files, in order, whatever is compiled
    beside them."""
    package = sys.modules[group.package]
    for name in group.modules:
        short = name.rpartition(".")[2]
        path = Path(package.__path__[0]) / f"{short}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        setattr(package, short, module)


def load_hot_modules(group: Group = TERMINAL) -> None:
    """The group's compiled modules when they are sound, else every one of them from
    source (run by the group's package before it imports any of them)."""
    found = compiled_paths(group)
    if not found:
        return
    reason = why_not_compiled(found)
    if reason is not None:
        for name in group.modules:
            sys.modules.pop(name, None)
        if not pure_python_asked():  # asked for: nothing to warn of
            import logging  # local: not before a BBS caller's first screen (door.term)

            logging.getLogger(__name__).warning("running %s as Python: %s", group.what,
                                                reason)
        load_from_source(group)


def runs_compiled(group: Group = TERMINAL) -> bool:
    """Whether the group's last module, as running now, is the compiled one."""
    module = importlib.import_module(group.modules[-1])  # through its package's guard
    return not str(getattr(module, "__file__", "")).endswith(".py")


def is_compiled() -> bool:
    """Whether the renderer running now is the compiled one."""
    return runs_compiled(TERMINAL)


def build_name() -> str:
    """How the compiled groups run, in a few words (``reussite --version``, the benches)."""
    compiled = [group.what.removeprefix("the ") for group in GROUPS if runs_compiled(group)]
    return f"{' and '.join(compiled)} compiled (mypyc)" if compiled else "plain Python"
