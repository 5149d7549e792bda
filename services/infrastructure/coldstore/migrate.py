"""The cold store's schema, moved forward by Alembic: ``taproom migrate`` (and, with
``TAPROOM_COLD_STORE_MIGRATE``, every part at its start). Migrations live in ``migrations/versions``; several
processes migrating at once take turns on a PostgreSQL advisory lock (``migrations/env.py``)."""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from services.infrastructure.coldstore.postgres import conninfo


def sqlalchemy_url(url: str) -> str:
    """SQLAlchemy's name for the same database, on psycopg 3."""
    return conninfo(url).replace("postgresql://", "postgresql+psycopg://", 1).replace(
        "postgres://", "postgresql+psycopg://", 1)


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(resources.files("services.infrastructure.coldstore") / "migrations"))
    config.attributes["url"] = sqlalchemy_url(url)  # not an ini option: a password's '%' would be interpolated
    return config


def upgrade(url: str, revision: str = "head") -> str | None:
    """Move the schema to ``revision`` (the newest by default); returns the revision it is at."""
    command.upgrade(alembic_config(url), revision)
    return current(url)


def current(url: str) -> str | None:
    """The revision the database is at (None: never migrated)."""
    engine = create_engine(sqlalchemy_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


def head() -> str | None:
    """The newest revision this code knows."""
    return ScriptDirectory.from_config(alembic_config("postgresql://")).get_current_head()
