"""Write benchmarks/data/policy/policy_patterns.jsonl: every turn the save policy's hand-written
tests (tests/test_policy_*.py) pass to judge_turn (and through evaluate), labelled by the
rules' answer (the rules pass all those tests), so the learned model (core/policy_model.py) is
fitted on the patterns the tests pin down as well as on the written case sets. The rules'
reading of each turn (verdict, reason, sentence kinds) goes to readings/patterns.jsonl, beside
the as-of readings the model is fitted on. A turn the tests ask about twice with two answers
(a stub similarity that calls everything close, then far) is left out: a case holds no
similarity. Run it again when a policy test is added, then refit:

    .venv/bin/python benchmarks/policy_patterns.py
    .venv/bin/memory-pipelines eval policy --fit

With --learned it writes nothing and runs the same tests with the learned model forced on
(judge_turn given the embedder's embed), to count the hand-written saves the model would drop.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks/data/policy"
OUT = DATA / "policy_patterns.jsonl"
READINGS = DATA / "readings/patterns.jsonl"
SET = OUT.stem


def _tests() -> list[str]:
    return sorted(
        str(p)
        for p in (ROOT / "tests").glob("test_policy_*.py")
        if p.name != "test_policy_model.py"
    )


def main(argv: Sequence[str] = ()) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument(
        "--learned",
        action="store_true",
        help="write nothing; run the policy tests with the learned model forced on",
    )
    args = ap.parse_args(argv)
    # this folder holds http.py, which would hide the standard library's http from the tests
    sys.path[0] = str(ROOT)
    import pytest

    import memory_pipelines.core.policy as policy

    original = policy.judge_turn
    if args.learned:
        from memory_pipelines.models.embedder import get_embedder

        embed = get_embedder().embed

        def learned(text: str, role: str = "user", recent: Sequence[str] = (), *,
                    similarity: Any = None, **_: Any) -> Any:  # fmt: skip
            return original(text, role, recent, similarity=similarity, embed=embed)

        policy.judge_turn = learned
        sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "--runxfail", *_tests()]))

    seen: dict[tuple[str, str, tuple[str, ...]], tuple[dict, dict] | None] = {}

    def rules_only(
        text: str,
        role: str = "user",
        recent: Sequence[str] = (),
        *,
        similarity: policy.Similarity | None = None,
        embed: Any = None,
    ) -> policy.PolicyVerdict:
        verdict, kinds = policy._judge(text, role, recent, similarity)
        key = (text, role, tuple(recent))
        case = {
            "turn": {"role": role, "text": text},
            "recent": list(recent),
            "label": "save" if verdict.save else "skip",
            "category": verdict.category if verdict.save else None,
            "reason": verdict.reason,
        }
        reading = {"save": verdict.save, "reason": verdict.reason, "kinds": list(kinds)}
        if key not in seen:
            seen[key] = (case, reading)
        elif seen[key] is not None and seen[key] != (case, reading):
            seen[key] = None  # two answers for one turn: it depends on the stub similarity
        return verdict

    policy.judge_turn = rules_only  # the tests import it after this
    tests = _tests()
    code = pytest.main(["-q", "-p", "no:cacheprovider", "--runxfail", *tests])
    if code != 0:
        sys.exit(f"the policy's tests fail with the rules alone (exit {code}); nothing written")
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],  # noqa: S607 - git on PATH
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    kept = [v for v in seen.values() if v is not None]
    with OUT.open("w", encoding="utf-8") as cases, READINGS.open("w", encoding="utf-8") as reads:
        for n, (case, reading) in enumerate(kept, 1):
            cid = f"pp{n:03d}"
            cases.write(json.dumps({"id": cid, **case}) + "\n")
            reads.write(json.dumps({"set": SET, "id": cid, "commit": commit, **reading}) + "\n")
    dropped = len(seen) - len(kept)
    print(f"{len(kept)} cases ({dropped} left out) from {len(tests)} test files written to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
