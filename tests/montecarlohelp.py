"""Monte Carlo's moves as a caller types them, for tests that play a deal through a door."""

from __future__ import annotations

from door.games.montecarlo import MonteCarlo


def keys_for(game: MonteCarlo, move: str) -> str:
    """The keys that play ``move``: the move, then Y to the question the door asks before a
    pair that makes it deal from the stock (neither can be undone after it)."""
    return move + ("y" if game.deals_after(move) else "")


def end_keys(game: MonteCarlo) -> str:
    """What ends a deal with no pair left: Enter at the end offer (a won deal ends by
    itself)."""
    return "" if game.status == "won" else "\r"
