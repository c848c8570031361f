"""The packages users install: build them with PyInstaller, validate them, start them installed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from explorer.devnet.process import CACHE_VARIABLE, default_cache_dir

REPO = Path(__file__).resolve().parents[2]
BUILT = "packaging: dist/explorer built and smoke-tested"
INSTALLED = "packaging: installers validated and started from where they install"

pytestmark = pytest.mark.package  # minutes of building: `make check` leaves these out


@pytest.mark.timeout(2400)
def test_make_package_builds_validates_and_installs_both_installers() -> None:
    """Build, validate, install and start both installers with `make package`.

    The folder (frozen runs compared with the source), the .deb and the .tar.gz are checked by
    lintian, desktop-file-validate and appstreamcli where installed, then installed into
    temporary roots and started from there (window, devnet child, rpc, report, logs with an
    empty devnet cache); any failure or difference fails the build.
    """
    env = {**os.environ, CACHE_VARIABLE: str(default_cache_dir())}  # the tests' warm snapshot
    run = subprocess.run(
        ["make", "-C", str(REPO), "package"],
        env=env,
        capture_output=True,
        text=True,
        timeout=2350,
        check=False,
    )
    said = run.stdout + run.stderr
    assert run.returncode == 0, said[-6000:]
    assert BUILT in run.stdout, said[-6000:]
    assert "screenshots in" in run.stdout, said[-6000:]
    assert "match the source run" in run.stdout, said[-6000:]
    assert "packaging: installers built" in run.stdout, said[-6000:]
    assert INSTALLED in run.stdout, said[-6000:]
    goals = "packaging: size goals met" in run.stdout or "SKIPPED size goals" in run.stdout
    assert goals, said[-6000:]
    assert "deb: window, devnet child ready" in run.stdout, said[-6000:]
    assert "tar.gz: window, devnet child ready" in run.stdout, said[-6000:]
    for checker in ("desktop-file-validate", "appstreamcli", "lintian"):
        assert f"{checker} passed" in run.stdout or f"SKIPPED {checker}" in run.stdout, said[-6000:]
    # Depends: what the Qt plugins load (issue 19 §7), refused on a root without libxcb-cursor0
    assert "dpkg refuses the .deb for want of it alone" in run.stdout, said[-6000:]
    depends = run.stdout.split("Depends holds what the Qt plugins load: ", 1)[-1]
    assert "libxcb-cursor0" in depends.splitlines()[0], said[-6000:]
    started_without = "the window does not start on X11" in run.stdout
    assert started_without or "SKIPPED the start without libxcb-cursor" in run.stdout, said[-6000:]
