"""The Kubernetes manifests (deploy/k8s) parse, name every part, probe real checks, bound their resources
and scale what the autoscalers point at."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
PARTS = ("api", "processor", "projector", "reactor", "worker")


@cache
def documents() -> list[dict[str, Any]]:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    docs = []
    for name in kustomization["resources"]:
        docs += [d for d in yaml.safe_load_all((K8S / name).read_text()) if d]
    return docs


def of_kind(kind: str) -> dict[str, dict[str, Any]]:
    return {d["metadata"]["name"]: d for d in documents() if d["kind"] == kind}


def containers(workload: dict[str, Any]) -> list[dict[str, Any]]:
    return workload["spec"]["template"]["spec"]["containers"]


def container(workload: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [c for c in containers(workload) if c["name"] == name]
    return found


def test_kustomization_lists_every_manifest_file():
    listed = set(yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"])
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == on_disk


def test_every_part_is_a_deployment_of_the_one_image_running_its_command():
    deployments = of_kind("Deployment")
    assert set(PARTS) <= set(deployments)
    for part in PARTS:
        (container,) = containers(deployments[part])
        assert container["image"] == "taproom"
        assert container["command"][:2] == ["taproom", part]
        refs = {r.get("configMapRef", {}).get("name") for r in container["envFrom"]}
        assert "taproom-config" in refs


@pytest.mark.parametrize("kind", ["Deployment", "StatefulSet"])
def test_every_container_has_probes_and_bounded_resources(kind):
    for name, workload in of_kind(kind).items():
        for container in containers(workload):
            for probe in ("readinessProbe", "livenessProbe"):
                assert probe in container, (name, probe)
            resources = container["resources"]
            for bound in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(resources[bound]), (name, bound)
            ports = {p["containerPort"] for p in container.get("ports", [])}
            for probe in ("readinessProbe", "livenessProbe"):
                http = container[probe].get("httpGet")
                if http is not None:
                    assert http["port"] in ports, (name, probe, "probes a port the container does not open")


def test_the_api_probes_are_routes_of_the_app():
    import fakeredis
    from fastapi.testclient import TestClient

    from services.adapters.api.app import create_app
    from services.infrastructure.settings import Settings

    (container,) = containers(of_kind("Deployment")["api"])
    with TestClient(create_app(fakeredis.FakeRedis(server=fakeredis.FakeServer()), Settings(redis_url=None))) as api:
        for probe in ("readinessProbe", "livenessProbe"):
            assert api.get(container[probe]["httpGet"]["path"]).status_code == 200


def test_the_other_parts_probe_the_health_port_they_serve():
    """Processor, projector, reactor and worker serve /livez and /readyz on TAPROOM_HEALTH_PORT."""
    import httpx

    from services.infrastructure import health
    from tests.services.redis_server import free_port

    config = of_kind("ConfigMap")["taproom-config"]["data"]
    port = int(config["TAPROOM_HEALTH_PORT"])
    deployments = of_kind("Deployment")
    local = free_port()
    server = health.serve(local, 60.0, {}, host="127.0.0.1", only="manifest-")
    health.beat("manifest-check", ok=True)
    try:
        for part in PARTS[1:]:
            (container,) = containers(deployments[part])
            for probe in ("readinessProbe", "livenessProbe"):
                http = container[probe]["httpGet"]
                assert http["port"] == port
                assert httpx.get(f"http://127.0.0.1:{local}{http['path']}").status_code == 200, (part, probe)
    finally:
        health.forget("manifest-check")
        server.shutdown()


def test_cluster_settings_are_those_the_code_reads():
    from services.infrastructure.settings import Settings

    config = of_kind("ConfigMap")["taproom-config"]["data"]
    fields = {f"TAPROOM_{name.upper()}" for name in Settings.model_fields} | {"REDIS_URL"}
    assert set(config) <= fields, set(config) - fields
    assert config["TAPROOM_REDIS_CLUSTER"] == "1" and config["TAPROOM_APPEND_REPLICAS"] == "1"
    assert config["TAPROOM_QUEUE_REDIS_URL"] != config["REDIS_URL"]  # rq has its own Redis
    assert of_kind("StatefulSet")["redis-cluster"]["spec"]["replicas"] == 6


def test_the_autoscalers_target_deployments_that_exist():
    hpas = of_kind("HorizontalPodAutoscaler")
    deployments = of_kind("Deployment")
    assert {"api", "worker"} <= set(hpas)
    for name, hpa in hpas.items():
        target = hpa["spec"]["scaleTargetRef"]
        assert target["kind"] == "Deployment" and target["name"] in deployments, name
        assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
        (container,) = containers(deployments[target["name"]])
        assert "cpu" in container["resources"]["requests"]  # a CPU target needs a CPU request


def test_the_ingress_reaches_the_api_and_only_it_may_forward_addresses():
    ingress = of_kind("Ingress")["api"]
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    service = of_kind("Service")[backend["name"]]
    assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
    trusted = of_kind("ConfigMap")["taproom-config"]["data"]["TAPROOM_TRUSTED_PROXIES"]
    import ipaddress

    assert all(ipaddress.ip_network(part.strip()).is_private for part in trusted.split(","))  # never '*'


# -- issue 35: the cold store, memory limits, disruption budgets, the shard layout ------------------------------
def _bytes(text: str) -> int:
    import re

    number, unit = re.fullmatch(r"(\d+)(gb|mb|gi|mi|g|m)?", text.lower()).groups()  # type: ignore[union-attr]
    return int(number) * {None: 1, "m": 1024 ** 2, "mb": 1024 ** 2, "mi": 1024 ** 2,
                          "g": 1024 ** 3, "gb": 1024 ** 3, "gi": 1024 ** 3}[unit]


def test_every_part_and_store_has_a_disruption_budget():
    budgets = of_kind("PodDisruptionBudget")
    labels = {d["metadata"]["name"]: d["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/name"]
              for kind in ("Deployment", "StatefulSet") for d in of_kind(kind).values()}
    selected = {b["spec"]["selector"]["matchLabels"]["app.kubernetes.io/name"] for b in budgets.values()}
    for workload in (*PARTS, "redis-cluster", "redis-queue", "postgres"):
        assert labels[workload] in selected, workload
    assert budgets["postgres"]["spec"]["maxUnavailable"] == 0  # one instance: a drain waits for an operator


def test_every_redis_refuses_writes_at_a_maxmemory_under_its_container_limit():
    conf = of_kind("ConfigMap")["redis-cluster-config"]["data"]["redis.conf"]
    settings = dict(line.split(None, 1) for line in conf.splitlines() if line.strip() and not line.startswith("#"))
    node = container(of_kind("StatefulSet")["redis-cluster"], "redis")
    assert settings["maxmemory-policy"] == "noeviction"
    assert _bytes(settings["maxmemory"]) == 25 * 1024 ** 3  # CAPACITY.md: 25 GiB of data a master
    assert _bytes(settings["maxmemory"]) <= 0.8 * _bytes(node["resources"]["limits"]["memory"])
    assert node["resources"]["requests"]["memory"] == node["resources"]["limits"]["memory"]  # never overcommitted
    queue = container(of_kind("StatefulSet")["redis-queue"], "redis")
    args = queue["command"]
    assert args[args.index("--maxmemory-policy") + 1] == "noeviction"
    assert _bytes(args[args.index("--maxmemory") + 1]) <= 0.8 * _bytes(queue["resources"]["limits"]["memory"])


def test_every_part_reads_the_one_postgresql_cold_store():
    from services.infrastructure.coldstore import is_postgres_url

    config = of_kind("ConfigMap")["taproom-config"]["data"]
    url = config["TAPROOM_COLD_STORE_URL"]
    assert is_postgres_url(url) and ":" not in url.split("//")[1].split("@")[0]  # no password in the ConfigMap
    host_port = url.split("@")[1].split("/")[0]
    service = of_kind("Service")[host_port.split(":")[0]]
    assert int(host_port.split(":")[1]) in {p["port"] for p in service["spec"]["ports"]}
    deployments = of_kind("Deployment")
    for part in PARTS:
        (container,) = containers(deployments[part])
        assert "taproom-postgres" in {r.get("secretRef", {}).get("name") for r in container["envFrom"]}, part
    # the writer of the archives migrates the schema at its first use (a part starts while PostgreSQL is down)
    (worker,) = containers(deployments["worker"])
    assert {"name": "TAPROOM_COLD_STORE_MIGRATE", "value": "true"} in worker["env"]
    from services.infrastructure.settings import Settings

    assert "cold_store_migrate" in Settings.model_fields


def test_postgresql_has_its_volume_and_a_named_backup():
    postgres = of_kind("StatefulSet")["postgres"]
    (claim,) = postgres["spec"]["volumeClaimTemplates"]
    db = container(postgres, "postgres")
    assert {m["name"] for m in db["volumeMounts"]} == {claim["metadata"]["name"]}
    password = next(e for e in db["env"] if e["name"] == "POSTGRES_PASSWORD")["valueFrom"]["secretKeyRef"]
    assert password == {"name": "taproom-postgres", "key": "PGPASSWORD"}
    backup = of_kind("CronJob")["postgres-backup"]
    job = backup["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    (dump,) = job["containers"]
    assert "pg_dump" in " ".join(dump["command"]) and "-h postgres" in " ".join(dump["command"])
    (volume,) = job["volumes"]
    assert volume["persistentVolumeClaim"]["claimName"] in of_kind("PersistentVolumeClaim")


def test_the_cluster_is_created_with_slot_ranges_that_spread_the_shards_evenly():
    from services.infrastructure.eventstore.slots import equal_ranges, slot_ranges, spread

    shards = int(of_kind("ConfigMap")["taproom-config"]["data"]["TAPROOM_SHARDS"])
    masters = of_kind("StatefulSet")["redis-cluster"]["spec"]["replicas"] // 2
    (create,) = of_kind("Job")["redis-cluster-create"]["spec"]["template"]["spec"]["containers"]
    ranges = next(e["value"] for e in create["env"] if e["name"] == "SLOT_RANGES")
    assert ranges == " ".join(f"{a}-{b}" for a, b in slot_ranges(shards, masters))
    assert spread(shards, slot_ranges(shards, masters)) == [shards // masters] * masters
    assert len(set(spread(shards, equal_ranges(masters)))) > 1  # what `redis-cli --cluster create` would give
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    (generated,) = kustomization["configMapGenerator"]
    assert generated["files"] == ["redis-cluster-create.sh"] and (K8S / "redis-cluster-create.sh").is_file()


def _scraped_port(workload: dict[str, Any]) -> int:
    annotations = workload["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true" and annotations["prometheus.io/path"] == "/metrics"
    return int(annotations["prometheus.io/port"])


def test_every_series_the_alerts_read_has_an_exporter_that_prometheus_finds():
    """deploy/alerts.yml reads redis_* (redis_exporter), pg_* (postgres_exporter) and taproom_* (the parts'
    own /metrics): each comes from a container of the manifests whose pod says where to scrape it (kube_* is
    kube-state-metrics, the cluster's own: deploy/RUNBOOK.md)."""
    import re

    rules = yaml.safe_load((ROOT / "deploy" / "alerts.yml").read_text())["groups"][0]["rules"]
    families = {m.split("_")[0] for r in rules for m in re.findall(r"\b([a-z]+_[a-z_]+)\b(?=[{(\s)<>=]|$)", r["expr"])}
    assert {"redis", "pg", "taproom", "kube"} >= families >= {"redis", "pg", "taproom"}
    exporters = {"redis": ("oliver006/redis_exporter", ("redis-cluster", "redis-queue")),
                 "pg": ("prometheuscommunity/postgres-exporter", ("postgres",))}
    statefulsets = of_kind("StatefulSet")
    for image, workloads in exporters.values():
        for name in workloads:
            sidecar = container(statefulsets[name], "metrics")
            assert image in sidecar["image"], name
            assert _scraped_port(statefulsets[name]) in {p["containerPort"] for p in sidecar["ports"]}, name
    deployments = of_kind("Deployment")
    for part in PARTS:
        (only,) = containers(deployments[part])
        metrics_port = _scraped_port(deployments[part])
        assert metrics_port in {p["containerPort"] for p in only["ports"]}, part
        probed = {only[probe]["httpGet"]["port"] for probe in ("readinessProbe", "livenessProbe")}
        assert metrics_port in probed, part  # the port that serves /health or /readyz serves /metrics too
    assert "kube-state-metrics" in (ROOT / "deploy" / "RUNBOOK.md").read_text()
