"""Write benchmarks/data/judge/judge_patterns.jsonl: every case the judge's hand-written tests
ask about, labelled by the whole judge's answer with the rules' choice in place of the learned
chooser's, so the chooser (core/judge_model.py) is fitted on the patterns the tests pin down as
well as on the written case sets. A test the rules alone fail is one the chooser passes: its
cases are left out. Run it again when a judge test is added, then refit:

    .venv/bin/python benchmarks/judge_patterns.py
    .venv/bin/memory-pipelines eval judge --fit
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks/data/judge/judge_patterns.jsonl"


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    # this folder holds http.py, which would hide the standard library's http from the tests
    sys.path[0] = str(ROOT)
    import pytest

    import memory_pipelines.core.judge as judge
    from memory_pipelines.core.judge_types import JudgeDecision, JudgeItem

    cases: dict[str, tuple[dict, set[str]]] = {}  # a case, and the tests that asked it
    seen = _Tests()

    decide = judge.decide

    def rules_only(
        candidate: JudgeItem, existing: list[JudgeItem], cand_vec, existing_vecs, embed=None
    ) -> JudgeDecision:
        # the whole decision (the speaker set aside, names kept apart, the past kept) with the
        # rules' choice in place of the learned chooser's
        d = decide(candidate, existing, cand_vec, existing_vecs, embed)
        if not existing:
            return d
        stored = [
            {"id": f"m{i}", **_said(x), "valid_from": x.valid_from}
            for i, x in enumerate(existing, 1)
        ]
        case = {
            "candidate": _said(candidate),
            **({"speaker": candidate.said_by} if candidate.said_by else {}),
            "existing": stored,
            "label": d.action,
            "target": None if d.target is None else stored[d.target]["id"],
        }
        cases.setdefault(json.dumps(case, sort_keys=True), (case, set()))[1].add(seen.current)
        return d

    judge.choose = lambda rules, rows, options: rules
    judge.decide = rules_only  # the tests import decide after this, so they call the rules
    # test_judge_model.py scores whole case sets through the chooser: no pattern of the rules
    tests = sorted(
        str(p) for p in (ROOT / "tests").glob("test_judge_*.py") if p.name != "test_judge_model.py"
    )
    code = pytest.main(["-q", "-p", "no:cacheprovider", "--runxfail", *tests], plugins=[seen])
    if code not in (0, 1):
        sys.exit(f"the judge's tests did not run (exit {code}); nothing written")
    # A test the rules alone fail is one the chooser passes: its cases are not the rules'.
    kept = [case for case, asked in cases.values() if asked - seen.failed]
    with OUT.open("w", encoding="utf-8") as fh:
        for n, case in enumerate(kept, 1):
            fh.write(json.dumps({"id": f"jp{n:03d}", **case}) + "\n")
    print(
        f"{len(kept)} cases from {len(tests)} test files written to {OUT}; "
        f"{len(cases) - len(kept)} left out, asked only by the {len(seen.failed)} tests the "
        "rules alone fail (the learned chooser passes them)"
    )


def _said(item) -> dict:  # noqa: ANN001 (a JudgeItem)
    """An item as a case writes it: confidence and origin only when not the defaults a case
    may leave out (judge_eval.case_item: a user's, confidence 5)."""
    out = {"category": item.category, "context": item.context}
    if item.confidence != 5:
        out["confidence"] = item.confidence
    if item.origin != "user":
        out["origin"] = item.origin
    return out


class _Tests:
    """A pytest plugin: the test running now, and the tests that failed."""

    def __init__(self) -> None:
        self.current = ""
        self.failed: set[str] = set()

    def pytest_runtest_setup(self, item) -> None:  # noqa: ANN001 (pytest's Item)
        self.current = item.nodeid

    def pytest_runtest_logreport(self, report) -> None:  # noqa: ANN001 (pytest's TestReport)
        if report.failed:
            self.failed.add(report.nodeid)


if __name__ == "__main__":
    main()
