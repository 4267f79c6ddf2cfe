"""`memory-pipelines eval ...`: evaluations that print JSON."""

from __future__ import annotations

import json
from pathlib import Path

import click

DATA = Path(__file__).resolve().parent.parent / "benchmarks/data"


def _jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _emit(report: dict, out: Path | None) -> None:
    text = json.dumps(report, indent=2, default=str)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
    click.echo(text)


@click.group("eval")
def eval_group() -> None:
    """Evaluations that print JSON (also run on cases you do not have)."""


backend_option = click.option(
    "--backend",
    type=click.Choice(["local", "openai"]),
    default="local",
    show_default=True,
    help="Model backend (openai: MEMORY_LLM_* vars).",
)
out_option = click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the JSON here.",
)


def _case_sets(files: tuple[Path, ...], folder: Path) -> list[Path]:
    """The files given, or every case set (*.jsonl) of the folder: the dev set and any
    held-out set beside it."""
    return list(files) or sorted(folder.glob("*.jsonl"))


# A case set whose name ends so is held out (judge_g, judge_k, judge_m, judge_p, judge_q,
# judge_s, judge_w, judge_y, extraction_g, extraction_k, extraction_y, policy_g, policy_q):
# never tuned on, totals only.
# The sets before it (_c to _f) were held out in turn and are tuning sets now.
HELD_OUT = ("_g", "_k", "_m", "_p", "_q", "_s", "_w", "_y")


def _per_set(reports: dict[str, dict], figures: tuple[str, ...] = ("accuracy",)) -> dict:
    """One set: its report as it is. Several: each under its name, with its `figures` side by
    side first. A held-out set's cases are not named (only how many were missed): whoever runs
    the default command must not see which held-out cases fail, or they are tuned on."""
    for name, report in reports.items():
        if name.endswith(HELD_OUT) and isinstance(report.get("misses"), list):
            report["misses"] = len(report["misses"])
    if len(reports) == 1:
        return next(iter(reports.values()))
    side = {f: {k: r[f] for k, r in reports.items()} for f in figures}
    return {**side, "sets": reports}


cases_option = click.option(
    "--cases",
    "--data",
    "files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A case file (JSON Lines); repeat for several. Default: every *.jsonl set of the"
    " data folder, each scored on its own.",
)


def _tuning_sets(files: tuple[Path, ...], folder: Path) -> dict[str, list[dict]]:
    """The case sets a learned chooser is fitted on: those given, or every set of the folder
    but the held-out ones."""
    paths = _case_sets(files, folder)
    return {p.stem: _jsonl(p) for p in paths if files or not p.stem.endswith(HELD_OUT)}


@eval_group.command("judge")
@cases_option
@backend_option
@out_option
@click.option(
    "--fit",
    is_flag=True,
    help="Fit the judge's learned chooser on the case sets (default: all but the held-out"
    " ones), write core/judge_model.json, and print each set's accuracy by a model fitted on"
    " the others beside the rules'.",
)
def eval_judge(files: tuple[Path, ...], backend: str, out: Path | None, fit: bool) -> None:
    """Dedup judge accuracy on labelled cases (decision and target both right)."""
    from memory_pipelines.evals.judge import evaluate
    from memory_pipelines.models.base import Models
    from memory_pipelines.models.embedder import get_embedder
    from memory_pipelines.models.factory import make_backend
    from memory_pipelines.store.db import get_database

    emb = get_embedder()
    if fit:
        from memory_pipelines.core.judge_eval import fit_judge
        from memory_pipelines.core.judge_model import MODEL_PATH

        model, report = fit_judge(_tuning_sets(files, DATA / "judge"), emb)
        MODEL_PATH.write_text(model.to_json(), encoding="utf-8")
        _emit({"written": str(MODEL_PATH), "leave_one_set_out": report}, out)
        return
    models, db = Models(make_backend(backend, emb)), get_database()
    reports = {
        path.stem: evaluate(db, models, emb, _jsonl(path))
        for path in _case_sets(files, DATA / "judge")
    }
    _emit(_per_set(reports), out)


