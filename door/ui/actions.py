"""Which screen each menu action opens."""

from __future__ import annotations

from .anciento_screen import play_anciento
from .auntmary_screen import play_auntmary
from .halloffame import hall_of_fame
from .instructions import instructions_menu
from .mariant_screen import play_mariant
from .menu import Action
from .messages import message_centre
from .montecarlo_screen import play_montecarlo
from .settings import terminal_settings
from .watch import watch_menu
from .whosonline import whos_online

ACTIONS: dict[str, Action] = {}
ACTIONS["halloffame"] = hall_of_fame
ACTIONS["messages"] = message_centre
ACTIONS["montecarlo"] = play_montecarlo
ACTIONS["mariant"] = play_mariant
ACTIONS["auntmary"] = play_auntmary
ACTIONS["settings"] = terminal_settings
ACTIONS["anciento"] = play_anciento
ACTIONS["whosonline"] = whos_online
ACTIONS["watch"] = watch_menu
ACTIONS["instructions"] = instructions_menu
