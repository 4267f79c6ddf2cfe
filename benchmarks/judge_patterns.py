"""Write benchmarks/data/judge/judge_patterns.jsonl: every case the judge's hand-written tests
ask about, labelled by the rules' answer (the rules pass all those tests), so the learned
chooser (core/judge_model.py) is fitted on the patterns the tests pin down as well as on the
written case sets. Run it again when a judge test is added, then refit:

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

    cases: dict[str, dict] = {}

    def rules_only(
        candidate: JudgeItem, existing: list[JudgeItem], cand_vec, existing_vecs, embed=None
    ) -> JudgeDecision:
        if not existing:
            return JudgeDecision("create", None, "nothing stored nearby")
        c, es, pairs = judge.analyse_case(candidate, existing, cand_vec, existing_vecs)
        d = judge.rules_decide(candidate, existing, c, es, pairs, embed)
        stored = [
            {"id": f"m{i}", "category": x.category, "context": x.context,
             "valid_from": x.valid_from}
            for i, x in enumerate(existing, 1)
        ]  # fmt: skip
        case = {
            "candidate": {"category": candidate.category, "context": candidate.context},
            "existing": stored,
            "label": d.action,
            "target": None if d.target is None else stored[d.target]["id"],
        }
        cases[json.dumps(case, sort_keys=True)] = case
        return d

    judge.decide = rules_only  # the tests import decide after this, so they call the rules
    # test_judge_model.py scores whole case sets through the chooser: no pattern of the rules
    tests = sorted(
        str(p) for p in (ROOT / "tests").glob("test_judge_*.py") if p.name != "test_judge_model.py"
    )
    code = pytest.main(["-q", "-p", "no:cacheprovider", "--runxfail", *tests])
    if code != 0:
        sys.exit(f"the judge's tests fail with the rules alone (exit {code}); nothing written")
    with OUT.open("w", encoding="utf-8") as fh:
        for n, case in enumerate(cases.values(), 1):
            fh.write(json.dumps({"id": f"jp{n:03d}", **case}) + "\n")
    print(f"{len(cases)} cases from {len(tests)} test files written to {OUT}")


if __name__ == "__main__":
    main()
