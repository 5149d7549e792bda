"""Alembic's environment for the cold store: online migrations only, one migrator at a time (an advisory lock)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

MIGRATION_LOCK = 35_0001
"""The advisory lock every migrator takes: parts started together with migrations on wait for each other."""


def run_migrations_online() -> None:
    url = str(context.config.attributes.get("url") or context.config.get_main_option("sqlalchemy.url"))
    engine = create_engine(url, poolclass=NullPool)
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        try:
            context.configure(connection=connection, transactional_ddl=True)
            with context.begin_transaction():
                context.run_migrations()
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            connection.commit()
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("the cold store migrates online only: taproom migrate")
run_migrations_online()
