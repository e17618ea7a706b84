"""Aunt Mary on the caller's screen: the board, its keys, mouse and words."""
