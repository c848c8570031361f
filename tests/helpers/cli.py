"""The command line as a user runs it: `explorer ARGS` as a process from the repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def explorer(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `explorer ARGS` as a process from the repository."""
    return subprocess.run(
        [sys.executable, "-m", "explorer", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=dict(os.environ),
        timeout=120,
    )


def report(devnet: Any, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `explorer report` with the devnet's URL; the key must appear nowhere."""
    done = explorer("report", *args, "--endpoint", devnet.url("testnet"))
    assert devnet.key not in done.stdout
    assert devnet.key not in done.stderr
    assert "Traceback" not in done.stderr
    return done


def explorer_history(key: str, data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m explorer history ARGS` with its own data folder; no key in the output."""
    done = subprocess.run(
        [sys.executable, "-m", "explorer", "history", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "XDG_DATA_HOME": str(data_dir), "EXPLORER_CACHE_DIR": str(data_dir)},
        timeout=300,
    )
    if key:
        assert key not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done
