"""Terminal settings: a test pattern, and the caller's charset, colour, screen rows and mouse.

The pattern shows what decides the choice at a glance: line boxes, the four suits, a
face-down card, shades and the eight colours with their bright versions.  A caller whose
boxes look like garbage presses C until they look right.  Changes apply at once (the whole
screen is redrawn in the new form) and are kept with the caller's player record, so the
next call starts in the same form once the caller is known (:func:`apply_saved_choice`).

The mouse (M) is automatic at first: on where the terminal's type says it reports clicks
(door/term/mouse.py), off elsewhere; M turns it on for a terminal that does not say so, or
off for one whose mouse the caller would rather keep for selecting text, and back to
automatic.  It is kept with the player record at once, as the watching choice is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...session import Session
from ...term.charset import Charset
from ...term.screen import BLACK, COLOR_NAMES, WHITE, Attr
from ...watching.hub import watching_on
from ..shared import theme
from ..shared.access import mouse_wanted
from ..shared.key_overlay import is_help, show_menu_keys
from ..shared.keymap import HELP
from ..shared.widgets import header, message, status_line

# The charset choices in the order C cycles through them: (charset, glyphs, label).
CHOICES = (("cp437", False, "CP437 (IBM PC)"), ("cp437", True, "CP437 with ☺♥♦ glyphs"),
           ("utf8", False, "UTF-8"), ("ascii", False, "7-bit ASCII"))


@dataclass
class TerminalChoice:
    charset: Charset
    color: bool
    rows: int


def current(session: Session) -> TerminalChoice:
    return TerminalChoice(session.renderer.charset, session.renderer.color, session.screen.rows)


def apply(session: Session, choice: TerminalChoice) -> None:
    """Switch the session to ``choice``: encoder, key decoder, colour and rows; full repaint."""
    session.use_charset(choice.charset, choice.color)
    if choice.rows != session.screen.rows:
        session.screen.resize(session.screen.cols, choice.rows)


def charset_code(charset: Charset) -> str:
    """How a choice is kept in the player record: ``cp437``, ``cp437+g``, ``utf8``, ``ascii``."""
    return charset.name + ("+g" if charset.c0_glyphs else "")


def parse_charset_code(code: str | None) -> Charset | None:
    name, _, glyphs = (code or "").partition("+")
    known = {(n, g) for n, g, _ in CHOICES}
    return Charset(name, glyphs == "g") if (name, glyphs == "g") in known else None


def apply_saved_choice(session: Session) -> None:
    """Start in the form the caller chose on an earlier call, when the player is known."""
    player = session.player
    if player is None:
        return
    choice = current(session)
    saved = parse_charset_code(player.charset)
    if session.terminal.fixed_charset:
        saved = None
    changed = False
    if saved is not None and (saved.name, saved.c0_glyphs) != (choice.charset.name,
                                                                choice.charset.c0_glyphs):
        choice.charset, changed = saved, True
    if player.color is not None and player.color != choice.color:
        choice.color, changed = player.color, True
    if player.rows and player.rows in row_choices(session) and player.rows != choice.rows:
        choice.rows, changed = player.rows, True
    if changed:
        apply(session, choice)


async def save_choice(session: Session, choice: TerminalChoice) -> str:
    """Keep the choice for the next call; say so, or say why not."""
    store, player = session.store, session.player
    if store is None or player is None:
        return "These settings last for this call."
    try:
        await store.players.update_settings(player.id, charset=charset_code(choice.charset),
                                            color=choice.color, rows=choice.rows)
    except Exception as exc:  # StoreUnavailable says why in plain words
        return f"Settings not kept for next time: {exc}"
    session.player = replace(player, charset=charset_code(choice.charset), color=choice.color,
                             rows=choice.rows)
    return ""


def next_charset(charset: Charset) -> Charset:
    names = [(name, glyphs) for name, glyphs, _ in CHOICES]
    index = names.index((charset.name, charset.c0_glyphs)) if (
        charset.name, charset.c0_glyphs) in names else -1
    name, glyphs, _ = CHOICES[(index + 1) % len(CHOICES)]
    return Charset(name, glyphs)


def row_choices(session: Session) -> list[int]:
    """24 and 25 rows, and the caller's window height when it is taller."""
    return sorted({24, 25, session.terminal.rows})


