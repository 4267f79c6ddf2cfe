"""Which executor runs a run's steps, chosen by the deployment (MEMORY_EXECUTOR), read when
the definitions load.

- `in_process` (the default): every step of a run in the run's own process, one after the
  other. A run of one store is small (seconds of work): a process per step would import torch
  and load the embedding model once per step, which cost far more than the work. The model is
  loaded once per process (models.embedder.get_embedder) and shared by the run's steps.
- `multiprocess`: a process per step, steps in parallel (a large backfill of one store).
- `celery`: each step a task on a Celery broker (MEMORY_CELERY_BROKER, results on
  MEMORY_CELERY_BACKEND, default the broker), run by `dagster-celery worker` processes on any
  machine that reaches the broker, the database and this code (extra `celery`).
- `k8s`: each step its own Kubernetes Job (dagster-k8s's k8s_job_executor; extra `k8s`).

MEMORY_PIPELINE_EXECUTOR, when set, picks the `pipeline` job's (a store's whole pipeline in one
run, for backfills) apart from the small per-store jobs, which stay in one process or pod.
"""

from __future__ import annotations

import os

import dagster as dg

from memory_pipelines.errors import ValidationError

ENV = "MEMORY_EXECUTOR"
PIPELINE_ENV = "MEMORY_PIPELINE_EXECUTOR"  # the `pipeline` job's alone, when set
CHOICES = ("in_process", "multiprocess", "celery", "k8s")
BROKER = "MEMORY_CELERY_BROKER"


def executor(name: str) -> dg.ExecutorDefinition:
    """The executor called `name` (one of CHOICES)."""
    if name == "in_process":
        return dg.in_process_executor
    if name == "multiprocess":
        return dg.multiprocess_executor
    if name == "celery":
        from dagster_celery import celery_executor

        # By variable name: a broker URL with a password is never shown in the UI.
        backend = "MEMORY_CELERY_BACKEND" if os.environ.get("MEMORY_CELERY_BACKEND") else BROKER
        return celery_executor.configured(
            {"broker": {"env": BROKER}, "backend": {"env": backend}}, name="celery"
        )
    if name == "k8s":
        from dagster_k8s import k8s_job_executor

        return k8s_job_executor
    raise ValidationError(ENV, f"must be one of {', '.join(CHOICES)}, got {name!r}")


def executor_from_env(first: str | None = None) -> dg.ExecutorDefinition:
    """The executor the variable `first` names if set, else MEMORY_EXECUTOR's (default
    in_process)."""
    name = (os.environ.get(first, "") if first else "") or os.environ.get(ENV, "")
    return executor(name or "in_process")
