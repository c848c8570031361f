"""No test touches the user's profile: HOME and every XDG folder point at a temporary home.

A pytest plugin. When the session configures, the real folders are noted, their explorer
entries recorded, and HOME and the XDG folders pointed at a temporary home (each xdist worker
its own), so that everything a test or a process it starts writes lands there. The devnet's
history snapshots stay shared and warm: `EXPLORER_DEVNET_CACHE` is kept at the real cache
folder, the one place of the real profile the tests may write. When the session ends, the
controller fails it if anything appeared or changed under the real folders.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from explorer.devnet.process import CACHE_VARIABLE, default_cache_dir

#: The user's folders: HOME, and where the app, Qt and platformdirs keep settings, data, caches
#: and logs (with the default each takes when unset).
FOLDERS = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_STATE_HOME": ".local/state",
    "XDG_CACHE_HOME": ".cache",
}
#: What the app and its libraries keep in those folders: explorer's own folders, Qt's file
#: dialog state, a file keyring's store.
WATCHED = ("explorer", "QtProject.conf", "python_keyring")
#: The real folders, handed from the controller to its xdist workers.
REAL_VARIABLE = "EXPLORER_TEST_REAL_PROFILE"

Snapshot = dict[str, tuple[int, int]]


def real_folders(environ: dict[str, str] | os._Environ[str]) -> dict[str, str]:
    """Return the user's real HOME and XDG folders as the environment names them."""
    home = environ.get("HOME") or str(Path.home())
    folders = {"HOME": home}
    for name, default in FOLDERS.items():
        folders[name] = environ.get(name) or str(Path(home) / default)
    return folders


def watched_paths(folders: dict[str, str]) -> list[Path]:
    """Return the entries of the real folders that tests must leave as they were."""
    return [Path(folders[name]) / entry for name in FOLDERS for entry in WATCHED]


def snapshot(paths: list[Path], shared: Path) -> Snapshot:
    """Return every file under paths with its size and modification time (shared left out)."""
    found: Snapshot = {}
    for root in paths:
        files = [root] if root.is_file() else root.rglob("*") if root.is_dir() else []
        for path in files:
            if path.is_file() and not path.is_relative_to(shared):
                stat = path.stat()
                found[str(path)] = (stat.st_size, stat.st_mtime_ns)
    return found


def touched(before: Snapshot, after: Snapshot) -> list[str]:
    """Return the files that appeared or changed between two snapshots, sorted."""
    return sorted(path for path, facts in after.items() if before.get(path) != facts)


def point_at(home: Path) -> None:
    """Point HOME, the XDG folders (a private runtime folder too) and QSettings at home."""
    os.environ["HOME"] = str(home)
    for name, default in FOLDERS.items():
        os.environ[name] = str(home / default)
    runtime = home / "runtime"
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.environ["XDG_RUNTIME_DIR"] = str(runtime)  # else Qt makes one in /tmp
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, os.environ["XDG_CONFIG_HOME"])


class Profile:
    """The real folders, what was in them at the start, and the temporary home used instead."""

    def __init__(self, folders: dict[str, str], shared: Path) -> None:
        self.folders = folders
        self.shared = shared
        self.before = snapshot(watched_paths(folders), shared)
        self.home = Path(tempfile.mkdtemp(prefix="explorer-test-home-"))

    def touched(self) -> list[str]:
        """Return the files of the real profile that appeared or changed since the start."""
        return touched(self.before, snapshot(watched_paths(self.folders), self.shared))


_PROFILE = pytest.StashKey[Profile]()


def pytest_configure(config: pytest.Config) -> None:
    """Note the real folders, keep the devnet cache warm, point every folder at a temporary home."""
    handed = os.environ.get(REAL_VARIABLE)
    folders = json.loads(handed) if handed else real_folders(os.environ)
    os.environ[REAL_VARIABLE] = json.dumps(folders)
    os.environ.setdefault(CACHE_VARIABLE, str(default_cache_dir()))
    profile = Profile(folders, Path(os.environ[CACHE_VARIABLE]))
    config.stash[_PROFILE] = profile
    point_at(profile.home)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the session when a file appeared or changed in the user's real profile."""
    profile = session.config.stash.get(_PROFILE, None)
    if profile is None or hasattr(session.config, "workerinput"):
        return  # an xdist worker: its controller checks once, after every worker
    written = profile.touched()
    if not written:
        return
    lines = "\n".join(f"  {path}" for path in written)
    message = f"tests wrote to the user's real profile (never theirs to touch):\n{lines}"
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(message, red=True, bold=True)
    if session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the temporary home."""
    profile = config.stash.get(_PROFILE, None)
    if profile is not None:
        shutil.rmtree(profile.home, ignore_errors=True)
