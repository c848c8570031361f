"""Every bench starts and prints its goals in its quick mode, so that none can rot unseen.

The numbers of a quick run mean nothing (one round, small): `make bench` measures. Each bench
runs as `make bench` runs it, a script from the repository, with Qt headless.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCHES = sorted(path.name for path in (REPO / "bench").glob("[a-z]*.py"))
STALL_GOAL = "33 ms"  # two frames at 60 Hz: every bench that times a GUI-thread stall says so
WITHOUT_GOALS = {"connection.py", "devnet.py"}  # they measure for the record, against no goal


def test_every_bench_is_here() -> None:
    assert len(BENCHES) >= 11
    assert "support.py" in BENCHES
    assert "views.py" in BENCHES


@pytest.mark.slow
@pytest.mark.timeout(1500)
@pytest.mark.parametrize("bench", BENCHES)
def test_a_bench_runs_in_its_quick_mode(bench: str) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(
        [sys.executable, f"bench/{bench}", "--quick"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=1400,
    )
    assert run.returncode == 0, f"{bench} failed:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    assert "Traceback" not in run.stderr, run.stderr[-6000:]  # whole: pytest cuts its diff
    printed = run.stdout.lower()
    assert printed.strip(), f"{bench} printed nothing"
    if bench not in WITHOUT_GOALS:
        assert "goal" in printed, f"{bench} printed no goal:\n{run.stdout[-2000:]}"
    assert "< 50 ms" not in run.stdout  # the old stall goal ("50 ms wall" may be a time)
    if "stall" in printed:
        assert STALL_GOAL in run.stdout
