"""Mariant on the caller's screen: the board, its setup screen, keys, mouse and words."""
