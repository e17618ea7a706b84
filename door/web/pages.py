"""The public pages as plain HTML: no JavaScript, one small style sheet inline, every text
that a player (or a sysop) typed escaped, so a handle like ``<b>x</b>`` shows as written."""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from .. import gamelist
from ..ui.halloffame import game_title
from ..ui.still_winnable import HALL_LEGEND, HALL_MARK

STYLE = """
body { font-family: "DejaVu Sans", system-ui, sans-serif; margin: 1.5em auto; max-width: 52em;
       padding: 0 1em; background: #10141c; color: #dde3ea; }
a { color: #7fc8ff; } h1 { font-size: 1.5em; } h1 small { font-weight: normal; color: #99a; }
nav a { margin-right: 1.2em; } nav { margin-bottom: 1.5em; }
table { border-collapse: collapse; width: 100%; margin: 1em 0; }
th, td { text-align: left; padding: .3em .6em; border-bottom: 1px solid #2a3140; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.rule, .note, footer { color: #99a; } footer { margin-top: 2em; font-size: .9em; }
form { margin: 1em 0; } input, select, button { font: inherit; }
"""


def text(value: Any) -> str:
    """Any value as HTML text."""
    return escape("" if value is None else str(value), quote=True)


def page(door: str, title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{text(title)} · {text(door)}</title><style>{STYLE}</style></head>\n"
            f"<body><h1>{text(title)} <small>{text(door)}</small></h1>\n"
            f'<nav><a href="/">Play</a><a href="/halloffame">Hall of Fame</a>'
            f'<a href="/online">Who\'s online</a><a href="/daily">Daily challenge</a></nav>\n'
            f'{body}\n<footer>The same as JSON: <a href="/api">/api</a></footer>'
            f"</body></html>\n")


def _games_nav(current: str | None, board: str | None) -> str:
    suffix = f"?board={quote(board)}" if board else ""
    links = [(f"<b>{text(game_title(g))}</b>" if g == current else
              f'<a href="/halloffame/{g}{suffix}">{text(game_title(g))}</a>')
             for g in gamelist.names()]
    return "<p>" + " · ".join(links) + "</p>"


def _entries(entries: list[dict[str, Any]], empty: str, with_deal: bool = True) -> str:
    if not entries:
        return f'<p class="note">{text(empty)}</p>'
    head = ('<tr><th class="n">Rank</th><th>Player</th><th class="n">Score</th>'
            + ('<th class="n">Deal</th>' if with_deal else "") + "<th>Date</th></tr>")
    rows = []
    for e in entries:
        deal = (f'<td class="n"><a href="/halloffame/{e["game"]}/{e["deal"]}">#{e["deal"]}'
                "</a></td>" if with_deal else "")
        mark = f" {HALL_MARK}" if e.get("still_asks") else ""
        rows.append(f'<tr><td class="n">{e["rank"]}.</td><td>{text(e["player"])}</td>'
                    f'<td class="n">{e["score"]}{mark}</td>{deal}'
                    f'<td>{text(e["ended"][:10])}</td></tr>')
    legend = (f'<p class="note">{text(HALL_LEGEND)}</p>'
              if any(e.get("still_asks") for e in entries) else "")
    return f"<table>{head}{''.join(rows)}</table>{legend}"


def _deal_form(game: str) -> str:
    options = "".join(f'<option value="{g}"{" selected" if g == game else ""}>'
                      f"{text(game_title(g))}</option>" for g in gamelist.names())
    return ('<form action="/deal" method="get">Best on one deal: '
            f'<select name="game">{options}</select> '
            '<input name="number" inputmode="numeric" size="10" placeholder="deal #" '
            'required> <button>Show</button></form>')


def hall_page(door: str, hall: dict[str, Any]) -> str:
    entries = [dict(e, game=hall["game"]) for e in hall["entries"]]
    body = (_games_nav(hall["game"], hall["board"])
            + f'<p class="rule">{text(hall["rule"])}.</p>'
            + _entries(entries, "No scores yet: be the first!")
            + _deal_form(hall["game"]))
    return page(door, hall["title"], body)


def halls_page(door: str, halls: list[dict[str, Any]]) -> str:
    """Every game's top three, with a link to its whole hall of fame."""
    parts = []
    for hall in halls:
        entries = [dict(e, game=hall["game"]) for e in hall["entries"][:3]]
        parts.append(f'<h2><a href="/halloffame/{hall["game"]}">{text(hall["title"])}</a></h2>'
                     + _entries(entries, "No scores yet: be the first!"))
    return page(door, "Hall of Fame", "".join(parts) + _deal_form(gamelist.names()[0]))


def deal_page(door: str, deal: dict[str, Any]) -> str:
    entries = [dict(e, game=deal["game"]) for e in deal["entries"]]
    body = (f'<p class="rule">{text(deal["rule"])}.</p>'
            + _entries(entries, "Nobody has a score on this deal yet.", with_deal=False)
            + f'<p><a href="/halloffame/{deal["game"]}">{text(deal["game_name"])}: the whole '
              "hall of fame</a></p>" + _deal_form(deal["game"]))
    return page(door, deal["title"], body)


