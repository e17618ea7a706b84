"""``reussite solve``: ask a card game's solver about one deal, or about a run of deals.

    reussite solve GAME NUMBER [--options K=V …] [--budget S] [--nodes N]
    reussite solve GAME --range A-B [--jobs N] [--options K=V …] [--budget S]
                        [--out FILE.jsonl] [--json]
    reussite solve GAME --range A-B --again FIRST.jsonl [--every K] --budget S
                        [--out LATER.jsonl] …

One deal prints its verdict as JSON (winnable / not winnable / unknown, nodes, seconds, the
winning line in the game's notation).  A range prints how many deals are winnable, with a
95 % confidence interval, and the time per deal; ``--out`` keeps one JSON line per deal and
lets a long run be stopped and resumed (deals already in the file are not solved again).
``--again`` is a second stage: only the deals an earlier run's file left unknown are solved,
with this (larger) budget, and the summary counts the earlier run's verdicts for the rest;
``--every K`` solves every K-th of them only (a sample, in deal order) and adds an estimate
of the share the larger budget decides, with its interval (``SampleEstimate``).
Budgets are CPU seconds per deal.  Exit codes: 0 done; 2 a mistake on the command line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..catalog import registry as gamelist
from ..catalog.registry import solve
from ..compiled import build_name
from ..games.solvers import UNKNOWN, SampleEstimate, Verdict, summarize
from .common import EXIT_OK, CliError

if TYPE_CHECKING:  # the solvers load with the command, not with every launch of the door
    from ..games.solvers import Verdict


def default_budgets() -> dict[str, float]:
    """CPU seconds per deal when --budget is not given: each solvable game's record."""
    return {info.name: info.solver_budget for info in gamelist.games()
            if info.solver_budget is not None}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser],
             common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "solve", parents=[common], help="is a deal winnable? (card games' solvers)",
        description="Ask the solver of a card game whether deal NUMBER can be won (it sees "
                    "every card), or, with --range, what share of deals A..B can.  One deal "
                    "prints JSON with the verdict, the work done and a winning line.")
    solvable = tuple(default_budgets())
    parser.add_argument("game", choices=solvable, metavar="GAME",
                        help=f"one of {', '.join(solvable)}")
    parser.add_argument("number", nargs="?", type=int, metavar="NUMBER", help="the deal")
    parser.add_argument("--range", metavar="A-B", help="solve deals A to B instead")
    parser.add_argument("--options", nargs="+", default=[], metavar="K=V",
                        help="game options, as its engine takes them (docs/<game>.md)")
    parser.add_argument("--budget", type=float, metavar="S",
                        help="CPU seconds per deal before answering unknown (default: "
                             + ", ".join(f"{g} {s:g}" for g, s in default_budgets().items())
                             + ")")
    parser.add_argument("--nodes", type=int, metavar="N",
                        help="also stop after N search nodes (deterministic, machine-free)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="solve N deals at a time with --range (default 1)")
    parser.add_argument("--out", type=Path, metavar="FILE.jsonl",
                        help="with --range: keep one JSON line per deal here, resume from it")
    parser.add_argument("--json", action="store_true",
                        help="with --range: print the summary as JSON")
    parser.add_argument("--again", type=Path, metavar="FIRST.jsonl",
                        help="with --range: solve only the deals an earlier run's --out file "
                             "left unknown (with this budget); the summary counts its other "
                             "verdicts")
    parser.add_argument("--every", type=int, default=1, metavar="K",
                        help="with --again: only every K-th of those deals, in deal order (a "
                             "sample), and estimate the share decided (default 1: all)")
    parser.set_defaults(func=run)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["fd=3", "mode=relaxed"]`` -> ``{"fd": 3, "mode": "relaxed"}`` (numbers and
    true/false converted)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CliError(f"--options wants KEY=VALUE, got {pair!r}")
        low = value.lower()
        options[key] = (int(value) if value.lstrip("-").isdigit() else
                        {"true": True, "false": False}.get(low, value))
    return options


def parse_range(text: str) -> range:
    first, sep, last = text.partition("-")
    if not sep or not first.isdigit() or not last.isdigit() or int(first) > int(last):
        raise CliError(f"--range wants A-B with A <= B, got {text!r}")
    return range(int(first), int(last) + 1)


def _solve_one(job: tuple[str, int, dict[str, Any], float | None, int | None]) -> dict[str, Any]:

    game, number, options, seconds, nodes = job
    return solve(game, number, options, seconds=seconds, node_limit=nodes).to_json()


def _done(path: Path | None, game: str, options: dict[str, Any]) -> dict[int, Verdict]:
    """Verdicts already in ``--out`` for this game and these options."""

    found: dict[int, Verdict] = {}
    if path is None or not path.exists():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            verdict = Verdict.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError):
            continue
        if verdict.game == game and verdict.options == options:
            found[verdict.number] = verdict
    return found


