"""Renderer benchmark: bytes and time per frame, against a naive repaint and the floor.

    /work/venv/bin/python bench/bench_render.py [--runs N] [--charset cp437|utf8|ascii]

Four frame changes a caller really sees: a full 80x24 game screen (first paint), a one-card
move, a cursor step, a main-menu selection change.  For each, the table shows

- ours: the diffing renderer's bytes and time (mean of ``--runs`` renders);
- naive: clear the screen and rewrite every cell row by row, with an SGR only where the
  colour changes (what a simple door sends for every frame);
- floor: the bytes of the changed cells' characters alone, with no cursor movement or colour.

and the seconds each takes on the wire at 2400 baud (10 bits a byte).  Not part of the test
suite: it prints figures, it asserts nothing.

A longer fuzz of the key decoder, colour-code parser and art loader than the suite runs::

    /work/venv/bin/python bench/bench_render.py --fuzz 200000
"""

from __future__ import annotations

import argparse
import os
import random
import time

from door.compiled import build_name
from door.term.art import load_art
from door.term.charset import Charset
from door.term.codes import parse_codes
from door.term.keys import KeyDecoder
from door.term.render import CLEAR, Renderer, absolute_move, sgr_change
from door.term.screen import BLACK, BLUE, CYAN, RED, WHITE, YELLOW, Attr, Screen

HEADER = Attr(WHITE, BLUE, True)
STATUS = Attr(BLACK, WHITE)
RED_CARD, BLACK_CARD = Attr(RED, WHITE), Attr(BLACK, WHITE)
FRAME, TITLE, LABEL = Attr(CYAN, BLACK), Attr(YELLOW, BLACK, True), Attr(WHITE, BLACK)
SELECTED = Attr(BLACK, CYAN)
RANKS, SUITS = "A23456789TJQK", "♠♥♦♣"


def deal(seed: int = 617) -> list[str]:
    rng = random.Random(seed)
    cards = [r + s for s in SUITS for r in RANKS]
    rng.shuffle(cards)
    return cards


