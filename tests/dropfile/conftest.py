"""What the door's dropfile tests share: a real BBS's DOOR.SYS to launch the door with."""

from __future__ import annotations

from pathlib import Path

import pytest

SAMPLES = Path(__file__).parent / "samples"


@pytest.fixture
def door_sys(tmp_path: Path) -> Path:
    """Mystic's DOOR.SYS (alias ``dexter``), in the test's folder."""
    path = tmp_path / "DOOR.SYS"
    path.write_bytes((SAMPLES / "mystic_demoscene_DOOR.SYS").read_bytes())
    return path