@eval_group.command("policy")
@cases_option
@out_option
@click.option(
    "--rules-only",
    is_flag=True,
    help="Score the rules alone, without the learned model (core/policy_model.py) on top.",
)
@click.option(
    "--fit",
    is_flag=True,
    help="Refit the learned model on the as-of readings of the tuning sets"
    " (policy/readings/asof.jsonl) and the policy tests' patterns (readings/patterns.jsonl)"
    " and write core/policy_model.json; no scoring.",
)
def eval_policy(files: tuple[Path, ...], out: Path | None, rules_only: bool, fit: bool) -> None:
    """Save-policy accuracy on labelled turns (save or skip, and the category): the learned
    model on top of the rules, as the product decides, or the rules alone (--rules-only)."""
    from memory_pipelines.core import policy, policy_model
    from memory_pipelines.models.embedder import get_embedder
    from memory_pipelines.models.local import LocalBackend

    emb = get_embedder()
    if fit:
        readings = [DATA / "policy/readings/asof.jsonl", DATA / "policy/readings/patterns.jsonl"]
        model = policy_model.refit(readings, policy_model.MODEL_PATH, emb.embed)
        click.echo(
            f"wrote {policy_model.MODEL_PATH} (trained on {', '.join(model.model.trained_on)})"
        )
        return
    local, embed = LocalBackend(emb), None if rules_only else emb.embed
    reports = {
        path.stem: policy.evaluate(_jsonl(path), similarity=local.similarity, embed=embed)
        for path in _case_sets(files, DATA / "policy")
    }
    _emit(_per_set(reports), out)


@eval_group.command("extraction")
@click.option(
    "--data",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=DATA / "locomo/locomo_dev.json",
    show_default=True,
    help="LoCoMo conversations whose observations are scored.",
)
@click.option(
    "--cases",
    "files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Hand-written chats with the items each must give; repeat for several. Default:"
    " every *.jsonl set of benchmarks/data/extraction, each scored on its own.",
)
@click.option("--cases-only", is_flag=True, help="Score the case sets only, not LoCoMo.")
@click.option(
    "--conversation",
    "conversations",
    multiple=True,
    help="Only this LoCoMo conversation (a sample id such as conv-26); repeat for several.",
)
@backend_option
@out_option
def eval_extraction(
    data: Path,
    files: tuple[Path, ...],
    cases_only: bool,
    conversations: tuple[str, ...],
    backend: str,
    out: Path | None,
) -> None:
    """Extraction: coverage and precision on the hand-written cases, and on LoCoMo the
    coverage of its observations, precision (items that say what an observation of their
    turns says), the older precision proxy and items per 100 turns, for the conversations
    the rules were tuned on and the held-out ones apart."""
    from memory_pipelines.evals import extraction_cases
    from memory_pipelines.evals.extraction import evaluate
    from memory_pipelines.models.base import Models
    from memory_pipelines.models.embedder import get_embedder
    from memory_pipelines.models.factory import make_backend
    from memory_pipelines.store.db import get_database

    emb = get_embedder()
    models, db = Models(make_backend(backend, emb)), get_database()
    reports = {
        path.stem: extraction_cases.evaluate(db, models, emb, path, _jsonl(path))
        for path in _case_sets(files, DATA / "extraction")
    }
    cases = _per_set(reports, ("coverage", "precision"))
    report = (
        {"cases": cases}
        if cases_only
        else {
            **evaluate(db, models, emb, data, only=conversations),
            "cases": cases,
        }
    )
    _emit(report, out)


@eval_group.command("locomo")
@click.option(
    "--data",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=DATA / "locomo/locomo_dev.json",
    show_default=True,
)
@click.option("--reuse", is_flag=True, help="Keep stores already built by an earlier run.")
@click.option(
    "--conversation",
    "conversations",
    multiple=True,
    help="Only this conversation (a sample id such as conv-26); repeat for several.",
)
@out_option
def eval_locomo(data: Path, reuse: bool, conversations: tuple[str, ...], out: Path | None) -> None:
    """LoCoMo retrieval: fresh store per conversation, full pipeline through Dagster, each
    question to the public search API, hits flattened to turns, scored against evidence."""
    import sys

    from memory_pipelines.evals.locomo import evaluate
    from memory_pipelines.models.embedder import get_embedder
    from memory_pipelines.store.db import get_database

    def log(msg: str) -> None:
        click.echo(msg, err=True)

    try:
        report = evaluate(
            get_database(), get_embedder(), data, reuse=reuse, log=log, only=conversations
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    _emit(report, out)
    h = report["headline"]
    print(
        f"LoCoMo categories 1-4: R@10 {h['recall@10']} MRR {h['mrr']} "
        f"session R@10 {h['session_recall@10']} (n={h['n']}); "
        f"multi-hop R@10 {report['by_category']['1'].get('recall@10')}; "
        f"latency p95 {report['latency_ms']['p95']} ms",
        file=sys.stderr,
    )
