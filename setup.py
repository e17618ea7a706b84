"""The build: setup.cfg says what the package is; this file compiles its hottest modules
when the install asks for it.

The modules every key of every caller runs through — the cell buffer, the renderer, the
character sets, the key decoder (``door/compiled.py`` names them) — can be compiled to C by
mypyc, which the type checking of ``door/`` already makes possible: the same source, a
sixth to a quarter less CPU a key in the server (issue #20; docs/workers.md "Compiled
modules"), and Mariant's solver, twice as fast (docs/solvability.md).
``REUSSITE_COMPILE=1 pip install .`` asks for it (the in-tree build backend,
``build_backend/reussite_build.py``, then brings mypy into the build); without it, and
where mypyc or a C compiler is missing, the door installs and runs as plain Python.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).parent))
from door.compiled import COMPILE_ENV, GROUPS, compile_asked


def compiled_extensions() -> list:
    """mypyc's extensions for the hot modules when asked for and possible, else none."""
    if not compile_asked():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # a build without the backend's requirements (--no-build-isolation)
        print(f"reussite: {COMPILE_ENV} is set but mypyc is not installed: the door is "
              "installed as plain Python")
        return []
    extensions = []
    for group in GROUPS:  # one shared library each: loaded all or none (door/compiled.py)
        paths = [name.replace(".", "/") + ".py" for name in group.modules]
        try:
            extensions += mypycify(paths, opt_level="3", group_name=group.name)
        except BaseException as exc:  # mypy's own check failed (it exits): Python serves
            print(f"reussite: {group.what} not compiled ({exc!r}): plain Python")
    return extensions


class OptionalBuildExt(build_ext):
    """A machine without a C compiler still gets a working door: the extensions that do not
    build are left out, and their modules run as Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all, no Python headers
            print(f"reussite: not compiled ({type(exc).__name__}): plain Python")

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            print(f"reussite: {ext.name} not compiled ({type(exc).__name__}: no working C "
                  "compiler?): plain Python")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
