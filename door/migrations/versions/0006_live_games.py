"""live_games: games in progress watchable from every server sharing the database (#18)

live_games  one row per game offered to watchers, by the process playing it (host):
            the listing (player, game, moves, last move), ``alive`` refreshed every few
            seconds, the engine's JSON state and a version written only while callers of
            other processes watch it (``watchers``)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 17:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "live_games",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("host", sa.String(64), nullable=False),
        sa.Column("alias", sa.String(40), nullable=False),
        sa.Column("title", sa.String(40), nullable=False),
        sa.Column("deal", sa.String(40), nullable=False),
        sa.Column("watchable", sa.Boolean(), nullable=False),
        sa.Column("moves", sa.Integer(), server_default="0", nullable=False),
        sa.Column("last_move", sa.DateTime(timezone=True), nullable=False),
        sa.Column("alive", sa.DateTime(timezone=True), nullable=False),
        sa.Column("watchers", sa.Integer(), server_default="0", nullable=False),
        sa.Column("shown", sa.Integer(), server_default="0", nullable=False),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("note", sa.String(200), server_default="", nullable=False),
        sa.Column("version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("over", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_games")),
    )
    op.create_index(op.f("ix_live_games_host"), "live_games", ["host"])


def downgrade() -> None:
    op.drop_index(op.f("ix_live_games_host"), table_name="live_games")
    op.drop_table("live_games")
