"""The game registry: one record per game (what it is, its screen, solver, settings, daily
rule), and the list of them in menu order."""
