"""Anciento on the caller's screen: the board, its menu, timer, stones, keys, mouse and words."""
