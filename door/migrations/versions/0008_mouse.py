"""players.mouse: the mouse on or off whatever the terminal (Terminal Settings, issue #39)

players.mouse  True: the door asks the caller's terminal to report the mouse; False: it
               never does; NULL (every player so far): as the terminal's type says

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("mouse", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("mouse")
