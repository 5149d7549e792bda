"""The real PostgreSQL for the cold store's tests: each test module's database of its own, created, migrated and
dropped by the tests (``taproom_test_opspg_<random>`` on ``POSTGRES_TEST_URL``, default the local server).
Locally a missing server skips; with ``CI`` set it fails, like the real Redis."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest

ADMIN_URL = os.environ.get("POSTGRES_TEST_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DB_PREFIX = "taproom_test_opspg_"


def admin() -> psycopg.Connection:
    """A connection to the server's maintenance database, or skip (locally) / fail (in CI)."""
    try:
        return psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs a real PostgreSQL at {ADMIN_URL}: {exc}")
        pytest.skip(f"no PostgreSQL at {ADMIN_URL}")


def url_of(database: str) -> str:
    base = psycopg.conninfo.conninfo_to_dict(ADMIN_URL)
    base["dbname"] = database
    parts = {k: v for k, v in base.items() if v is not None}
    user = parts.pop("user", "postgres")
    password = parts.pop("password", None)
    host, port = parts.pop("host", "127.0.0.1"), parts.pop("port", "5432")
    auth = f"{user}:{password}" if password else user
    return f"postgresql://{auth}@{host}:{port}/{database}"


@contextmanager
def database(migrated: bool) -> Iterator[str]:
    """A database of its own (migrated to the head, or empty), dropped afterwards."""
    from services.infrastructure.coldstore.migrate import upgrade

    name = f"{DB_PREFIX}{uuid.uuid4().hex[:10]}"
    with admin() as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = url_of(name)
    try:
        if migrated:
            upgrade(url)
        yield url
    finally:
        with admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh database with the cold store's schema (``taproom migrate``'s upgrade), dropped afterwards."""
    with database(migrated=True) as url:
        yield url
