"""Toy Patience's record: everything the door knows about it, in one place.

Its engine and screen are named by "module:Class" paths as the built-in games' are; the
module ``toygame`` is importable because tests/ is on ``sys.path`` (pytest puts it there,
and the ``toy_game`` fixture puts it on ``PYTHONPATH`` for the door's child processes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from door.catalog.record import GameInfo, HallRule
from door.games.daily import DailyRule
from door.games.solvers import Solver


def _no_list(options: Mapping[str, Any]) -> str:
    return ""          # no shipped list: "Winnable deals only" asks the solver (it is quick)


TOY = GameInfo(
    name="toy", title="Toy Patience", menu_key="T", menu_label="Toy Patience (a test game)",
    engine="toygame.engine:Toy", screen="toygame.screen:ToyScreen",
    hall=HallRule(score_column="Points"),
    solver=Solver("toygame.solver", budget=2.0),
    still_winnable=True, winnable=_no_list,
    daily=DailyRule({}, numbers=range(1, 1001)))

INSTRUCTIONS = ("@E@Toy Patience@N@\r\n\r\n"
                "@B@Put the cards 1 to 8 home, in order, from the stock.@N@\r\n")
"""Its page for the door home's ansi folder (``toy.ins``)."""
