"""The build: setup.cfg says what the package is; this file compiles its hottest modules.

The modules every key of every caller runs through — the cell buffer, the renderer, the
character sets, the key decoder (``door/compiled.py`` names them) — are compiled to C by
mypyc, which the type checking of ``door/`` already makes possible: the same source, a
sixth to a quarter less CPU a key in the server (issue #20; docs/workers.md "Compiled
modules").  Nothing else changes:
where mypyc or a C compiler is missing, or ``REUSSITE_PURE_PYTHON=1`` is set, the door
installs and runs as plain Python, only slower.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).parent))
from door.compiled import COMPILED_MODULES, pure_python_asked  # they live with the guard


def compiled_extensions() -> list:
    """mypyc's extensions for the hot modules, or none (plain Python) when it cannot."""
    if pure_python_asked():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("reussite: mypyc is not installed: the door is installed as plain Python")
        return []
    paths = [name.replace(".", "/") + ".py" for name in COMPILED_MODULES]
    try:
        return mypycify(paths, opt_level="3", group_name="reussite_hot")
    except BaseException as exc:  # mypy's own check failed (it exits): plain Python serves
        print(f"reussite: not compiled ({exc!r}): the door is installed as plain Python")
        return []


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
