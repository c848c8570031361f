"""The package users install: build it with PyInstaller and start it as they would."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from explorer.devnet.process import CACHE_VARIABLE, default_cache_dir

BUILD = Path(__file__).resolve().parents[2] / "packaging" / "build.sh"
DONE = "packaging: dist/explorer built and smoke-tested"


@pytest.mark.timeout(1200)
def test_frozen_build_starts_and_matches_the_installed_app() -> None:
    """The frozen build behaves as the installed `explorer` entry point.

    packaging/build.sh builds the folder, then runs the frozen executable (window, TLS, logs,
    report, every screenshot with the frozen devnet child) against the installed entry point
    doing the same; any difference fails the script.
    """
    env = {**os.environ, CACHE_VARIABLE: str(default_cache_dir())}  # the tests' warm snapshot
    run = subprocess.run(
        ["bash", str(BUILD)], env=env, capture_output=True, text=True, timeout=1150, check=False
    )
    said = run.stdout + run.stderr
    assert run.returncode == 0, said[-4000:]
    assert DONE in run.stdout, said[-4000:]
    assert "screenshots in" in run.stdout, said[-4000:]
    assert "match the source run" in run.stdout, said[-4000:]
