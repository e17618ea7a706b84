"""Aunt Mary on the caller's screen: six columns on the left, stock, waste and foundations
in a panel on the right, a cursor that picks up and drops cards.

Why the panel is on the right: a column can hold 18 cards (its six dealt cards, a King on
top of them, then Queen down to Ace), so the columns need every board row.
Face-down cards take one row whatever their number (``▒▒ 3``), which leaves 18 rows for
face-up cards on a 24-row screen: the tallest column Aunt Mary can build always fits.

Every place is a *spot* named as the engine writes it: ``1``–``6`` the columns, ``s`` the
stock, ``w`` the waste, ``fS fH fD fC`` the foundations.  Two ways to move, both keyboard
only, mixable:

* the cursor: arrows move between the spots; on a column ↑/↓ choose how many of its top
  run to take (``[ ]`` on the deepest card, ``│ │`` on the cards above it); Enter or Space
  picks up, and again on another spot drops there (an exact count: ``2:3>5``);
* hot keys: ``1``–``6`` pick up a column or drop on it, ``W`` picks up the waste, ``F`` drops
  on the foundations (or, with nothing picked up, walks the cursor along them).  A column
  picked up by its key moves as many cards as fit where it is dropped (``2>5``).

Dropping a card where it was picked up sends it home when it can go (the old double click);
``H`` sends home the card under the cursor.  ``S`` turns a stock card, or redeals when the
stock is empty.  ``A`` auto-finishes when the engine says every card can go home (offered
on the message line the moment it can).  The keys every game shares come from the key map
(door/ui/shared/keymap.py): ``P`` gives a tip, the solver's next move (door/ui/game/solver_hint.py;
it was ``T``, which now says so), ``U`` undoes, ``R`` or Ctrl-Y redoes, ``X`` resigns
after a confirmation, ``?`` shows the map.
Aunt Mary never ends by itself.  "Stuck" is when no move of any kind is left
(``game.stuck``: no stock turn, no redeal, no card to move).  When moves remain but the
engine has proven by a complete search that none can send a card home or turn one over
(``game.hopeless``), it is "No way forward" instead, and the tip says so rather than offer
a move that cannot help.  Either brings the frame's end offer (end here, take back, or look
first), and stays in the panel for as long as it lasts, pointing at ``X`` (the offer again)
and ``U``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from ...catalog import registry as gamelist
from ...games import IllegalMove, Status
from ...games.auntmary import PASSES, AuntMary, parse_move, run_length
from ...games.cards import SUITS, Card
from ...session import Session
from ...term import Key
from ...term.screen import BLACK, GREEN, YELLOW, Attr
from ..game.screen import GameScreen, play_game
from ..shared import theme
from ..shared.canvas import Canvas
from ..shared.cards import FACE_DOWN, FACE_DOWN_TEXT, card_attr, card_label, shown_cards
from ..shared.keymap import HINT, REDO, RESIGN, UNDO
from ..shared.widgets import plural
from .keys import KEY_MAP

# -- layout (rows and columns on the 80-column screen) ------------------------------------
PILE_LEFT, PILE_STEP = 1, 7       # column k's "[" is at PILE_LEFT + PILE_STEP * (k - 1)
NUMBER_ROW, DOWN_ROW, UP_TOP = 1, 2, 3
PANEL_LEFT, PANEL_WIDTH = 45, 34  # the panel's frame; its text starts at PANEL_LEFT + 2
PL = PANEL_LEFT + 2
SLOT_COL = {"s": PL, "w": PL + 16, "fS": PL, "fH": PL + 8, "fD": PL + 16, "fC": PL + 24}
STOCK_ROW = 3                     # stock and waste slots (labels one row up)
FOUNDATION_ROW = 7                # foundation slots (label one row up)
SCORE_ROW, STATE_ROW, LEGEND_ROW = 9, 10, 12

# -- looks ----------------------------------------------------------------------------------
CURSOR = theme.HOTKEY
PICKED = Attr(BLACK, YELLOW)
HINTED = Attr(BLACK, GREEN)
GAP = theme.DIM
GAP_TEXT = " ·· "
PICKED_MARK = "»"

STUCK, HOPELESS = "stuck", "hopeless"
BLOCKED_WORDS = {
    STUCK: "Stuck: no move of any kind is left.",
    HOPELESS: "No way forward: no move can send a card home or turn one over any more.",
}
BLOCKED_NOTES = {kind: f"{words} U takes back, X ends the game."
                 for kind, words in BLOCKED_WORDS.items()}
BLOCKED_PANEL = {STUCK: "Stuck: X ends, U undoes", HOPELESS: "No way forward: X, U"}
"""Left of each picked-up card, on yellow: one cell per card, so picking up a long run and
putting it down costs a few bytes a card (the glyph reads in monochrome, ``>`` in ASCII)."""

PILES = tuple("123456")
FOUNDATIONS = tuple("f" + s for s in SUITS)
# Arrow moves between the panel's spots (the columns are handled apart).  Left and right
# wrap round (column 1 <-> the waste): the waste is the busiest place after the columns.
PANEL_MOVES: dict[str, dict[str, str]] = {
    "s": {"left": "6", "right": "w", "down": "fS"},
    "w": {"left": "s", "right": "1", "down": "fD"},
    "fS": {"left": "6", "right": "fH", "up": "s"},
    "fH": {"left": "fS", "right": "fD", "up": "s"},
    "fD": {"left": "fH", "right": "fC", "up": "w"},
    "fC": {"left": "fD", "right": "1", "up": "w"},
}
SPOTS = (*PILES, "s", "w", *FOUNDATIONS)   # the Tab order
ARROWS = ("up", "down", "left", "right")

LEGEND = [
    ("Arrows", "move the cursor"),
    ("↑ ↓", "on a column: how many"),
    ("Enter", "pick up, then drop"),
    ("1-6 W F", "pick up/drop by key"),
    ("S", "turn a card/redeal"),
    (f"H A {HINT.label}", "home · finish · hint"),
    (f"{UNDO.label} {REDO.label} {RESIGN.label}", "undo · redo · resign"),
    ("▒▒ 3", "3 cards face down"),
]


def pile_left(k: int) -> int:
    """Screen column of column ``k``'s left bracket (``k`` 0-based)."""
    return PILE_LEFT + PILE_STEP * k


