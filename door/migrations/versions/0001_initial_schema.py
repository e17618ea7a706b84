"""initial schema: players, games, resume slots, named saves, messages, nodes

Revision ID: 0001
Revises:
Create Date: 2026-11-30 06:27:25
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _when(name: str, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _player_fk(name: str = "player_id", nullable: bool = False,
               ondelete: str = "CASCADE") -> sa.Column[int]:
    return sa.Column(name, sa.BigInteger(),
                     sa.ForeignKey("players.id", ondelete=ondelete), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("source", sa.String(40), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("alias", sa.String(40), nullable=False),
        sa.Column("alias_key", sa.String(40), nullable=False),
        sa.Column("charset", sa.String(8), nullable=True),
        sa.Column("color", sa.Boolean(), nullable=True),
        sa.Column("rows", sa.Integer(), nullable=True),
        sa.Column("expert", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("games_played", sa.Integer(), server_default="0", nullable=False),
        _when("created"),
        _when("last_seen"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("source", "user_id", name=op.f("uq_players_source_user_id")),
    )
    op.create_index(op.f("ix_players_alias_key"), "players", ["alias_key"])

    op.create_table(
        "games",
        sa.Column("id", BIG_ID, nullable=False),
        _player_fk(),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("number", sa.BigInteger(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("cheater", sa.Boolean(), nullable=False),
        sa.Column("hof", sa.Boolean(), nullable=False),
        sa.Column("rank_key", sa.Integer(), nullable=False),
        _when("started"),
        _when("ended"),
        sa.Column("duration_s", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index("ix_games_hof", "games", ["game", "hof", "rank_key", "ended", "id"])
    op.create_index("ix_games_number", "games",
                    ["game", "number", "hof", "rank_key", "ended", "id"])
    op.create_index("ix_games_player", "games",
                    ["player_id", "game", "hof", "rank_key", "ended", "id"])

    op.create_table(
        "messages",
        sa.Column("id", BIG_ID, nullable=False),
        _player_fk("sender_id", nullable=True, ondelete="SET NULL"),
        sa.Column("sender_name", sa.String(40), nullable=False),
        _player_fk("recipient_id"),
        sa.Column("subject", sa.String(60), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        _when("sent"),
        _when("read_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_messages")),
    )
    op.create_index("ix_messages_recipient", "messages", ["recipient_id", "read_at"])
    op.create_index("ix_messages_sender", "messages", ["sender_id", "sent"])
    op.create_index("ix_messages_sent", "messages", ["sent"])

    op.create_table(
        "named_saves",
        sa.Column("id", BIG_ID, nullable=False),
        _player_fk(),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("name", sa.String(30), nullable=False),
        sa.Column("name_key", sa.String(30), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        _when("saved"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_named_saves")),
        sa.UniqueConstraint("player_id", "game", "name_key",
                            name=op.f("uq_named_saves_player_id_game_name_key")),
    )
    op.create_table(
        "nodes",
        sa.Column("host", sa.String(64), nullable=False),
        sa.Column("node", sa.Integer(), nullable=False),
        _player_fk(nullable=True),
        sa.Column("activity", sa.String(40), nullable=False),
        _when("since"),
        _when("heartbeat"),
        sa.PrimaryKeyConstraint("host", "node", name=op.f("pk_nodes")),
    )
    op.create_table(
        "resume_slots",
        _player_fk(),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        _when("saved"),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_resume_slots")),
    )


def downgrade() -> None:
    for table in ("resume_slots", "nodes", "named_saves", "messages", "games", "players"):
        op.drop_table(table)
