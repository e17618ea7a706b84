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

Standard library only: setup.py and the build backend import this module to know what to
compile, and when.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path

COMPILED_MODULES = ("door.term.width", "door.term.screen", "door.term.charset",
                    "door.term.render", "door.term.keys")
"""In the order they import each other (each imports only those before it)."""

GROUP_NAME = "reussite_hot"
"""mypyc's shared library for the five: ``reussite_hot__mypyc.*.so`` beside ``door/``."""

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
    found = [*root.glob(f"{GROUP_NAME}__mypyc.*")]
    for name in COMPILED_MODULES:
        path = root / (name.replace(".", "/") + ".py")
        found += [p for p in path.parent.glob(path.stem + ".*")
                  if p.suffix in (".so", ".pyd")]
    return sorted(found)


def compiled_paths() -> dict[str, Path]:
    """Each hot module's compiled file, for those that have one (nothing: plain Python)."""
    found = {}
    for name in COMPILED_MODULES:
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


def load_from_source(names: tuple[str, ...] = COMPILED_MODULES) -> None:
    """Import ``names`` from their ``.py`` files, in order, whatever is compiled beside them."""
    package = sys.modules["door.term"]
    for name in names:
        short = name.rpartition(".")[2]
        path = Path(package.__path__[0]) / f"{short}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        setattr(package, short, module)


def load_hot_modules() -> None:
    """The compiled modules when they are sound, else every one of them from source."""
    found = compiled_paths()
    if not found:
        return
    reason = why_not_compiled(found)
    if reason is not None:
        for name in COMPILED_MODULES:
            sys.modules.pop(name, None)
        if not pure_python_asked():  # asked for: nothing to warn of
            import logging  # local: not before a BBS caller's first screen (door.term)

            logging.getLogger(__name__).warning("running the terminal modules as Python: %s",
                                                reason)
        load_from_source()


def is_compiled() -> bool:
    """Whether the renderer running now is the compiled one."""
    module = importlib.import_module("door.term.render")  # through door.term and its guard
    return not str(getattr(module, "__file__", "")).endswith(".py")


def build_name() -> str:
    """How the terminal modules run, in a few words (``reussite --version``, the benches)."""
    return "terminal modules compiled (mypyc)" if is_compiled() else "plain Python"
