"""`memory-pipelines jobs ...` (the gated background jobs of a store), `run` (the pipeline
once over stores), `feed` (its change feed, followed like tail -f) and `reembed` (items whose
vector a check found wrong)."""

from __future__ import annotations

import json
import time

import click

from memory_pipelines.core.vocabulary import GATED_JOBS

DEFAULT_STORE = "default"
store_option = click.option(
    "--store", "-s", default=DEFAULT_STORE, show_default=True, help="Store (tenant) id."
)
job_argument = click.argument("job", type=click.Choice(GATED_JOBS))


@click.group("jobs")
def jobs_group() -> None:
    """Reflection, evolution and decay ship disabled: evaluate one on the store, then activate
    it on a passing evaluation, one job at a time."""


@jobs_group.command("status")
@store_option
def status(store: str) -> None:
    """Whether each job is active for the store, and its latest evaluation."""
    from memory_pipelines.api.jobs import job_status
    from memory_pipelines.api.memory import Memory

    for row in job_status(Memory(store, create=False).db, store):
        ev = row["latest_evaluation"]
        last = (
            f"evaluation {ev['evaluation_id']}: {ev['metric']} {ev['baseline']:.3f} -> "
            f"{ev['with_job']:.3f}, {'passed' if ev['passed'] else 'failed'}"
            if ev
            else "never evaluated"
        )
        state = f"active since {row['activated_at']:%Y-%m-%d}" if row["active"] else "inactive"
        click.echo(f"{row['job']:10} {state:24} {last}")


@jobs_group.command("evaluate")
@job_argument
@store_option
def evaluate(job: str, store: str) -> None:
    """Measure JOB on the store without changing it (self_recall@10 of its recent turns,
    without and with the job) and record the result; prints it as JSON."""
    from memory_pipelines.evals.activation import evaluate_job
    from memory_pipelines.models.embedder import get_embedder
    from memory_pipelines.store.db import get_database

    row = evaluate_job(get_database(), store, job, get_embedder())
    click.echo(json.dumps(row, indent=2, default=str))


@jobs_group.command("activate")
@job_argument
@store_option
@click.option("--evaluation", type=int, required=True, help="The passing evaluation's id.")
@click.option("--actor", required=True, help="Who activates it (recorded).")
@click.option("--force", is_flag=True, help="Even if another job was activated < 7 days ago.")
def activate(job: str, store: str, evaluation: int, actor: str, force: bool) -> None:
    """Activate JOB for the store on a passing evaluation (its latest)."""
    from memory_pipelines.api.jobs import activate_job
    from memory_pipelines.store.db import get_database

    row = activate_job(get_database(), store, job, evaluation, actor=actor, force=force)
    forced = " (forced)" if row["forced"] else ""
    click.echo(f"{job} active for store {store!r} since {row['activated_at']}{forced}")


@jobs_group.command("deactivate")
@job_argument
@store_option
@click.option("--actor", required=True, help="Who deactivates it (recorded).")
def deactivate(job: str, store: str, actor: str) -> None:
    """Switch JOB off for the store; what it wrote stays, ranking stops consuming it."""
    from memory_pipelines.api.jobs import deactivate_job
    from memory_pipelines.store.db import get_database

    deactivate_job(get_database(), store, job, actor=actor)
    click.echo(f"{job} inactive for store {store!r}")


@click.command("feed")
@store_option
@click.option(
    "--after",
    default=0,
    show_default=True,
    type=click.IntRange(0),
    help="Start after this event id.",
)
@click.option("--follow/--no-follow", default=True, show_default=True, help="Wait for new events.")
def feed(store: str, after: int, follow: bool) -> None:
    """Print the store's change feed, one JSON line per event in event_id order; with
    --follow, keep waiting for new ones (resume later with --after LAST_ID)."""
    from memory_pipelines.api.memory import Memory

    for event in Memory(store, create=False).subscribe(after, idle_timeout=None if follow else 0.0):
        click.echo(json.dumps(event.model_dump(mode="json"), ensure_ascii=False))


@click.command("reembed")
@store_option
def reembed(store: str) -> None:
    """Embed again the current items whose vector is not the model's (what the every_item_embedded
    check names: a zero or placeholder vector set outside the pipeline), from their words."""
    from memory_pipelines.api.memory import Memory
    from memory_pipelines.api.repair import reembed_items

    memory = Memory(store, create=False)
    done = reembed_items(memory.db, store, memory.embedder, log=click.echo)
    shown = ", ".join(str(i) for i in done[:20]) + (" ..." if len(done) > 20 else "")
    click.echo(
        f"store {store!r}: {len(done)} items embedded again" + (f" ({shown})" if done else "")
    )


@click.command("run")
@click.option(
    "--store", "-s", "stores", required=True, multiple=True, help="Store id (repeat for several)."
)
def run_command(stores: tuple[str, ...]) -> None:
    """Run the pipeline once over stores (extraction, dedup, history summaries, links, decay,
    maintenance; the gated jobs only where active), through Dagster in this process, and
    print what each pass did. `memory-pipelines dev` runs it on its own, when each store is
    due."""
    from memory_pipelines.api.memory import Memory
    from memory_pipelines.cli_demo import run_pipeline

    memories = [Memory(s, create=False) for s in stores]  # an unknown store: nothing runs
    start = time.perf_counter()
    for memory in memories:
        run_pipeline(memory)
    click.echo(
        f"ran the pipeline over {len(memories)} stores in {time.perf_counter() - start:.1f}s"
    )
