"""Which screen each menu action opens: the features here, and each game's screen from its
record (:mod:`door.gamelist`)."""

from __future__ import annotations

from functools import partial

from .. import gamelist
from .daily import daily_challenge
from .game_screen import play_game
from .halloffame import hall_of_fame
from .instructions import instructions_menu
from .menu import Action
from .messages import message_centre
from .settings import terminal_settings
from .watch import watch_menu
from .whosonline import whos_online

FEATURES: dict[str, Action] = {
    "halloffame": hall_of_fame,
    "daily": daily_challenge,
    "messages": message_centre,
    "settings": terminal_settings,
    "whosonline": whos_online,
    "watch": watch_menu,
    "instructions": instructions_menu,
}


def actions() -> dict[str, Action]:
    """Every menu action: each registered game opens its screen through ``play_game``."""
    games: dict[str, Action] = {info.name: partial(play_game, screen_cls=info.screen_class())
                                for info in gamelist.games()}
    return {**games, **FEATURES}
