"""Subcommands of ``reussite`` beyond the foundation's, one module each (see door.cli)."""
