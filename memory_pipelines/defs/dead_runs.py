"""Runs started in a process of their own and killed there."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import dagster as dg

# The machine and process of a run started in a process of its own (materialize_stores: the
# demo, evaluations): no run worker watches it, so killed it stays STARTED, and holds its
# store's place in the run queue (one run per store) until run monitoring's 4 hours. The
# machine is its host name, boot and process namespace: a container sharing the host's name
# (or a cloned machine) has pids of its own, which this one must not judge.
RUN_HOST, RUN_PID = "memory/host", "memory/pid"


def this_machine() -> str:
    """This host's name, boot id and process namespace, as a run's RUN_HOST tag holds them."""
    parts = [socket.gethostname()]
    for path in ("/proc/sys/kernel/random/boot_id", "/proc/self/ns/pid"):
        try:
            parts.append(Path(path).read_text().strip() if "boot" in path else os.readlink(path))
        except OSError:
            parts.append("?")
    return "/".join(parts)


def fail_dead_runs(instance: dg.DagsterInstance) -> list[str]:
    """Mark failed the runs this machine started in a process that is gone (killed), so the
    runs queued behind them for their store start; their ids. A store's work left undone is
    asked for again (the new-turns sensor reads what is owed from the store)."""
    machine = this_machine()
    gone = []
    started = dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED], tags={RUN_HOST: machine})
    for record in instance.get_run_records(filters=started):
        pid = record.dagster_run.tags.get(RUN_PID, "")
        if not pid.isdigit() or _alive(int(pid)):
            continue
        # read again: a run that ended as its process exited is no longer STARTED
        run = instance.get_run_by_id(record.dagster_run.run_id)
        if run is None or run.status != dg.DagsterRunStatus.STARTED:
            continue
        instance.report_run_failed(
            run,
            f"its process ({pid} on {socket.gethostname()}) is gone (killed?): the store's work"
            " left undone is asked for again",
        )
        gone.append(run.run_id)
    return gone


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
