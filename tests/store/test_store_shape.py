"""The Store is a composition (door/store/store.py): its lifecycle, the shared core, and one
small repository per concern on that core.  A call mixed back into the Store itself, or a
repository that builds its own core or reaches another through the Store, fails here."""

from __future__ import annotations

from door.store import Store
from door.store.accounts import Accounts
from door.store.backup import Backups
from door.store.core import Database, Repository
from door.store.daily import Daily
from door.store.league import League
from door.store.live import LiveGames
from door.store.messages import Messages
from door.store.online import Online
from door.store.players import Players
from door.store.saves import Saves
from door.store.scores import Scores

LIFECYCLE = {"from_settings", "start", "close"}
REPOSITORIES: dict[str, type[Repository]] = {
    "players": Players, "accounts": Accounts, "scores": Scores, "daily": Daily,
    "league": League, "saves": Saves, "messages": Messages, "online": Online,
    "live": LiveGames, "backups": Backups,
}


def public(thing: object) -> set[str]:
    return {name for name in dir(thing) if not name.startswith("_")}


async def test_the_store_is_its_lifecycle_its_core_and_its_repositories(store: Store) -> None:
    assert Store.__mro__ == (Store, object)  # no mixins
    assert public(store) == LIFECYCLE | {"core"} | set(REPOSITORIES)
    assert type(store.core) is Database
    for name, kind in REPOSITORIES.items():
        repository = getattr(store, name)
        assert type(repository) is kind, name
        assert repository._core is store.core, f"{name} runs on a core of its own"
        for attribute in public(repository):
            assert not isinstance(getattr(repository, attribute), Store | Database | Repository), \
                f"{name}.{attribute} reaches the store's other parts"


async def test_a_repository_needing_another_gets_it_at_construction(store: Store) -> None:
    assert store.accounts._players is store.players
    guest = await store.accounts.guest()
    assert await store.players.by_id(guest.id) == guest