def spot_name(spot: str) -> str:
    """How a spot is called in messages: ``column 3``, ``the waste``, ``the ♥ foundation``."""
    if spot in PILES:
        return f"column {spot}"
    if spot.startswith("f"):
        return f"the {card_label(Card(1, spot[1]))[1]} foundation"
    return {"s": "the stock", "w": "the waste"}[spot]


def describe(game: AuntMary, move: str) -> str:
    """A move in a few words, for tips: ``8♥ +2 on 9♣`` (8♥ and the 2 cards on it), ``K♦
    to column 3``, ``5♥ home``.  Terse: the board lights the cards it names (issue #20)."""
    pos = game.position
    if move == "s":
        return "S turns a card"
    if move == "r":
        return f"S redeals, pass {game.pass_number + 1} of {PASSES}"
    if move == "auto":
        return "every card can go home: press A"
    mv = parse_move(move)
    src, dst = mv.src, mv.dst
    if src == "w":
        card, more = pos.waste[-1], ""
    elif isinstance(src, int):
        col = pos.columns[src]    # home: the top card alone; else the run (or the count)
        n = 1 if dst == "f" else mv.cards or run_length(col, pos.down[src])
        card, more = col[-n], f" +{n - 1}" if n > 1 else ""
    else:
        assert isinstance(src, str)
        card, more = Card(pos.foundations[SUITS.index(src[1])], src[1]), ""
    if dst == "f":
        return f"{card_label(card)} home"
    assert isinstance(dst, int)
    target = pos.columns[dst]
    onto = f"on {card_label(target[-1])}" if target else f"to column {dst + 1}"
    return f"{card_label(card)}{more} {onto}"


def tip_target(game: AuntMary, move: str) -> str | None:
    """The spot a tip's move goes to (a column ``1``-``6``, or the card's foundation), lit
    on the board with the tip; None for a stock move."""
    if move in ("s", "r", "auto"):
        return None
    mv = parse_move(move)
    if isinstance(mv.dst, int):
        return str(mv.dst + 1)
    pos = game.position
    card = pos.waste[-1] if mv.src == "w" else pos.columns[mv.src][-1]  # type: ignore[index]
    return "f" + card.suit


