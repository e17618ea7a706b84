"""Which screen each menu action opens: the features here, and each game's screen from its
record (:mod:`door.catalog.registry`)."""

from __future__ import annotations

from functools import partial

from ...catalog import registry as gamelist
from ..game.screen import play_game
from ..menus.daily import daily_challenge
from ..menus.halloffame import hall_of_fame
from ..menus.main import Action
from ..menus.messages import message_centre
from ..menus.settings import terminal_settings
from ..menus.watch import watch_menu
from ..menus.whosonline import whos_online
from ..shared.instructions import instructions_menu

FEATURES: dict[str, Action] = {
    "halloffame": hall_of_fame,
    "daily": daily_challenge,
    "messages": message_centre,
    "settings": terminal_settings,
    "whosonline": whos_online,
    "watch": watch_menu,
    "instructions": instructions_menu,
}


BACK_TO_THE_BBS = "back to your BBS"
"""What M (Esc, Enter) at the end of a game does for a caller sent straight to it."""


def actions() -> dict[str, Action]:
    """Every menu action: each registered game opens its screen through ``play_game``."""
    games: dict[str, Action] = {info.name: partial(play_game, screen_cls=info.screen_class())
                                for info in gamelist.games()}
    return {**games, **FEATURES}


def game_alone(name: str) -> Action:
    """Game ``name`` as the whole visit (a member board's caller sent to it, ``xtrn=``):
    its end box offers what M really does there, end the call, not a main menu."""
    return partial(play_game, screen_cls=gamelist.game(name).screen_class(),
                   back_to=BACK_TO_THE_BBS)
