"""accounts: password hashes of direct callers (reussite serve)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 07:15:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.BigInteger(),
                  sa.ForeignKey("players.id", name="fk_accounts_player_id_players",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("password", sa.String(200), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_login", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("player_id", name="pk_accounts"),
    )


def downgrade() -> None:
    op.drop_table("accounts")
