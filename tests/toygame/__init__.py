"""A toy fifth game, kept in the test tree: "Toy Patience", a one-minute patience dealt
from a game number, with legal moves, undo, a score, JSON, a solver, a screen and a record.

It exists to prove that a game is one record (docs/adding-a-game.md was followed for it):
the suite's per-game tests run with it beside the four built-in games, and nothing in
door/ names it.  It is registered only in tests: the ``toy_game`` fixture
(tests/conftest.py) registers :data:`toygame.record.TOY` for a test, and sets
``REUSSITE_GAME_MODULES=toygame.plugin`` (with tests/ on ``PYTHONPATH``) so that the
processes the door starts -- its solver workers, a door started as a child -- register it
too.
"""
