"""Deal numbers the solvers proved winnable, shipped with the package ("Winnable deals only").

Solving on demand is too slow for some games (most deals cannot be won, or a verdict takes
up to seconds), so the door picks from lists made once and shipped in
``door/games/winnable/`` -- one file per game and option, ``#`` comment lines saying how it
was made, then one number a line.  Each was made by ``reussite solve GAME --range A-B
--out FILE.jsonl`` and keeps the deals whose verdict was "winnable" (every such verdict
comes with a winning line the solver replayed through the engine); ``bench/winnable_lists.py``
rebuilds them.  A setup with no list (a game's record names none for its options) is solved
on demand through the solver pool instead (``door.ui.game.solver_view.pick_winnable``).
"""

from __future__ import annotations

from functools import cache

FOLDER = "winnable"


@cache
def _load(name: str) -> tuple[int, ...]:
    from importlib import resources  # local: the records name lists; reading one is rarer

    path = resources.files(__package__).joinpath(FOLDER, f"{name}.txt")
    if not path.is_file():
        return ()
    numbers = []
    for line in path.read_text(encoding="ascii").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            numbers.append(int(line))
    return tuple(numbers)


def winnable_numbers(stem: str) -> tuple[int, ...]:
    """The shipped winnable deal numbers of the list ``stem`` (a game's record names it for
    its options: :meth:`door.catalog.record.GameInfo.winnable_list`); empty: no such list."""
    return _load(stem) if stem else ()


def pick_listed(stem: str) -> int | None:
    """A random number from the shipped list, or None when there is no list."""
    import secrets  # local: like resources above: start-up loads the records, not this

    numbers = winnable_numbers(stem)
    return secrets.choice(numbers) if numbers else None
