"""One process of the concurrency test: several sessions at once writing scores, resume
slots, named saves and messages.  Prints a JSON summary; exits 1 on any error."""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import UTC, datetime

from door.catalog.registry import engine
from door.store import Limits, Store


def record_for(number: int):
    game = engine("montecarlo").new(number)
    for _ in range(4):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[0])
    return game


async def session(store: Store, worker: int, index: int, rounds: int, shared_id: int,
                  errors: list[str]) -> int:
    me = await store.players.player("direct", f"w{worker}s{index}", f"W{worker}S{index}")
    done = 0
    for r in range(rounds):
        game = record_for(1000 + worker * 100 + index * 10 + r)
        now = datetime.now(UTC)
        try:
            await store.scores.finish_game(shared_id, game.record(), game.score, str(game.status),
                                           False, now, now)
            await store.saves.claim_resume(me.id, "montecarlo", {"round": r})
            await store.saves.save_named(me.id, "anciento", f"round {r}", {"round": r})
            await store.messages.send(me.id, "hub", f"round {r}", f"from {me.alias}")
            # Pairs of sessions in different processes write to each other at once.
            await store.messages.send(me.id, f"W{worker ^ 1}S{index}", f"round {r}", "hi")
            done += 1
        except Exception as exc:  # every error is a failure of the test: report it
            errors.append(f"{type(exc).__name__}: {exc}")
    return done


async def main(url: str, worker: int, sessions: int, rounds: int) -> int:
    store = Store(url, limits=Limits(messages_per_hour=10_000, named_saves=1000))
    shared = await store.players.player("direct", "shared", "Shared")
    errors: list[str] = []
    done = await asyncio.gather(*(session(store, worker, i, rounds, shared.id, errors)
                                  for i in range(sessions)))
    await store.close()
    print(json.dumps({"worker": worker, "done": sum(done), "errors": errors}))
    return 1 if errors else 0


if __name__ == "__main__":
    url, worker, sessions, rounds = sys.argv[1], *map(int, sys.argv[2:5])
    sys.exit(asyncio.run(main(url, worker, sessions, rounds)))
