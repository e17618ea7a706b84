"""league_boards and league_results: the InterBBS league (#41, docs/league.md)

league_boards   the boards of this board's league: name, public key, how to reach it,
                the sync cursors and back-off
league_results  counted daily-challenge attempts signed by their boards, verified by
                replay when they came from another board

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03 08:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "league_boards",
        sa.Column("name", sa.String(30), nullable=False),
        sa.Column("public_key", sa.String(44), nullable=False),
        sa.Column("url", sa.String(200), server_default="", nullable=False),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("added", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pulled_after", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("pushed_after", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("failures", sa.Integer(), server_default="0", nullable=False),
        sa.Column("next_try", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_ok", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(200), server_default="", nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_league_boards")),
    )
    op.create_table(
        "league_results",
        sa.Column("seq", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("rid", sa.String(32), nullable=False),
        sa.Column("board", sa.String(30), nullable=False),
        sa.Column("handle", sa.String(40), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("number", sa.BigInteger(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("cheater", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("rank_key", sa.Integer(), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
        sa.Column("signature", sa.String(100), nullable=False),
        sa.Column("received", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.BigInteger(),
                  sa.ForeignKey("games.id", name="fk_league_results_game_id_games",
                                ondelete="SET NULL"), nullable=True),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_league_results")),
        sa.UniqueConstraint("rid", name=op.f("uq_league_results_rid")),
        sa.UniqueConstraint("game_id", name=op.f("uq_league_results_game_id")),
    )
    op.create_index(op.f("ix_league_results_board"), "league_results", ["board"])
    op.create_index("ix_league_results_ladder", "league_results",
                    ["game", "day", "rank_key", "finished"])
    op.create_index("ix_league_results_day", "league_results", ["day", "board"])


def downgrade() -> None:
    op.drop_index("ix_league_results_day", "league_results")
    op.drop_index("ix_league_results_ladder", "league_results")
    op.drop_index(op.f("ix_league_results_board"), "league_results")
    op.drop_table("league_results")
    op.drop_table("league_boards")
