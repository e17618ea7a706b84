"""Small words of the shared game frame."""

from door.ui.game.screen import ordinal


def test_ordinal_places() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd",
        "101st", "111th", "112th"]


def test_random_games_keep_their_number_to_themselves() -> None:
    from door.games.anciento import Anciento
    from door.ui.game.screen import deal_label, short_deal_label

    numbered, unnumbered = Anciento.new(505), Anciento.random_game()
    assert (deal_label(numbered), short_deal_label(numbered)) == ("game #505", "#505")
    assert (deal_label(unnumbered), short_deal_label(unnumbered)) == ("random game",
                                                                        "random game")
