"""Réussite: a BBS door of classic solitaires."""

__version__ = "0.1.0"
"""The one place the version is written (setup.cfg reads it; ``reussite --version`` says it)."""
