"""The deployment's cold store in PostgreSQL (issue 35): archived games and the results table, with the
schema's migrations (Alembic). The contract it keeps is ``services.infrastructure.eventstore.archived.ColdStore``."""

from services.infrastructure.coldstore.postgres import (
    SCHEME,
    UNAVAILABLE,
    GameResult,
    PostgresStore,
    conninfo,
    is_postgres_url,
)

__all__ = ["SCHEME", "UNAVAILABLE", "GameResult", "PostgresStore", "conninfo", "is_postgres_url"]
