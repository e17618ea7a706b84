"""Imported by ``REUSSITE_GAME_MODULES=toygame.plugin``: registers Toy Patience in a
process the tests started (door.catalog.registry imports it first thing)."""

from door.catalog import registry as gamelist

from .record import TOY

gamelist.register(TOY)
