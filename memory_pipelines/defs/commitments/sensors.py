"""Overdue commitments: each open commitment past its due time is announced on the event feed
once (an `overdue` event), however often the sensor ticks. Each store is announced on its own:
one store's bad row is logged with its id and named in the skip reason, the others go on."""

import dagster as dg

from memory_pipelines.api.commitments import announce_overdue
from memory_pipelines.resources import StoreResource


@dg.sensor(
    minimum_interval_seconds=60,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Every minute: records an `overdue` event for each open, current commitment "
    "past its due_at that has none yet (a unique index makes it once per commitment). Launches "
    "no runs; the tick's skip reason says what it announced, and names any store that could "
    "not be announced (its error is in the tick's log).",
)
def overdue_commitments_sensor(context: dg.SensorEvaluationContext, store: StoreResource):
    def failed(store_id: str, exc: Exception) -> None:
        context.log.error(f"store {store_id}: overdue commitments not announced: {exc}")

    # The database, not the cursor, remembers what was announced: a reset cursor or two
    # daemons ticking at once still announce each commitment once.
    res = announce_overdue(store.database(), on_error=failed)
    announced = res["announced"]
    total = sum(announced.values())
    if total:
        per_store = ", ".join(f"{s}: {n}" for s, n in sorted(announced.items()))
        context.log.info(f"announced {total} overdue commitments ({per_store})")
        summary = f"announced {total} overdue commitments ({per_store})"
    else:
        summary = "no commitment newly overdue"
    if res["already"]:
        summary += f"; {res['already']} already announced"
    if res["failed"]:
        summary += "; not announced for " + "; ".join(
            f"{s} ({err})" for s, err in sorted(res["failed"].items())
        )
    return dg.SkipReason(summary)
