"""Réussite: a BBS door of classic solitaires."""

__version__ = "0.1.0"
