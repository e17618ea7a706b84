"""Games where "still winnable?" was asked carry the hall of fame's mark everywhere the hall
is shown: the bulletin file (ans/asc/json) and the web page (the door's screen: tests/server/
test_still_winnable_telnet.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from door.commands.bulletin import render
from door.store import ScoreEntry
from door.ui.game.still_winnable import HALL_LEGEND
from door.web.pages import hall_page
from door.web.public import entry_dict

WHEN = datetime(2031, 5, 17, 9, 0, tzinfo=UTC)
ENTRIES = [ScoreEntry(1, 10, 1, "Ann", 464, 7, "won", WHEN, "direct", still_asks=2),
           ScoreEntry(2, 11, 2, "Bob", 300, 8, "lost", WHEN, "direct")]


def test_the_bulletin_marks_and_explains() -> None:
    text = render("asc", "Réussite", "montecarlo", "Monte Carlo", "rule", ENTRIES,
                  WHEN).decode("cp437")
    ann = next(line for line in text.splitlines() if "Ann" in line)
    bob = next(line for line in text.splitlines() if "Bob" in line)
    assert "464v #7" in ann and "300  #8" in bob
    assert HALL_LEGEND in text
    data = json.loads(render("json", "Réussite", "montecarlo", "Monte Carlo", "rule",
                             ENTRIES, WHEN))
    assert [e["still_asks"] for e in data["entries"]] == [2, 0]
    plain = render("asc", "Réussite", "montecarlo", "Monte Carlo", "rule", ENTRIES[1:],
                   WHEN).decode("cp437")
    assert HALL_LEGEND not in plain


def test_the_web_page_marks_and_explains() -> None:
    hall = {"game": "montecarlo", "board": None, "rule": "rule", "title": "Monte Carlo",
            "entries": [entry_dict(e) for e in ENTRIES]}
    page = hall_page("Réussite", hall)
    assert '<td class="n">464 v</td>' in page and '<td class="n">300</td>' in page
    assert "still winnable?" in page
    assert [e["still_asks"] for e in hall["entries"]] == [2, 0]
