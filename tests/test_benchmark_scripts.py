"""Every benchmark script starts as the README runs it (`python benchmarks/X.py`): a file of
that folder named like a standard-library module (benchmarks/http.py) must not shadow it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p for p in (REPO / "benchmarks").glob("*.py") if p.name != "common.py")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_benchmark_script_starts(script: Path) -> None:
    res = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, cwd=REPO,
        timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    assert "usage" in res.stdout.lower()
