"""A watcher's viewport is a real :class:`~door.ui.shared.canvas.Canvas`, not a session in
disguise: every game's screen draws on one (the board, the key line, the watcher's status
line), and a screen drawn there refuses, by name, whatever only a player's session can do.

That a viewport has all a canvas needs is mypy's to say: door/ui/menus/watch.py hands one to the
screens typed against ``Canvas`` with no cast, and tests/test_types.py runs mypy on door/.
The bytes watchers get over real telnet are tests/server/test_watch.py's."""

from __future__ import annotations

import pytest

from door.catalog import registry as gamelist
from door.catalog.record import GameInfo
from door.config import Settings
from door.ui.game.screen import screen_class
from door.ui.menus.watch import Viewport, draw_view
from door.watching.hub import WatchHub


@pytest.mark.parametrize("info", gamelist.games(), ids=lambda info: info.name)
def test_every_games_screen_draws_a_watched_game_on_a_viewport(
        info: GameInfo, settings: Settings) -> None:
    game = gamelist.engine(info.name).new(7)
    watched = WatchHub().offer("Ann", info.title, "#7", game, True)
    view = Viewport(settings, "Ann", 80, 24, color=True)
    draw_view(view, watched)
    lines = view.screen.text()
    assert info.title in lines[0]  # the header
    assert any(line.strip() for line in lines[1:20]), "the board is drawn"
    assert lines[-1].strip().startswith(f"Watching Ann · {info.title} #7")


def test_the_toy_game_draws_for_watchers_too(toy_game: GameInfo, settings: Settings) -> None:
    test_every_games_screen_draws_a_watched_game_on_a_viewport(toy_game, settings)


@pytest.mark.parametrize("info", gamelist.games(), ids=lambda info: info.name)
def test_a_screen_drawn_for_watchers_has_no_player_to_ask(
        info: GameInfo, settings: Settings) -> None:
    drawer = screen_class(info.name)(Viewport(settings, "Ann", 80, 24, color=False),
                                     gamelist.engine(info.name).new(7))
    with pytest.raises(TypeError, match="nobody plays on a Viewport"):
        drawer.session.bell()  # what a refusal would do: there is no bell to ring