def charset_label(charset: Charset) -> str:
    for name, glyphs, label in CHOICES:
        if (name, glyphs) == (charset.name, charset.c0_glyphs):
            return label
    return charset.name


def draw_pattern(session: Session, top: int) -> int:
    """The test pattern from row ``top``; returns the row after it."""
    screen = session.screen
    left, width = 4, 72
    screen.box(top, left, 9, width, theme.FRAME_BRIGHT, style="double")
    screen.center(top, " Test pattern ", theme.TITLE)
    screen.box(top + 1, left + 3, 3, 12, theme.FRAME, style="single")
    screen.put(top + 2, left + 5, "a box", theme.LABEL)
    col = screen.put(top + 1, left + 18, "Suits: ", theme.LABEL)
    col = screen.put(top + 1, col, "♠ ", Attr(WHITE, BLACK, True))
    col = screen.put(top + 1, col, "♥ ", Attr(1, BLACK, True))
    col = screen.put(top + 1, col, "♦ ", Attr(1, BLACK, True))
    screen.put(top + 1, col, "♣", Attr(WHITE, BLACK, True))
    col = screen.put(top + 2, left + 18, "Card back: ", theme.LABEL)
    screen.put(top + 2, col, "▒▒", theme.LABEL)
    col = screen.put(top + 3, left + 18, "Shades: ", theme.LABEL)
    screen.put(top + 3, col, "░▒▓█", theme.LABEL)
    col = screen.put(top + 1, left + 44, "Accents: ", theme.LABEL)
    screen.put(top + 1, col, "Réussite É à ç", theme.BRIGHT)
    col = screen.put(top + 2, left + 44, "Arrows: ", theme.LABEL)
    screen.put(top + 2, col, "← ↑ → ↓ ► ◄", theme.BRIGHT)
    for i, name in enumerate(COLOR_NAMES):
        col = left + 3 + i * 8
        plain = Attr(i, WHITE) if i == BLACK else Attr(i, BLACK)  # black shows on grey
        screen.put(top + 5, col, f"{name[:7]:<7}", plain)
        screen.put(top + 6, col, f"{name[:7]:<7}", Attr(i, BLACK, True))
        screen.put(top + 7, col, "       ", Attr(WHITE, i))
    return top + 9


def setting_lines(session: Session) -> list[tuple[str, str, str]]:
    """The settings: key, what it sets, its value now."""
    choice = current(session)
    rows = row_choices(session)
    lines = [
        ("C", "Character set", charset_label(choice.charset)),
        ("O", "Colour", "on" if choice.color else "off"),
        ("R", "Screen rows", f"{choice.rows}" + (f" (choices: {', '.join(map(str, rows))})"
                                                  if len(rows) > 1 else "")),
    ]
    player = session.player
    if player is not None and watching_on(session.settings):
        lines.append(("W", "Others may watch my games", "yes" if player.watchable else "no"))
    lines.append(("M", "Mouse and touch", mouse_label(session)))
    return lines


def draw(session: Session, note: str = "") -> None:
    screen = session.screen
    screen.clear()
    screen.cursor = None
    header(session, "Terminal Settings")
    row = draw_pattern(session, 2)
    lines = setting_lines(session)
    for i, (key, label, value) in enumerate(lines):
        r = row + 1 + i
        col = screen.put(r, 6, f"[{key}] ", theme.HOTKEY)
        col = screen.put(r, col, f"{label}: ", theme.LABEL)
        screen.put(r, col, value, theme.BRIGHT)
    screen.put(row + 7, 6, "If the box, suits or accents look wrong, press C until they look "
               "right.", theme.LABEL)
    screen.put(row + 8, 6, "Every screen of the door reads in monochrome and in ASCII too.",
               theme.LABEL)
    if note:
        message(session, note)
    status_line(session, f"{' '.join(key for key, _, _ in lines)}: change them · "
                         f"{HELP.label} keys · Q/Esc back")


