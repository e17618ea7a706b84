"""The build backend: setuptools' own, with mypy (for mypyc) added to the build's
requirements only when ``REUSSITE_COMPILE`` asks for the compiled terminal modules.

pyproject.toml's ``[build-system] requires`` is the same for every install, so it names
setuptools alone: a first install is plain Python and fetches no mypy (20 s where the
compiled build took 49 s on a quiet machine and minutes on a busy one).  PEP 517 lets the
backend add requirements per build (``get_requires_for_build_*``), which is what this does
(setuptools documents this pattern: "Dynamic build dependencies").  An editable install
without the compile also removes the compiled files an earlier compiled one left beside
the sources, since Python would otherwise go on importing them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 -- every other hook, as setuptools has it

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from door.compiled import (  # noqa: E402 -- the project root is on the path from here
    COMPILE_ENV,
    COMPILE_REQUIRES,
    build_products,
    compile_asked,
)


def _compile_requires() -> list[str]:
    return list(COMPILE_REQUIRES) if compile_asked() else []


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *_compile_requires()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None
                                    ) -> list[str]:
    return [*_setuptools.get_requires_for_build_editable(config_settings),
            *_compile_requires()]


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    if not compile_asked():
        for path in build_products(ROOT):
            path.unlink()
            print(f"reussite: removed {path.name}, left by a compiled build: plain Python "
                  f"now ({COMPILE_ENV}=1 compiles)")
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
