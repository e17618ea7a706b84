"""Small words of the shared game frame."""

from door.ui.game_screen import ordinal


def test_ordinal_places() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd",
        "101st", "111th", "112th"]
