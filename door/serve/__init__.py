"""``reussite serve``: the server answering direct callers, its listeners and worker processes,
one call per player across them, and its housekeeping."""
