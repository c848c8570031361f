"""SIGTERM (a logout, `kill`, a service manager) stops the window cleanly: no crash report next.

The window runs as a process on a custom network nobody serves (no devnet child); it is sent
the signal once it runs, and must close as if the user had closed it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from explorer.diagnostics import log as diagnostics

REPO = Path(__file__).resolve().parents[2]
SETUP = """
from explorer.services.network_forms import NetworkForm
from explorer.settings.store import Settings
from explorer.viewmodels.networks import NetworksViewModel

settings, _ = Settings.for_app()
form = NetworkForm(name="Mine", url="http://127.0.0.1:9", chain_id="31", api_key="k3y" * 8)
assert NetworksViewModel(settings).save(form) == {}
settings.set_current_network("custom:Mine")
settings.save()
"""
START_SECONDS = 120.0


def environment(home: Path) -> dict[str, str]:
    """Return a headless environment whose settings, data, cache and keyring are home's."""
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["sigterm", "sighup"])
def test_a_stop_signal_closes_the_window_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    """The signal closes the window (exit 0), the running marker goes: nothing is offered."""
    env = environment(tmp_path)
    subprocess.run([sys.executable, "-c", SETUP], env=env, cwd=REPO, check=True, timeout=120)
    log_file = tmp_path / "log" / diagnostics.LOG_NAME
    marker = log_file.parent / diagnostics.RUNNING_MARKER
    window = subprocess.Popen(
        [sys.executable, "-m", "explorer", "--log-file", str(log_file)],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not marker.exists() and window.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert marker.exists(), "the window did not start"
        time.sleep(1.0)  # the session opens, its chain check starts
        window.send_signal(stop)
        _out, err = window.communicate(timeout=60)
    finally:
        if window.poll() is None:
            window.kill()
            window.wait()
    assert window.returncode == 0, err.decode()
    assert not marker.exists()  # what the next start takes for a crash
    assert "Traceback" not in err.decode()
