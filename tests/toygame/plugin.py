"""Imported by ``REUSSITE_GAME_MODULES=toygame.plugin``: registers Toy Patience in a
process the tests started (door.gamelist imports it first thing)."""

from door import gamelist

from .record import TOY

gamelist.register(TOY)
