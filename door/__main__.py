"""``python -m door`` runs the ``reussite`` command."""

import sys

from .cli import main

sys.exit(main())