def _run_range(jobs: list[tuple[str, int, dict[str, Any], float | None, int | None]],
               workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1 or len(jobs) <= 1:
        yield from map(_solve_one, jobs)
        return
    from multiprocessing import get_context  # local: when the command runs

    with get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(_solve_one, jobs)


def run(args: argparse.Namespace) -> int:

    options = parse_options(args.options)
    budget = args.budget if args.budget is not None else default_budgets()[args.game]
    if args.range is None:
        if args.number is None:
            raise CliError("give a deal NUMBER, or --range A-B")
        try:
            verdict = solve(args.game, args.number, options, seconds=budget,
                            node_limit=args.nodes)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        json.dump(verdict.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
    if args.number is not None:
        raise CliError("give either NUMBER or --range, not both")
    numbers = parse_range(args.range)
    try:   # check the options once, with a readable message
        options = dict(solve(args.game, numbers.start, options, node_limit=1).options)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    earlier: dict[int, Verdict] = {}
    chosen: list[int] = list(numbers)
    if args.again is not None:
        earlier, chosen = _again(args.again, args.out, args.every, args.game, options,
                                 numbers)
    elif args.every != 1:
        raise CliError("--every goes with --again")
    done = _done(args.out, args.game, options)
    todo = [(args.game, n, options, budget, args.nodes) for n in chosen if n not in done]
    verdicts = [done[n] for n in chosen if n in done]
    out = args.out.open("a", encoding="utf-8") if args.out else None
    try:
        for count, data in enumerate(_run_range(todo, max(1, args.jobs)), 1):
            verdicts.append(Verdict.from_json(data))
            if out:
                out.write(json.dumps(data) + "\n")
                out.flush()
            if count % 500 == 0:
                print(f"{count}/{len(todo)} solved (load {os.getloadavg()[0]:.1f})",
                      file=sys.stderr)
    finally:
        if out:
            out.close()
    estimate = None
    if earlier:
        later = {v.number: v for v in verdicts}
        unknown_before = sum(v.verdict == UNKNOWN for v in earlier.values())
        estimate = SampleEstimate(len(numbers), unknown_before, len(later),
                                  sum(v.verdict != UNKNOWN for v in later.values()))
        verdicts = [later.get(n, earlier[n]) for n in numbers]
    summary = summarize(verdicts)
    if args.json:
        extra = {} if estimate is None else {"again": {"file": str(args.again),
                                                       "every": args.every} | estimate.to_json()}
        json.dump({"game": args.game, "options": options, "range": args.range,
                   "budget_seconds": budget, "build": build_name()} | summary.to_json() | extra,
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"{args.game} {args.range} {json.dumps(options)} budget {budget:g} s per deal "
              f"({build_name()})")  # a compiled solver searches twice as fast
        if estimate is not None:
            print(f"(again: the deals {args.again} left unknown, every {args.every}; the "
                  f"others as it decided them)")
        print(summary.text())
        if estimate is not None and args.every != 1:
            print(estimate.text())
    return EXIT_OK


def _again(path: Path, out: Path | None, every: int, game: str, options: dict[str, Any],
           numbers: range) -> tuple[dict[int, Verdict], list[int]]:
    """An earlier run's verdicts for the range, and the deals to solve again: those it
    left unknown, every ``every``-th of them in deal order."""

    if every < 1:
        raise CliError(f"--every wants a number from 1 up, got {every}")
    if not path.exists():
        raise CliError(f"--again: no such file: {path}")
    if out is not None and out.resolve() == path.resolve():
        raise CliError("--again and --out name the same file: the deals solved again go "
                       "into a file of their own")
    found = _done(path, game, options)
    missing = [n for n in numbers if n not in found]
    if missing:
        raise CliError(f"--again: {path} has no verdict for {len(missing)} deal(s) of the "
                       f"range (the first is {missing[0]}): run the range into it first")
    earlier = {n: found[n] for n in numbers}
    unknown = [n for n in numbers if earlier[n].verdict == UNKNOWN]
    return earlier, unknown[::every]