def mouse_label(session: Session) -> str:
    """The mouse line's value: ``on``, ``off``, or ``automatic`` and what it gives here."""
    player = session.player
    choice = player.mouse if player is not None else None
    if choice is not None or player is None:
        return "on" if session.mouse else "off"
    return f"automatic: {'on' if session.mouse else 'off'} for this terminal"


async def cycle_mouse(session: Session) -> str:
    """M: automatic, on, off, automatic …; the terminal is asked (or told to stop) at once,
    and the choice kept with the player record.  Without one: on or off for this call."""
    player = session.player
    if player is None:
        session.set_mouse(not session.mouse)
        return f"Mouse {'on' if session.mouse else 'off'} (for this call)."
    choice = {None: True, True: False, False: None}[player.mouse]
    session.player = replace(player, mouse=choice)
    session.set_mouse(mouse_wanted(session))
    said = {True: "Mouse on: click or tap a card, a place or a menu entry.",
            False: "Mouse off: the door never asks your terminal for it.",
            None: "Mouse automatic: on where the terminal says it reports clicks."}[choice]
    return await _kept(session, said, mouse=choice)


async def toggle_watchable(session: Session) -> str:
    """Let others watch the caller's games, or not; kept with the player record at once."""
    player = session.player
    if player is None or not watching_on(session.settings):
        session.bell()
        return "Press C, O, R, M, or Q to go back."
    watchable = not player.watchable
    session.player = replace(player, watchable=watchable)
    said = ("Others may watch your games." if watchable
            else "Nobody may watch your games: they are told you prefer not.")
    return await _kept(session, said, watchable=watchable)


async def _kept(session: Session, said: str, **changes: bool | None) -> str:
    """``said`` once the settings just changed for this call are kept with the caller's
    player record too; with why not, when they last for this call only."""
    store, player = session.store, session.player
    if store is None or player is None:
        return said + "  (For this call only.)"
    try:
        await store.players.update_settings(player.id, **changes)
    except Exception as exc:  # StoreUnavailable says why in plain words
        return f"{said}  Not kept for next time: {exc}"
    return said


async def terminal_settings(session: Session) -> None:
    """The menu's Terminal Settings: loop until Q or Esc."""
    note = ""
    changed = False
    while True:
        draw(session, note)
        await session.show()
        key = await session.key()
        note = ""
        choice = current(session)
        letter = key.char.lower() if key.is_char else ""
        if is_help(key):
            await show_menu_keys(session, "Terminal settings", [
                *((k, f"{label}: change it") for k, label, _ in setting_lines(session)),
                ("Q Esc", "back (your choice is kept)")])
            continue
        if key.name == "esc" or letter == "q":
            if changed:
                problem = await save_choice(session, choice)
                if problem and session.store is not None:
                    draw(session, problem)
                    await session.show()
                    await session.key()
            return
        if letter == "c":
            choice.charset = next_charset(choice.charset)
            note = f"Character set: {charset_label(choice.charset)}."
        elif letter == "o":
            choice.color = not choice.color
            note = "Colour on." if choice.color else "Colour off."
        elif letter == "r":
            options = row_choices(session)
            at = options.index(choice.rows) if choice.rows in options else -1
            choice.rows = options[(at + 1) % len(options)]
            note = f"{choice.rows} rows."
        elif letter == "w":
            note = await toggle_watchable(session)
            continue
        elif letter == "m":
            note = await cycle_mouse(session)
            continue
        elif key.name != "resize":
            session.bell()
            note = "Press C, O, R, M, or Q to go back."
            continue
        else:
            continue
        apply(session, choice)
        changed = True