class AuntMaryScreen(GameScreen):
    info = gamelist.AUNTMARY
    keys = KEY_MAP
    game: AuntMary
    help_lines: ClassVar[list[str]] = [
        "Build the columns down in alternating colours; send every card home,",
        "A to K by suit.  Only a King (or a run headed by one) fills a space.",
        "",
        "A column picked up by its key moves as many cards as fit where you",
        "drop them; with the cursor, Up/Down choose how many.  Dropping a card",
        "back where you picked it up sends it home, if it can go.",
        "The stock turns one card at a time; an empty stock redeals the",
        "waste, three passes in all.  Undo and redo are free, as many as you",
        "like.",
        "",
        "A foundation's top card may come back: pick it up, drop it on a column.",
        "Score: the cards on the foundations, 52 at most.",
    ]

    def __init__(self, view: Canvas, game: Any) -> None:
        super().__init__(view, game)
        self.spot = "1"
        self.depth = 1                              # cards of the column under the cursor
        self.picked: tuple[str, int | None] | None = None   # (spot, count; None: what fits)
        self.tip_spot: str | None = None
        """Where the last tip's move goes, lit until the next key."""
        self.was_blocked = ""
        self.was_auto = False
        self._brackets_drawn: tuple[tuple[int, int, str], ...] = ()
        self._notice_state()

    # -- keys ------------------------------------------------------------------------------
    async def on_key(self, key: Key) -> bool:
        if key.name == "resize":
            return False
        char = key.char.lower() if key.is_char else ""
        self.tip_spot = None
        if key.name in ARROWS:
            self._arrow(key.name)
        elif key.name in ("tab", "shift-tab"):
            step = 1 if key.name == "tab" else -1
            self._go(SPOTS[(SPOTS.index(self.spot) + step) % len(SPOTS)])
        elif key.name == "home" or key.name == "end":
            self._go("1" if key.name == "home" else "6")
        elif key.name == "enter" or char == " ":
            self._enter()
        elif char and char in PILES:
            self._pile_key(char)
        elif char == "w":
            self._waste_key()
        elif char == "f":
            self._foundation_key()
        elif char == "s":
            self.picked = None
            self._deal()
        elif char == "h":
            self._home_key()
        elif char == "a":
            self.picked = None
            self._play("auto")
        elif key.name in ("esc", "backspace") and self.picked is not None:
            self.picked = None
            self.say("Put back.")
        else:
            return False
        return True

    # -- the cursor ------------------------------------------------------------------------
    def _go(self, spot: str, depth: int = 1) -> None:
        self.spot, self.depth = spot, depth

    def _run(self, spot: str) -> int:
        return self.game.top_run_length(int(spot))

    def _depth(self) -> int:
        """The cursor's card count, within the run under it (an undo may shorten the run)."""
        if self.spot not in PILES:
            return 1
        return min(self.depth, max(1, self._run(self.spot)))

    def _arrow(self, name: str) -> None:
        spot = self.spot
        if spot not in PILES:
            self._go(PANEL_MOVES[spot].get(name, spot))
            return
        k = int(spot)
        if name == "left":
            self._go(str(k - 1) if k > 1 else "w")   # the row of places wraps round
        elif name == "right":
            self._go(str(k + 1) if k < 6 else "s")
        elif name == "down":
            self.depth = max(1, self._depth() - 1)
        elif self._depth() < self._run(spot):
            self.depth = self._depth() + 1
        else:
            self._whole_run_note(k)

    def _whole_run_note(self, k: int) -> None:
        """Up on a column's deepest movable card: say why the cursor goes no further."""
        game = self.game
        run, up = game.top_run_length(k), len(game.columns[k - 1]) - game.face_down[k - 1]
        if run == 0:
            self.say(f"Column {k} is empty.")
        elif run < up:
            below, head = game.columns[k - 1][-run - 1], game.columns[k - 1][-run]
            moving = "only the top card moves" if run == 1 else f"the top {run} cards move together"
            self.say(f"{card_label(below)} does not take {card_label(head)}: {moving}.")
        else:
            self.say(f"That is all of column {k}'s face-up cards.")

    # -- picking up and dropping -------------------------------------------------------------
    def _enter(self) -> None:
        if self.picked is not None:
            self._drop(self.spot)
        elif self.spot == "s":
            self._deal()
        else:
            self._pick(self.spot, self._depth())

    def _pick(self, spot: str, count: int | None) -> None:
        game = self.game
        if spot in PILES:
            if not game.columns[int(spot) - 1]:
                self.refuse(f"Column {spot} is empty: nothing to pick up.")
                return
        elif spot == "w":
            if not game.waste:
                self.refuse("The waste is empty: S turns a card from the stock.")
                return
        elif not game.foundations[spot[1]]:
            self.refuse(f"{spot_name(spot).capitalize()} is empty.")
            return
        self.picked = (spot, count)
        self.note = ""          # the » marks say it; a message would cost a modem's time

    def _drop(self, target: str) -> None:
        assert self.picked is not None
        (src, count), self.picked = self.picked, None
        self.depth = 1          # the cursor lands on the top card, wherever the cards went
        if target == src:
            if (count or 1) == 1 and src not in FOUNDATIONS and self.game.send_home(src):
                self._play(f"{src}>f")
            else:
                self.say("Put back.")
        elif target in FOUNDATIONS:
            if src in FOUNDATIONS:
                self.refuse("A foundation card only goes back to a column.")
            elif (count or 1) > 1:
                self.refuse("Only the top card goes home, one card at a time.")
            else:
                self._play(f"{src}>f")
        elif target == "s":
            self.refuse("Cards never go back to the stock.")
        elif target == "w":
            self.refuse("Only the stock feeds the waste.")
        elif src in PILES and count is not None:
            self._play(f"{src}:{count}>{target}")
        else:
            self._play(f"{src}>{target}")

    def _pile_key(self, k: str) -> None:
        if self.picked is not None:
            self._go(k)
            self._drop(k)
        else:
            self._go(k, max(1, self._run(k)))
            self._pick(k, None)

    def _waste_key(self) -> None:
        if self.picked is not None:
            self._drop("w")
        else:
            self._go("w")
            self._pick("w", 1)

    def _foundation_key(self) -> None:
        if self.picked is not None:
            src = self.picked[0]
            self._drop(src if src in FOUNDATIONS else "fS")   # a foundation card: put back
            return
        found = self.game.foundations
        start = FOUNDATIONS.index(self.spot) + 1 if self.spot in FOUNDATIONS else 0
        for i in range(4):
            spot = FOUNDATIONS[(start + i) % 4]
            if found[spot[1]]:
                self._go(spot)
                return
        self._go("fS")
        self.say("The foundations are empty: Aces go there first.")

    def _home_key(self) -> None:
        if self.picked is not None:
            src, count = self.picked
            self.picked = None
            if src in FOUNDATIONS:
                self.refuse("That card is home already.")
            elif (count or 1) > 1:
                self.refuse("Only the top card goes home, one card at a time.")
            else:
                self._play(f"{src}>f")
        elif self.spot in PILES or self.spot == "w":
            self._play(f"{self.spot}>f")
        else:
            self.refuse("H sends home the top card of a column or the waste: "
                        "put the cursor there first.")

    def _deal(self) -> None:
        move = self.game.deal_move()
        # With no stock move left, "r" gets the engine's reason (no redeal left, nothing...).
        self._play(move or "r")

    # -- playing ---------------------------------------------------------------------------
    def refuse(self, reason: str) -> None:
        """The engine's reason, as the screen shows cards (``2C`` -> ``2♣``), as a sentence:
        capitalised, with its full stop."""
        reason = shown_cards(reason)
        if reason and reason[-1] not in ".!?":
            reason += "."
        super().refuse(reason[:1].upper() + reason[1:])

    def _play(self, move: str) -> None:
        game = self.game
        before = game.position
        if not self.play(move):
            return
        pos = game.position
        news = []
        if move == "r":
            news.append(f"Pass {game.pass_number} of {PASSES}: the waste is the stock again.")
        elif pos.home > before.home and move != "auto":
            card = _gone_home(before.foundations, pos.foundations)
            news.append(f"{card_label(card)} home.")
        elif pos.home < before.home:
            card = _gone_home(pos.foundations, before.foundations)
            news.append(f"{card_label(card)} taken back from its foundation.")
        flipped = [k + 1 for k in range(6) if pos.down[k] < before.down[k]]
        if flipped:
            news.append(f"A card turned face up in column {flipped[0]}.")
        if news:
            self.say(" ".join(news))
        self._notice_state()

    def _step_back(self, undo: bool) -> None:
        self.picked = None
        try:
            self.game.undo() if undo else self.game.redo()
        except IllegalMove as exc:
            self.refuse(f"No {'undo' if undo else 'redo'}: {exc}.")
            return
        self.say("Undone." if undo else "Redone.")
        self._notice_state()

    def _notice_state(self) -> None:
        """Say it the moment the game gets stuck or hopeless, or auto-finish becomes
        possible."""
        game = self.game
        blocked = self._blocked()
        auto = game.auto_finish_available
        if blocked and blocked != self.was_blocked:
            self.say(BLOCKED_NOTES[blocked])
        if auto and not self.was_auto:
            self.say("Every card can go home now: press A to finish.")
        self.was_blocked, self.was_auto = blocked, auto

    def _blocked(self) -> str:
        """STUCK (no move at all), HOPELESS (moves, none of any use: proven), or ""."""
        game = self.game
        status = game.status
        if status is Status.STUCK:
            return STUCK
        if status is Status.PLAYING and game.hopeless:
            return HOPELESS
        return ""

    async def hint_key(self) -> None:
        self._tip()

    async def redo_key(self) -> None:
        self._step_back(undo=False)

    def _tip(self) -> None:
        self.picked = None
        game = self.game
        if game.auto_finish_available:
            self.say("Hint: every card can go home now: press A.")
            return
        blocked = self._blocked()
        if blocked:
            self.refuse(f"No tip: {BLOCKED_NOTES[blocked][0].lower()}{BLOCKED_NOTES[blocked][1:]}")
            return
        self.ask_hint()

    def show_hint(self, move: str) -> str:
        """A tip's move: where it goes is lit, the cursor is put on what it moves."""
        game = self.game
        words = describe(game, move)
        self.tip_spot = tip_target(game, move)
        mv = parse_move(move)
        if mv.kind in ("s", "r"):
            self._go("s")
        elif isinstance(mv.src, int):
            src = str(mv.src + 1)
            home = mv.dst == "f"      # only the top card goes home: the cursor on it alone
            self._go(src, 1 if home else mv.cards or self._run(src))
        elif isinstance(mv.src, str):
            self._go(mv.src)
        return words

    # -- the end ---------------------------------------------------------------------------
    def no_moves_words(self) -> str:
        return BLOCKED_WORDS[STUCK]

    def cannot_win_words(self) -> str:
        return BLOCKED_WORDS[HOPELESS]

    def score_words(self) -> str:
        return f"Cards home so far: {self.game.score} of 52"

    async def offer_take_back(self) -> None:
        self._step_back(undo=True)

    def resign_question(self) -> str:
        self.picked = None
        return (f"Resign? The game ends now with {plural(self.game.score, 'card')} home, "
                "out of the hall of fame.")

    # -- drawing ---------------------------------------------------------------------------
    def draw_board(self) -> None:
        """Each column's cards are a part of their own, and so are the cursor's brackets
        beside them and the panel's inside; the panel's frame and legend never change."""
        screen, game, parts = self.view.screen, self.game, self.parts
        bottom = screen.rows - 4
        for k in range(6):
            spot = str(k + 1)
            picked = self.picked if self.picked and self.picked[0] == spot else None
            tipped = self.tip_spot == spot
            if parts.changed(("pile", k), (game.columns[k], game.face_down[k], picked, tipped)):
                used = self._draw_pile(k)
                parts.shrink(("pile", k), DOWN_ROW, pile_left(k) + 1, used, 4)
        brackets = self._pile_brackets()
        if parts.changed("pile cursor", brackets):
            if not parts.full:  # put back the blanks the brackets covered
                for row, left, _ in self._brackets_drawn:
                    screen.put(row, left, " ")
                    screen.put(row, left + 5, " ")
            for row, left, edge in brackets:
                screen.put(row, left, edge[0], CURSOR)
                screen.put(row, left + 5, edge[1], CURSOR)
            self._brackets_drawn = brackets
        if parts.changed("panel frame", bottom):
            self._draw_panel_frame()
        state = self._panel_state()
        if parts.changed("panel", state, (NUMBER_ROW + 1, PANEL_LEFT + 1,
                                          LEGEND_ROW - NUMBER_ROW - 1, PANEL_WIDTH - 2)):
            self._draw_panel()

    def _first_up_row(self, up: int) -> tuple[int, int]:
        """(cards hidden above the screen's room, row of the first face-up card shown)."""
        room = self.view.screen.rows - 4 - UP_TOP + 1
        hidden = up - room + 1 if up > room else 0
        return hidden, UP_TOP + (1 if hidden else 0)

    def _draw_pile(self, k: int) -> int:
        """Column ``k``'s number, face-down count and face-up cards, four cells wide (the
        cursor's brackets go either side); returns the rows used below the number."""
        screen, game = self.view.screen, self.game
        left, spot = pile_left(k), str(k + 1)
        col, down = game.columns[k], game.face_down[k]
        up = col[down:]
        screen.put(NUMBER_ROW, left + 2, spot, theme.HOTKEY)
        if down:
            screen.put(DOWN_ROW, left + 1, FACE_DOWN_TEXT, FACE_DOWN)
            screen.put(DOWN_ROW, left + 3, f" {down}"[-2:].rjust(2), theme.BRIGHT)
        else:
            screen.put(DOWN_ROW, left + 1, "    ")
        hidden, first = self._first_up_row(len(up))
        if hidden:   # never on 24 rows (18 face-up rows is the most Aunt Mary can build)
            screen.put(UP_TOP, left + 1, f"+{hidden:<3}", theme.DIM)
        picked = 0
        if self.picked and self.picked[0] == spot:
            picked = self.picked[1] or run_length(col, down)
        for i, card in enumerate(up[hidden:], hidden):
            row = first + i - hidden
            screen.put(row, left + 1, f" {card_label(card)} ", card_attr(card))
            if len(up) - i <= picked:            # counted from the top card
                screen.put(row, left + 1, PICKED_MARK, PICKED)
        if not up:
            screen.put(UP_TOP, left + 1, GAP_TEXT, GAP)
        if self.tip_spot == spot:    # where the tip's cards go: lit as Monte Carlo's hints
            row = first + len(up) - hidden - 1 if up else UP_TOP
            screen.put(row, left + 1, f"*{card_label(up[-1])}*" if up else "*··*", HINTED)
        if not up:
            return UP_TOP + 1 - DOWN_ROW
        return first + len(up) - hidden - DOWN_ROW

    def _pile_brackets(self) -> tuple[tuple[int, int, str], ...]:
        """Where the cursor's brackets go on the columns: (row, left, "[]" or "││")."""
        spot = self.spot
        if spot not in PILES:
            return ()
        k, game = int(spot) - 1, self.game
        col, down = game.columns[k], game.face_down[k]
        up, left = len(col) - down, pile_left(k)
        if not up:
            return ((UP_TOP, left, "[]"),)
        depth = self._depth()
        picked = self.picked is not None and self.picked[0] == spot
        hidden, first = self._first_up_row(up)
        out = []
        for i in range(hidden, up):
            from_top = up - i
            if from_top == depth or (from_top < depth and not picked):
                out.append((first + i - hidden, left, "[]" if from_top == depth else "││"))
        return tuple(out)

    def _slot(self, row: int, spot: str, text: str, attr: Attr) -> None:
        """One panel place: four cells between the cursor's brackets."""
        screen, col = self.view.screen, SLOT_COL[spot]
        if self.tip_spot == spot:    # where the tip's card goes home: lit
            text, attr = f"*{text[1:3]}*", HINTED
        screen.put(row, col + 1, text, attr)
        if self.picked and self.picked[0] == spot:
            screen.put(row, col + 1, PICKED_MARK, PICKED)
        if self.spot == spot:
            screen.put(row, col, "[", CURSOR)
            screen.put(row, col + 5, "]", CURSOR)

    def _panel_state(self) -> Hashable:
        """Everything the panel's inside shows (its frame and legend are fixed)."""
        game = self.game
        spot = self.spot if self.spot not in PILES else None
        picked = self.picked if self.picked and self.picked[0] not in PILES else None
        return (len(game.stock), tuple(game.waste[-1:]), len(game.waste), self._pass_text(),
                game.position.foundations, game.score,
                self._state_text(), spot, picked,
                self.tip_spot if self.tip_spot in FOUNDATIONS else None)

    def _draw_panel_frame(self) -> None:
        screen = self.view.screen
        bottom = screen.rows - 4
        screen.box(NUMBER_ROW, PANEL_LEFT, bottom - NUMBER_ROW + 1, PANEL_WIDTH, theme.FRAME)
        if LEGEND_ROW + len(LEGEND) <= bottom:
            for i, (keys, what) in enumerate(LEGEND):
                screen.put(LEGEND_ROW + i, PL, keys, theme.HOTKEY)
                screen.put(LEGEND_ROW + i, PL + 8, what, theme.LABEL)

    def _draw_panel(self) -> None:
        screen, game = self.view.screen, self.game
        screen.put(STOCK_ROW - 1, PL + 1, f"Stock {len(game.stock)}", theme.LABEL)
        screen.put(STOCK_ROW - 1, SLOT_COL["w"] + 1, f"Waste {len(game.waste)}", theme.LABEL)
        self._slot(STOCK_ROW, "s", FACE_DOWN_TEXT * 2 if game.stock else GAP_TEXT,
                   FACE_DOWN if game.stock else GAP)
        waste = game.waste
        self._slot(STOCK_ROW, "w", f" {card_label(waste[-1])} " if waste else GAP_TEXT,
                   card_attr(waste[-1]) if waste else GAP)
        screen.put(STOCK_ROW + 1, PL + 1, self._pass_text(), theme.BRIGHT)
        screen.put(FOUNDATION_ROW - 1, PL + 1, "Foundations", theme.LABEL)
        for spot in FOUNDATIONS:
            rank = game.foundations[spot[1]]
            if rank:
                card = Card(rank, spot[1])
                self._slot(FOUNDATION_ROW, spot, f" {card_label(card)} ", card_attr(card))
            else:
                self._slot(FOUNDATION_ROW, spot, f" ·{card_label(Card(1, spot[1]))[1]} ", GAP)
        screen.put(SCORE_ROW, PL + 1, f"Home {game.score} of 52", theme.BRIGHT)
        state, attr = self._state_text()
        screen.put(STATE_ROW, PL + 1, state, attr)

    def _pass_text(self) -> str:
        game = self.game
        text = f"Pass {game.pass_number} of {PASSES}"
        if game.stock:
            return text
        if game.deal_move() == "r":
            return f"{text} · S: redeal"
        return f"{text} · stock done" if game.redeals_left == 0 else text

    def _state_text(self) -> tuple[str, Attr]:
        game = self.game
        status = game.status
        if status is Status.WON:
            return "All home: you won!", theme.MESSAGE
        if status is Status.RESIGNED:
            return "Resigned.", theme.WARNING
        if game.auto_finish_available:
            return "A: finish, all can go home", theme.MESSAGE
        blocked = self._blocked()
        if blocked:
            return BLOCKED_PANEL[blocked], theme.WARNING
        return "", theme.LABEL


def _gone_home(low: tuple[int, ...], high: tuple[int, ...]) -> Card:
    """The card that makes the difference between two foundation rows (one suit differs)."""
    s = next(i for i in range(4) if high[i] > low[i])
    return Card(high[s], SUITS[s])


async def play_auntmary(session: Session) -> None:
    """The main menu's Aunt Mary: resume or deal, play, record, again."""
    await play_game(session, AuntMaryScreen)
