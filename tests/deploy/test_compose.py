"""The compose file parses and runs every part from one image, with Redis persisting to AOF."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_names_every_part_from_one_image():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"redis", "api", "processor", "projector", "reactor", "worker"} <= set(services)
    parts = [services[name] for name in ("api", "processor", "projector", "reactor", "worker")]
    assert {p["build"]["dockerfile"] for p in parts} == {"deploy/Dockerfile"}
    assert {p["image"] for p in parts} == {"taproom:latest"}
    assert [p["command"][:2] for p in parts] == [["taproom", name] for name in ("api", "processor", "projector", "reactor", "worker")]
    assert all(p["environment"]["REDIS_URL"].startswith("redis://redis:") for p in parts)
    assert "redis.conf" in " ".join(services["redis"]["command"])


def test_redis_config_turns_aof_on():
    conf = (ROOT / "deploy" / "redis.conf").read_text().split("\n")
    assert "appendonly yes" in conf and "maxmemory-policy noeviction" in conf


def test_dockerfile_installs_the_package_and_the_cli_commands_exist():
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "pip install" in dockerfile and "COPY services" in dockerfile
    from click.testing import CliRunner

    from services.cli.main import cli

    for part in ("api", "processor", "projector", "reactor", "worker", "serve", "play", "export", "verify"):
        result = CliRunner().invoke(cli, [part, "--help"])
        assert result.exit_code == 0, (part, result.output)
