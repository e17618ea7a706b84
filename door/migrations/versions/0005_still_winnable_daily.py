"""games.still_asks and daily_entries: "still winnable?" marks and the daily challenge (#17)

games.still_asks  how many times the caller asked "still winnable?" during the game
daily_entries     each caller's counted (first finished) attempt at a day's challenge

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 17:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("still_asks", sa.Integer(), server_default="0",
                                     nullable=False))
    op.create_table(
        "daily_entries",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("player_id", sa.BigInteger(),
                  sa.ForeignKey("players.id", name="fk_daily_entries_player_id_players",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("game_id", sa.BigInteger(),
                  sa.ForeignKey("games.id", name="fk_daily_entries_game_id_games",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.BigInteger(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("rank_key", sa.Integer(), nullable=False),
        sa.Column("ended", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("day", "game", "player_id", name="pk_daily_entries"),
    )
    op.create_index("ix_daily_entries_board", "daily_entries",
                    ["game", "day", "rank_key", "ended"])
    op.create_index("ix_daily_entries_player", "daily_entries", ["player_id", "day"])


def downgrade() -> None:
    op.drop_index("ix_daily_entries_player", "daily_entries")
    op.drop_index("ix_daily_entries_board", "daily_entries")
    op.drop_table("daily_entries")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("still_asks")
