"""Score submit and hall-of-fame latency with a million stored games, SQLite and PostgreSQL.

    python bench/bench_store.py                        # SQLite in a temp folder, 1,000,000 games
    python bench/bench_store.py --pg-url postgresql+asyncpg://postgres@/bench?host=/tmp/pg
    python bench/bench_store.py --games 100000 --runs 100

The games are generated in bulk (executemany on SQLite, COPY on PostgreSQL) into a schema
made by the real migrations; then the real :class:`door.store.Store` is timed.  Submitting
a game includes replaying its record (the score check), timed separately too.  Prints
figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from door.catalog.registry import engine, names
from door.store import Store, verify_record
from door.store.engine import sqlite_path
from door.store.queries import counts_for_hall, rank_key

PLAYERS = 10_000
MOVES = json.dumps([f"m{i}" for i in range(40)])  # a record's size, roughly
T0 = datetime(2020, 1, 1, tzinfo=UTC)


def game_rows(count: int, seed: int = 7) -> Iterator[tuple[Any, ...]]:
    """(player_id, game, number, score, status, cheater, hof, rank_key, ended) rows."""
    rnd = random.Random(seed)
    for i in range(count):
        game = names()[i % len(names())]
        status = "won" if rnd.random() < 0.3 else "lost"
        cheater = rnd.random() < 0.02
        score = rnd.randint(40, 400) if game == "mariant" else rnd.randint(0, 5000)
        ended = T0 + timedelta(seconds=i * 90)
        yield (rnd.randint(1, PLAYERS), game, rnd.randint(1, 1_000_000), score, status,
               cheater, counts_for_hall(game, status, cheater), rank_key(game, score), ended)


async def fill(store: Store, count: int) -> float:
    """Players and ``count`` games, in bulk; returns seconds taken."""
    start = time.perf_counter()
    path = sqlite_path(store.core.url)
    if path:
        await asyncio.to_thread(_fill_sqlite, path, count)
    else:
        await _fill_pg(store, count)
    return time.perf_counter() - start


def _fill_sqlite(path: str, count: int) -> None:
    import sqlite3

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    now = T0.strftime("%Y-%m-%d %H:%M:%S.000000")
    conn.executemany(
        "INSERT INTO players (id, source, user_id, alias, alias_key, expert, games_played, "
        "created, last_seen) VALUES (?, 'bench', ?, ?, ?, 0, 0, ?, ?)",
        ((i, str(i), f"Player{i}", f"player{i}", now, now) for i in range(1, PLAYERS + 1)))
    conn.executemany(
        "INSERT INTO games (player_id, game, number, options, moves, score, status, cheater, "
        "hof, rank_key, started, ended, duration_s) "
        "VALUES (?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, ?, 600)",
        ((p, g, n, MOVES, s, st, c, h, k, e.strftime("%Y-%m-%d %H:%M:%S.000000"),
          e.strftime("%Y-%m-%d %H:%M:%S.000000"))
         for p, g, n, s, st, c, h, k, e in game_rows(count)))
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


async def _fill_pg(store: Store, count: int) -> None:
    import asyncpg

    url = store.core.engine.url.set(drivername="postgresql")
    conn = await asyncpg.connect(url.render_as_string(hide_password=False))
    try:
        await conn.copy_records_to_table(
            "players", columns=["id", "source", "user_id", "alias", "alias_key", "expert",
                                "games_played", "created", "last_seen"],
            records=[(i, "bench", str(i), f"Player{i}", f"player{i}", False, 0, T0, T0)
                     for i in range(1, PLAYERS + 1)])
        await conn.execute("SELECT setval(pg_get_serial_sequence('players', 'id'), $1)",
                           PLAYERS)
        batch: list[tuple[Any, ...]] = []
        columns = ["player_id", "game", "number", "options", "moves", "score", "status",
                   "cheater", "hof", "rank_key", "started", "ended", "duration_s"]
        for p, g, n, s, st, c, h, k, e in game_rows(count):
            batch.append((p, g, n, "{}", MOVES, s, st, c, h, k, e, e, 600))
            if len(batch) == 50_000:
                await conn.copy_records_to_table("games", columns=columns, records=batch)
                batch.clear()
        if batch:
            await conn.copy_records_to_table("games", columns=columns, records=batch)
        # What autovacuum would have done by now on a live board: statistics, and the
        # visibility map that lets rank counts be index-only scans.
        await conn.execute("VACUUM ANALYZE")
        try:  # flush the load now, not during the timings (needs superuser or pg_checkpoint)
            await conn.execute("CHECKPOINT")
        except asyncpg.PostgresError as exc:
            print(f"  (no CHECKPOINT: {exc})")
    finally:
        await conn.close()


async def timed(runs: int, call: Callable[[int], Awaitable[Any]]) -> list[float]:
    times = []
    for i in range(runs):
        start = time.perf_counter()
        await call(i)
        times.append((time.perf_counter() - start) * 1000)
    return times


def line(label: str, times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return (f"  {label:<34} median {statistics.median(times):7.2f} ms   p95 {p95:7.2f} ms   "
            f"max {times[-1]:7.2f} ms")


def sample_games(runs: int) -> list[Any]:
    games = []
    for i in range(runs):
        game = engine("montecarlo").new(10_000 + i)
        rnd = random.Random(i)
        for _ in range(12):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rnd.choice(legal))
        games.append(game)
    return games


async def bench(url: str, count: int, runs: int) -> None:
    store = Store(url)
    assert await store.start(), "migrations failed"
    print(f"{store.core.dialect}: {store.core.describe()}")
    print(f"  filled {count:,} games, {PLAYERS:,} players in {await fill(store, count):.1f} s")
    games = sample_games(runs)
    replay = [0.0] * runs
    for i, game in enumerate(games):
        start = time.perf_counter()
        verify_record(game.record(), game.score, str(game.status))
        replay[i] = (time.perf_counter() - start) * 1000
    me = await store.players.player("bench", "me", "Me")
    now = datetime.now(UTC)
    results = [
        ("replay check alone (Monte Carlo)", replay),
        ("finish_game (submit + rank)", await timed(runs, lambda i: store.scores.finish_game(
            me.id, games[i].record(), games[i].score, str(games[i].status), False, now, now))),
    ]
    for game in ("anciento", "mariant"):
        results.append((f"top 10 {game}", await timed(runs, lambda i, g=game: store.scores.top(g))))
    rnd = random.Random(3)
    results.append(("number_board anciento", await timed(runs, lambda i: store.scores.number_board(
        "anciento", rnd.randint(1, 1_000_000)))))
    results.append(("player_best anciento (full rank)", await timed(
        runs, lambda i: store.scores.player_best("anciento", rnd.randint(1, PLAYERS)))))
    results.append(("player_best mariant (full rank)", await timed(
        runs, lambda i: store.scores.player_best("mariant", rnd.randint(1, PLAYERS)))))
    for label, times in results:
        print(line(label, times))
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--pg-url", help="also run on this (empty) PostgreSQL database")
    parser.add_argument("--no-sqlite", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if not args.no_sqlite:
            db = Path(tmp) / "bench.db"
            asyncio.run(bench(f"sqlite+aiosqlite:///{db}", args.games, args.runs))
            print(f"  database file {db.stat().st_size / 1e6:.0f} MB")
    if args.pg_url:
        asyncio.run(bench(args.pg_url, args.games, args.runs))


if __name__ == "__main__":
    main()
