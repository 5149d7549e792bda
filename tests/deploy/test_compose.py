"""The compose file parses and runs every part from one image, with Redis persisting to AOF."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def resolved(value: str, env: dict[str, str] | None = None) -> str:
    """Compose's ``${NAME:-default}`` interpolation, with ``env`` as the environment."""
    env = env or {}
    return re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: env.get(m.group(1)) or m.group(2), value)


def env_file(path: Path) -> dict[str, str]:
    pairs = [line.split("=", 1) for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return {k: v for k, v in pairs}


def test_compose_names_every_part_from_one_image():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"redis", "api", "processor", "projector", "reactor", "worker"} <= set(services)
    parts = [services[name] for name in ("api", "processor", "projector", "reactor", "worker")]
    assert {p["build"]["dockerfile"] for p in parts} == {"deploy/Dockerfile"}
    assert {p["image"] for p in parts} == {"taproom:latest"}
    assert [p["command"][:2] for p in parts] == [["taproom", name] for name in ("api", "processor", "projector", "reactor", "worker")]
    assert all(resolved(p["environment"]["REDIS_URL"]).startswith("redis://redis:") for p in parts)
    assert "redis.conf" in " ".join(services["redis"]["command"])


def test_the_cluster_profile_runs_six_nodes_and_points_the_event_store_at_them():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    nodes = [name for name, s in services.items() if "cluster" in s.get("profiles", []) and name.startswith("redis-node")]
    assert len(nodes) == 6
    for name in nodes:
        command = " ".join(services[name]["command"])
        assert "--cluster-announce-hostname " + name in command
    conf = (ROOT / "deploy" / "redis-cluster.conf").read_text().split("\n")
    assert "cluster-enabled yes" in conf and "appendonly yes" in conf
    init = services["redis-cluster-init"]
    assert "/redis-cluster-create.sh" in " ".join(init["command"])
    assert any(v.startswith("./deploy/k8s/redis-cluster-create.sh:") for v in init["volumes"])
    env = env_file(ROOT / "deploy" / "cluster.env")
    part = services["processor"]["environment"]
    assert resolved(part["REDIS_URL"], env).split("//")[1].split(":")[0] in nodes
    assert resolved(part["TAPROOM_REDIS_CLUSTER"], env) == "1" and resolved(part["TAPROOM_APPEND_REPLICAS"], env) == "1"
    assert part["TAPROOM_QUEUE_REDIS_URL"].startswith("redis://redis:")  # rq stays on the plain Redis
    assert resolved(part["TAPROOM_REDIS_CLUSTER"]) == "0"  # without the env file: one Redis, as before


def test_redis_config_turns_aof_on():
    conf = (ROOT / "deploy" / "redis.conf").read_text().split("\n")
    assert "appendonly yes" in conf and "maxmemory-policy noeviction" in conf


def test_dockerfile_installs_the_package_and_the_cli_commands_exist():
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "pip install" in dockerfile and "COPY services" in dockerfile
    from click.testing import CliRunner

    from services.adapters.cli.main import cli

    for part in ("api", "processor", "projector", "reactor", "worker", "serve", "play", "export", "verify"):
        result = CliRunner().invoke(cli, [part, "--help"])
        assert result.exit_code == 0, (part, result.output)


def _size(text: str) -> int:
    """Bytes of a size written as Redis ("2gb", "768mb") or compose ("3g") writes it."""
    number, unit = re.fullmatch(r"(\d+)([kmg]?)b?", text.lower()).groups()  # type: ignore[union-attr]
    return int(number) * {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}[unit]


def _maxmemory(conf: Path) -> tuple[int, str]:
    lines = dict(line.split(None, 1) for line in conf.read_text().splitlines() if line and not line.startswith("#"))
    return _size(lines["maxmemory"]), lines["maxmemory-policy"]


def test_redis_refuses_writes_at_a_maxmemory_under_its_container_limit():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    for conf, service in (("redis.conf", "redis"), ("redis-cluster.conf", "redis-node-1")):
        maxmemory, policy = _maxmemory(ROOT / "deploy" / conf)
        assert policy == "noeviction"  # refuse writes, never drop a key
        assert 0 < maxmemory <= _size(services[service]["mem_limit"]) * 0.75, conf


def test_postgresql_is_the_cold_store_of_every_part_with_its_volume_and_backups():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    postgres = services["postgres"]
    assert any(v.startswith("postgres-data:") for v in postgres["volumes"])
    assert {"postgres-data", "postgres-backups"} <= set(compose["volumes"])
    backup = services["postgres-backup"]
    assert any(v.startswith("postgres-backups:") for v in backup["volumes"]) and "pg_dump" in " ".join(backup["command"])
    for name in ("api", "processor", "projector", "reactor", "worker", "coach-worker"):
        part = services[name]
        url = part["environment"]["TAPROOM_COLD_STORE_URL"]
        assert url.startswith("postgresql://") and "@postgres:5432/" in url, name
        assert part["environment"]["PGPASSWORD"] and part["depends_on"]["postgres"]["condition"] == "service_healthy"
    # the writer of the archives migrates the schema at its first use; it keeps every other setting
    worker = services["worker"]["environment"]
    assert worker["TAPROOM_COLD_STORE_MIGRATE"] == "true" and worker["REDIS_URL"] == services["api"]["environment"]["REDIS_URL"]


def test_the_cluster_is_created_with_ranges_that_spread_its_shards_evenly():
    from services.infrastructure.eventstore.slots import slot_ranges, spread

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    shards = int(env_file(ROOT / "deploy" / "cluster.env")["TAPROOM_SHARDS"])
    ranges = compose["services"]["redis-cluster-init"]["environment"]["SLOT_RANGES"]
    assert ranges == " ".join(f"{a}-{b}" for a, b in slot_ranges(shards, 3))
    assert len(set(spread(shards, slot_ranges(shards, 3)))) == 1
