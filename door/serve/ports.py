"""The ports ``reussite serve`` answers on, as one value: what the server reports once it
listens, the listeners' plan reads, and a worker tells the supervisor.

Its own module, below the server, the listeners and the workers, which all pass it on.
"""

from __future__ import annotations

from typing import NamedTuple


class Ports(NamedTuple):
    telnet: int
    ssh: int | None
    rlogin: int | None = None
    web: int | None = None
