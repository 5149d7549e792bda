"""The archive's objects and the results of archived games.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "archive_objects",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("bytes", sa.Integer, nullable=False),
        sa.Column("stored_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_table(
        "game_results",
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("seat", sa.SmallInteger, primary_key=True),
        sa.Column("player", sa.Text, nullable=True),  # player:<id>, bot:<level>; NULL for a guest seat
        sa.Column("name", sa.Text, nullable=True),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("place", sa.SmallInteger, nullable=False),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("game_results_player", "game_results", ["player", sa.text("finished_at DESC")],
                    postgresql_where=sa.text("player IS NOT NULL"))
    op.create_index("game_results_title", "game_results", ["title", sa.text("finished_at DESC")])


def downgrade() -> None:
    op.drop_index("game_results_title", table_name="game_results")
    op.drop_index("game_results_player", table_name="game_results")
    op.drop_table("game_results")
    op.drop_table("archive_objects")
