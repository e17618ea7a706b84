"""``reussite replay``: replay a game record, or apply moves to any position, print JSON.

This is how a stored score is trusted (replaying its record must give the same score) and how
a bug report is reproduced (a position plus the moves that go wrong).

Exit codes: 0 done; 1 a move or action was refused (its reason on stderr); 2 the file is
missing or is not a record/position.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..catalog import registry as gamelist
from ..games import Game, GameRecord, IllegalMove
from ..games.base import apply_actions


class ReplayError(Exception):
    """Unreadable input: one line, exit 2."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser],
             common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "replay", parents=[common], help="replay a game record or moves on a position",
        description="Replay RECORD.json (game, number, options, actions) and print the final "
                    "state, score and status as JSON; or, with --position, apply --moves to "
                    "any position.  A refused move prints its reason and exits 1.")
    parser.add_argument("record", nargs="?", type=Path, metavar="RECORD.json",
                        help="a game record, as stored for every finished game")
    parser.add_argument("--position", type=Path, metavar="STATE.json",
                        help="start from this position (a game's JSON state) instead")
    parser.add_argument("--moves", default="", metavar='"M1 M2 …"',
                        help="moves (and undo/redo) to apply to --position, space separated")
    parser.set_defaults(func=run)


def _load_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReplayError(f"{path}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ReplayError(f"{path}: expected a JSON object")
    return data


def _game_class(data: dict[str, Any], path: Path) -> type[Game]:
    name = data.get("game")
    if not isinstance(name, str):
        raise ReplayError(f"{path}: no \"game\" field naming the game")
    try:
        return gamelist.engine(name)
    except ValueError as exc:
        raise ReplayError(f"{path}: {exc}") from None


def _check_record(data: dict[str, Any], path: Path) -> None:
    """A record lists its actions; without them a replay would show a fresh deal as if it
    were the game (``reussite solve``'s answer has a ``line`` instead)."""
    if isinstance(data.get("actions"), list):
        return
    if "verdict" in data:
        raise ReplayError(f"{path}: a `reussite solve` answer, not a game record (its moves "
                          "are in \"line\"; a record lists them as \"actions\")")
    raise ReplayError(f"{path}: no \"actions\" list: not a game record")


def summary(game: Game) -> dict[str, Any]:
    return {"game": game.name, "number": game.number, "options": dict(game.options),
            "score": game.score, "status": str(game.status), "actions": len(game.actions),
            "state": game.to_json()}


def run(args: argparse.Namespace) -> int:
    try:
        if args.position is not None:
            if args.record is not None:
                raise ReplayError("give either RECORD.json or --position, not both")
            data = _load_json(args.position)
            cls = _game_class(data, args.position)
            try:
                game = cls.from_json(data)
            except (ValueError, KeyError, TypeError) as exc:
                raise ReplayError(f"{args.position}: not a valid position: {exc}") from None
            apply_actions(game, args.moves.split())
        elif args.record is not None:
            if args.moves:
                raise ReplayError("--moves needs --position")
            data = _load_json(args.record)
            cls = _game_class(data, args.record)
            _check_record(data, args.record)
            try:
                record = GameRecord.from_json(data)
                game = cls.replay(record)
            except IllegalMove:
                raise
            except (ValueError, KeyError, TypeError) as exc:
                raise ReplayError(f"{args.record}: not a valid record: {exc}") from None
        else:
            raise ReplayError("give RECORD.json, or --position STATE.json --moves \"…\"")
    except ReplayError as exc:
        print(f"reussite replay: {exc}", file=sys.stderr)
        return 2
    except IllegalMove as exc:
        print(f"reussite replay: {exc}", file=sys.stderr)
        return 1
    json.dump(summary(game), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
