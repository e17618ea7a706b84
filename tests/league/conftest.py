"""The league tests reach the store and server helpers of their sibling folders."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent, HERE.parent / "server", HERE.parent / "store"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