def game_screen(cards: list[str], cursor: int = 0) -> Screen:
    """A Monte-Carlo-like table: header, 5x5 cards in a frame, a side panel, a status line."""
    screen = Screen(80, 24)
    screen.put(0, 0, " " * 80, HEADER)
    screen.put(0, 1, "Réussite", HEADER)
    screen.put(0, 58, "Monte Carlo #617", HEADER)
    screen.box(2, 2, 17, 44, FRAME, style="double")
    for i, card in enumerate(cards[:25]):
        row, col = 4 + (i // 5) * 3, 6 + (i % 5) * 8
        if card:
            attr = RED_CARD if card[1] in "♥♦" else BLACK_CARD
            screen.put(row, col, f" {card} ", attr)
        else:
            screen.put(row, col, " .. ", LABEL)
        if i == cursor:
            screen.put(row, col - 1, "[", TITLE)
            screen.put(row, col + 4, "]", TITLE)
    screen.box(2, 50, 10, 28, FRAME)
    for i, text in enumerate(("Stock   27", "Pairs    0", "Score    0", "Time  12:04")):
        screen.put(4 + i, 53, text, LABEL)
    screen.put(21, 1, "Arrows move · Enter picks · C consolidates · U undo · ? help", LABEL)
    screen.put(23, 0, " " * 79, STATUS)
    screen.put(23, 1, "Score 0 · ? help · Q quit", STATUS)
    screen.put(23, 58, "Guest · 59 min left", STATUS)
    return screen


def menu_screen(selected: int) -> Screen:
    screen = Screen(80, 24)
    screen.put(0, 0, " " * 80, HEADER)
    screen.put(0, 1, "Réussite", HEADER)
    screen.put(0, 70, "Main Menu", HEADER)
    items = ("Mariant (Marie Antoinette)", "Monte Carlo", "Aunt Mary", "Anciento",
             "Hall of Fame", "Message Centre", "Instructions", "Who's Online",
             "Terminal Settings", "Quit to the BBS")
    screen.box(4, 21, 14, 38, FRAME, style="double")
    for i, label in enumerate(items):
        attr = SELECTED if i == selected else LABEL
        screen.put(6 + i, 23, " " * 34, attr)
        screen.put(6 + i, 24, f"[{label[0]}]", SELECTED if i == selected else TITLE)
        screen.put(6 + i, 29, label, attr)
    screen.put(23, 0, " " * 79, STATUS)
    screen.put(23, 1, "Hot key or ↑↓ Enter · Ctrl-R redraws", STATUS)
    return screen


def naive(screen: Screen, charset: Charset) -> bytes:
    """Clear, then every cell row by row; SGR only where the colour changes."""
    out = bytearray(CLEAR)
    attr = Attr()
    for r, line in enumerate(screen.cells):
        out += absolute_move(r, 0)
        limit = screen.cols - 1 if r == screen.rows - 1 else screen.cols
        for cell in line[:limit]:
            out += sgr_change(attr, cell.attr)
            attr = cell.attr
            out += charset.encode_char(cell.ch)
    return bytes(out)


def floor(before: Screen | None, after: Screen, charset: Charset) -> tuple[int, int]:
    """(changed cells, bytes of their characters alone)."""
    cells = total = 0
    for r in range(after.rows):
        for c in range(after.cols):
            new = after.cells[r][c]
            old = before.cells[r][c] if before else None
            if (r, c) == (after.rows - 1, after.cols - 1):
                continue
            if old is None and new.ch == " " and new.attr.bg == BLACK:
                continue  # a blank on a cleared screen costs nothing
            if new != old:
                cells += 1
                total += len(charset.encode_char(new.ch))
    return cells, total


def scenarios() -> list[tuple[str, Screen | None, Screen]]:
    cards = deal()
    moved = list(cards)
    moved[7], moved[8] = "", ""  # a pair taken away: two cards leave the table
    return [
        ("full 80x24 game screen", None, game_screen(cards)),
        ("one-card move", game_screen(cards, cursor=8), game_screen(moved, cursor=8)),
        ("cursor step", game_screen(cards, cursor=8), game_screen(cards, cursor=9)),
        ("menu change", menu_screen(0), menu_screen(1)),
    ]


def measure(runs: int, charset_name: str) -> None:
    charset = Charset(charset_name)
    print(f"charset {charset_name}, mean of {runs} renders; wire time at 2400 baud; "
          f"{build_name()}")
    head = (f"{'frame change':<24}{'cells':>6}{'floor B':>9}{'ours B':>8}{'naive B':>9}"
            f"{'ours µs':>9}{'naive µs':>10}{'ours/floor':>11}{'naive/ours':>11}"
            f"{'ours s':>8}{'naive s':>9}")
    print(head)
    print("-" * len(head))
    for name, before, after in scenarios():
        ours_bytes, elapsed = b"", 0.0
        for _ in range(runs):
            renderer = Renderer(charset)
            if before is not None:
                renderer.frame(before)
            start = time.perf_counter()
            ours_bytes = renderer.frame(after)
            elapsed += time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(runs):
            naive_bytes = naive(after, charset)
        naive_time = (time.perf_counter() - start) / runs
        cells, floor_bytes = floor(before, after, charset)
        ours, full = len(ours_bytes), len(naive_bytes)
        print(f"{name:<24}{cells:>6}{floor_bytes:>9}{ours:>8}{full:>9}"
              f"{elapsed / runs * 1e6:>9.0f}{naive_time * 1e6:>10.0f}"
              f"{ours / max(floor_bytes, 1):>11.2f}{full / max(ours, 1):>11.1f}"
              f"{ours * 10 / 2400:>8.2f}{full * 10 / 2400:>9.2f}")


def fuzz(examples: int) -> None:
    """Random bytes through the decoder, the colour-code parser and the art loader."""
    rng = random.Random(int.from_bytes(os.urandom(4), "little"))
    start = time.perf_counter()
    for i in range(examples):
        data = rng.randbytes(rng.randint(0, 64))
        for encoding in ("cp437", "utf8"):
            decoder = KeyDecoder(encoding)
            decoder.feed(data)
            decoder.flush()
        parse_codes(data.decode("cp437"))
        load_art(Screen(80, 24), data, i % 4)
    print(f"fuzz: {examples} random inputs through keys, codes and art without an exception "
          f"in {time.perf_counter() - start:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--charset", choices=("cp437", "utf8", "ascii"), default=None)
    parser.add_argument("--fuzz", type=int, default=0, metavar="N",
                        help="instead: run N random inputs through keys, codes and art")
    args = parser.parse_args()
    if args.fuzz:
        fuzz(args.fuzz)
        return
    for name in (args.charset,) if args.charset else ("cp437", "utf8"):
        measure(args.runs, name)
        print()


if __name__ == "__main__":
    main()
