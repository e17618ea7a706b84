"""The league tests reach the server helpers (tests/server/serverhelp.py)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE.parent, HERE.parent / "server"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