def online_page(door: str, online: dict[str, Any]) -> str:
    several = online["servers"] > 1
    callers = online["callers"]
    if not callers:
        return page(door, "Who's online", '<p class="note">Nobody is on right now.</p>')
    head = ("<tr>" + ('<th class="n">Server</th>' if several else "")
            + '<th class="n">Node</th><th>Player</th><th>Doing</th><th class="n">Idle</th></tr>')
    rows = "".join(
        "<tr>" + (f'<td class="n">{c["server"]}</td>' if several else "")
        + f'<td class="n">{c["node"]}</td><td>{text(c["player"] or "(logging in)")}</td>'
        f'<td>{text(c["doing"])}</td><td class="n">{text(c["idle"])}</td></tr>'
        for c in callers)
    return page(door, "Who's online", f"<table>{head}{rows}</table>")


def daily_page(door: str, daily: dict[str, Any]) -> str:
    parts = [f'<p>{text(daily["date"])} (UTC): one deal per game, the same on every board; '
             "a caller's first finished attempt counts. Resets at 00:00 UTC.</p>"]
    for game in daily["games"]:
        entries = [dict(e, game=game["game"]) for e in game["entries"]]
        parts.append(f'<h2>{text(game["game_name"])} #{game["deal"]}</h2>'
                     + _entries(entries, "Nobody has played it yet today.", with_deal=False)
                     + _month(daily["month"], game["game_name"], game["month"]))
    if daily["streaks"]:
        rows = "".join(f'<tr><td>{text(s["player"])}</td><td class="n">{s["played"]}</td>'
                       f'<td class="n">{s["played_best"]}</td><td class="n">{s["won"]}</td>'
                       f'<td class="n">{s["won_best"]}</td></tr>' for s in daily["streaks"])
        parts.append('<h2>Streaks</h2><table><tr><th>Player</th><th class="n">Days played'
                     '</th><th class="n">(best)</th><th class="n">Days won</th>'
                     f'<th class="n">(best)</th></tr>{rows}</table>')
    return page(door, "Daily challenge", "".join(parts))


def league_page(door: str, league: dict[str, Any]) -> str:
    """Today's league: every board's callers on one ladder per game, board against board,
    the league's streaks.  Board names and handles came from other boards: escaped."""
    me = league["board"]
    parts = [f'<p>{text(league["date"])} (UTC): the daily challenge across the boards of '
             f'this league. Every result was signed by its board and replayed here, move by '
             f'move, before it counted. This board: <b>{text(me)}</b>.</p>']
    for game in league["games"]:
        parts.append(f'<h2>{text(game["game_name"])} #{game["deal"]}</h2>')
        if not game["entries"]:
            parts.append('<p class="note">No board of the league has a result yet today.</p>')
            continue
        rows = "".join(
            f'<tr><td class="n">{e["rank"]}.</td><td>{text(e["player"])}</td>'
            f'<td>{"<b>" + text(e["board"]) + "</b>" if e["board"] == me else text(e["board"])}'
            f'</td><td class="n">{e["score"]}</td><td>{"won" if e["won"] else "not won"}</td>'
            "</tr>" for e in game["entries"])
        parts.append('<table><tr><th class="n">Rank</th><th>Player</th><th>Board</th>'
                     f'<th class="n">Score</th><th>Result</th></tr>{rows}</table>')
    parts.append("<h2>Board against board</h2>")
    if league["boards"]:
        rows = "".join(f'<tr><td class="n">{b["rank"]}.</td><td>{text(b["board"])}</td>'
                       f'<td class="n">{b["points"]}</td><td class="n">{b["wins"]}</td>'
                       f'<td class="n">{b["played"]}</td><td class="n">{b["callers"]}</td></tr>'
                       for b in league["boards"])
        parts.append('<p class="rule">Points: 10 for a 1st place on a game\'s ladder, 1 for a '
                     '10th.</p><table><tr><th class="n">Rank</th><th>Board</th>'
                     '<th class="n">Points</th><th class="n">Wins</th><th class="n">Played</th>'
                     f'<th class="n">Callers</th></tr>{rows}</table>')
    else:
        parts.append('<p class="note">No results yet today.</p>')
    if league["streaks"]:
        rows = "".join(f'<tr><td>{text(s["player"])}</td><td>{text(s["board"])}</td>'
                       f'<td class="n">{s["played"]}</td><td class="n">{s["won"]}</td></tr>'
                       for s in league["streaks"])
        parts.append('<h2>League streaks</h2><table><tr><th>Player</th><th>Board</th>'
                     f'<th class="n">Days played</th><th class="n">Days won</th></tr>{rows}'
                     "</table>")
    return page(door, "League", "".join(parts))


def _month(month: str, title: str, standings: list[dict[str, Any]]) -> str:
    """A game's challenges of the month so far: most days won first (the door's M board)."""
    caption = f"<h3>{text(month)}: {text(title)} challenges, most won first</h3>"
    if not standings:
        return caption + '<p class="note">No challenge played this month yet.</p>'
    rows = "".join(f'<tr><td class="n">{s["rank"]}.</td><td>{text(s["player"])}</td>'
                   f'<td class="n">{s["won"]}</td><td class="n">{s["played"]}</td>'
                   f'<td class="n">{s["best"]}</td></tr>' for s in standings)
    return (caption + '<table><tr><th class="n">Rank</th><th>Player</th><th class="n">Won'
            '</th><th class="n">Played</th><th class="n">Best</th></tr>' + rows + "</table>")


def not_found_page(door: str, why: str) -> str:
    return page(door, "Not here", f'<p class="note">{text(why)}</p>')


def unavailable_page(door: str) -> str:
    return page(door, "Try again soon",
                '<p class="note">Scores are unavailable right now. Please try again later.</p>')
