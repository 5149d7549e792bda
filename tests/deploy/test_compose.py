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
    assert "--cluster-replicas 1" in " ".join(services["redis-cluster-init"]["command"])
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
