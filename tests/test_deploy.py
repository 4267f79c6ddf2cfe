"""deploy/ (issue 15): the Helm values use only keys of Dagster's chart with the types its
schema gives, name only the image the project builds, and make a valid Dagster instance
(the run queue keeps one run per store); the executors they name load; the manifests run the
HTTP service as stateless replicas from the same image; the Dockerfile installs what
pyproject.toml pins. `helm` cannot be installed here, and the chart cannot be fetched, so the
chart's keys are the list in deploy/helm/chart-keys.txt, read from the chart's schema."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import dagster as dg
import yaml

from memory_pipelines.defs.executors import executor
from tests.conftest import REPO

DEPLOY = REPO / "deploy"
VALUES = yaml.safe_load((DEPLOY / "helm/values.yaml").read_text())
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
VERSION = PYPROJECT["project"]["version"]
IMAGE = "memory-pipelines"
TYPES = {"object": dict, "array": list, "string": str, "integer": int, "boolean": bool}


def _chart_keys() -> dict[str, tuple[str, set[str]]]:
    keys = {}
    for line in (DEPLOY / "helm/chart-keys.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            path, kind, *allowed = line.split("\t")
            keys[path] = (kind, set(allowed[0].split("|")) if allowed else set())
    return keys


def _paths(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            path = f"{prefix}.{k}" if prefix else k
            out += [(path, v), *_paths(v, path)]
    elif isinstance(value, list):
        for v in value:
            out += [(f"{prefix}[]", v), *_paths(v, f"{prefix}[]")]
    return out


def test_helm_values_use_only_the_charts_keys_and_types() -> None:
    keys = _chart_keys()
    open_paths = [p for p, (kind, _) in keys.items() if kind == "open"]
    for path, value in _paths(VALUES):
        if any(path.startswith(o + ".") or path.startswith(o + "[]") for o in open_paths):
            continue  # inside a block the chart passes through
        if path.endswith("[]") and isinstance(value, dict):
            continue  # a list's object item: its fields are checked one by one
        assert path in keys, f"{path} is not a key of the chart"
        kind, allowed = keys[path]
        if kind != "open":
            assert isinstance(value, TYPES[kind]) and not (
                kind == "integer" and isinstance(value, bool)
            ), f"{path}: the chart wants {kind}, got {value!r}"
        if allowed:
            assert value in allowed, f"{path}: {value!r} not one of {sorted(allowed)}"


def _images(doc: Any) -> list[Any]:
    return [v for p, v in _paths(doc) if p == "image" or p.endswith(".image")]


def test_only_the_projects_image_is_named() -> None:
    helm = _images(VALUES)
    assert len(helm) == 5  # webserver, code location, daemon, db check, busybox waits
    for image in helm:
        assert (image["repository"], image["tag"]) == (IMAGE, VERSION), image
    manifests = [
        doc
        for f in sorted((DEPLOY / "k8s").glob("*.yaml"))
        for doc in yaml.safe_load_all(f.read_text())
    ]
    named = _images(manifests)
    assert named and set(named) == {f"{IMAGE}:{VERSION}"}


def test_the_values_make_an_instance_with_one_run_per_store() -> None:
    """The chart writes `concurrency` and the daemon's blocks into dagster.yaml with these
    names (snake_case of its camelCase keys); Dagster's own config schema then judges them."""
    c, d = VALUES["concurrency"], VALUES["dagsterDaemon"]
    overrides = {
        "concurrency": {
            "runs": {
                "max_concurrent_runs": c["runs"]["maxConcurrentRuns"],
                "tag_concurrency_limits": c["runs"]["tagConcurrencyLimits"],
            },
            "pools": {
                "granularity": c["pools"]["granularity"],
                "default_limit": c["pools"]["defaultLimit"],
            },
        },
        "run_coordinator": {
            "module": "dagster.core.run_coordinator",
            "class": d["runCoordinator"]["type"],
        },
        "run_retries": {"enabled": d["runRetries"]["enabled"]},
        "run_monitoring": {
            "enabled": d["runMonitoring"]["enabled"],
            "start_timeout_seconds": d["runMonitoring"]["startTimeoutSeconds"],
            "poll_interval_seconds": d["runMonitoring"]["pollIntervalSeconds"],
        },
    }
    with dg.instance_for_test(overrides=overrides) as instance:
        config = instance.get_concurrency_config()
        assert config.run_queue_config is not None
        assert config.run_queue_config.tag_concurrency_limits == [
            {"key": "dagster/partition", "value": {"applyLimitPerUniqueValue": True}, "limit": 1}
        ]
        assert config.pool_config.default_pool_limit == c["pools"]["defaultLimit"]
        assert instance.run_retries_enabled and instance.run_monitoring_enabled
    assert VALUES["runLauncher"]["type"] == "K8sRunLauncher"
    assert VALUES["postgresql"]["enabled"] is False  # an external server


def test_the_executors_the_values_name_load() -> None:
    [location] = VALUES["dagster-user-deployments"]["deployments"]
    env = {e["name"]: e["value"] for e in location["env"]}
    assert executor(env["MEMORY_EXECUTOR"]).name == "in_process"
    assert executor(env["MEMORY_PIPELINE_EXECUTOR"]).name == "k8s"  # dagster-k8s's
    assert location["codeServerArgs"] == ["-m", "memory_pipelines.definitions"]
    assert {"name": "memory-pipelines"} in location["envSecrets"]


def test_the_http_service_runs_as_stateless_replicas() -> None:
    docs = list(yaml.safe_load_all((DEPLOY / "k8s/memory-service.yaml").read_text()))
    kinds = {d["kind"]: d for d in docs}
    assert {"Deployment", "Service", "PodDisruptionBudget"} <= set(kinds)
    deployment = kinds["Deployment"]["spec"]
    assert deployment["replicas"] >= 2
    [container] = deployment["template"]["spec"]["containers"]
    assert container["command"][:2] == ["memory-pipelines", "serve"]
    assert "--host" in container["command"] and "0.0.0.0" in container["command"]  # noqa: S104
    assert container["envFrom"] == [{"secretRef": {"name": "memory-pipelines"}}]
    assert "volumes" not in deployment["template"]["spec"]  # no state on the pod
    secret = next(yaml.safe_load_all((DEPLOY / "k8s/secret.example.yaml").read_text()))
    assert "MEMORY_PG_DSN" in secret["stringData"]


def test_the_dockerfile_installs_what_pyproject_pins() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    [torch] = [d for d in PYPROJECT["project"]["dependencies"] if d.startswith("torch==")]
    assert f"torch=={torch.split('==')[1]}" in dockerfile
    assert "'.[k8s]'" in dockerfile and "k8s" in PYPROJECT["project"]["optional-dependencies"]
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.M)
    assert cmd is not None and "memory_pipelines.definitions" in cmd.group(1)
    assert "USER 10001" in dockerfile
    assert Path(DEPLOY / "Dockerfile.dockerignore").exists()
