"""players.watchable: a player may refuse to be watched (Terminal Settings, issue #18)

players.watchable  False: other callers are told the player prefers not to be watched

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 14:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("watchable", sa.Boolean(), server_default=sa.true(),
                                       nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("watchable")
