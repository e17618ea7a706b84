"""owned resume slots and node rows: a stale process can neither overwrite a newer game
nor remove another call's who's-online row, and one call can ask another to hang up

resume_slots.owner  the claim (a random 62-bit id) of the visit playing the slot's game:
                    only that visit's saves are written; any other is refused
resume_slots.version  moves kept so far by that owner: an older save never replaces a newer
nodes.token         the call owning the row (node_leave removes only its own row)
nodes.hangup        another call of the same player asked this one to save and hang up
nodes.alive         refreshed every few seconds by the process holding the call: a crashed
                    process's calls stop counting at once (heartbeat only says when the
                    caller last pressed a key)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 11:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("resume_slots", sa.Column("owner", sa.BigInteger(), server_default="0",
                                            nullable=False))
    op.add_column("resume_slots", sa.Column("version", sa.Integer(), server_default="0",
                                            nullable=False))
    op.add_column("nodes", sa.Column("token", sa.String(32), server_default="",
                                     nullable=False))
    op.add_column("nodes", sa.Column("hangup", sa.Boolean(), server_default=sa.false(),
                                     nullable=False))
    op.add_column("nodes", sa.Column("alive", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("nodes") as batch:
        batch.drop_column("alive")
        batch.drop_column("hangup")
        batch.drop_column("token")
    with op.batch_alter_table("resume_slots") as batch:
        batch.drop_column("version")
        batch.drop_column("owner")
