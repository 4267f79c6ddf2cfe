"""Runs started in a process of their own and killed there."""

from __future__ import annotations

import os
import socket

import dagster as dg

# The machine and process of a run started in a process of its own (materialize_stores: the
# demo, evaluations): no run worker watches it, so killed it stays STARTED, and holds its
# store's place in the run queue (one run per store) until run monitoring's 4 hours.
RUN_HOST, RUN_PID = "memory/host", "memory/pid"


def fail_dead_runs(instance: dg.DagsterInstance) -> list[str]:
    """Mark failed the runs this machine started in a process that is gone (killed), so the
    runs queued behind them for their store start; their ids. A store's work left undone is
    asked for again (the new-turns sensor reads what is owed from the store)."""
    host = socket.gethostname()
    gone = []
    started = dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED], tags={RUN_HOST: host})
    for record in instance.get_run_records(filters=started):
        run = record.dagster_run
        pid = run.tags.get(RUN_PID, "")
        if pid.isdigit() and not _alive(int(pid)):
            instance.report_run_failed(
                run,
                f"its process ({pid} on {host}) is gone (killed?): the store's work left"
                " undone is asked for again",
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
