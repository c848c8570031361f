"""The tests run in a temporary home, and a session that writes to the user's profile fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
from PySide6.QtCore import QSettings

from explorer.devnet.process import CACHE_VARIABLE
from tests.helpers.profile import FOLDERS, REAL_VARIABLE

REPO = Path(__file__).resolve().parents[1]
#: A session of its own: the profile plugin, one test that writes where the app keeps its data.
CONFTEST = 'pytest_plugins = ["tests.helpers.profile"]\n'
WRITER = """
import os
from pathlib import Path

import platformdirs


def test_write() -> None:
    where = {where!r}
    folder = Path(platformdirs.user_data_dir("explorer")) if where == "app" else Path(where)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "labels.json").write_text("{{}}")
"""


def run_session(tmp_path: Path, where: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Run a session that writes labels where told, as a user whose home is tmp_path/user."""
    user = tmp_path / "user"
    session = tmp_path / "session"
    session.mkdir()
    (session / "conftest.py").write_text(CONFTEST)
    (session / "test_writer.py").write_text(WRITER.format(where=where))
    env = {k: v for k, v in os.environ.items() if k not in (*FOLDERS, REAL_VARIABLE)}
    env |= {"HOME": str(user), "PYTHONPATH": str(REPO), CACHE_VARIABLE: str(tmp_path / "cache")}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=session,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return run, user


def test_every_folder_of_the_profile_is_a_temporary_one() -> None:
    real = json.loads(os.environ[REAL_VARIABLE])
    home = Path(os.environ["HOME"])
    assert home != Path(real["HOME"])
    assert home.name.startswith("explorer-test-home-")
    for name in FOLDERS:
        assert Path(os.environ[name]).is_relative_to(home), name
    assert Path(platformdirs.user_data_dir("explorer")).is_relative_to(home)
    assert Path(QSettings("explorer", "explorer").fileName()).is_relative_to(home)


def test_a_session_that_writes_where_the_app_keeps_its_data_writes_in_the_temporary_home(
    tmp_path: Path,
) -> None:
    run, user = run_session(tmp_path, "app")
    assert run.returncode == 0, run.stdout + run.stderr
    assert not (user / ".local").exists()


def test_a_session_that_writes_to_the_real_profile_fails_and_names_the_file(
    tmp_path: Path,
) -> None:
    real_labels = tmp_path / "user" / ".local" / "share" / "explorer" / "labels"
    run, _user = run_session(tmp_path, str(real_labels))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 passed" in run.stdout
    assert "tests wrote to the user's real profile" in run.stdout
    assert str(real_labels / "labels.json") in run.stdout
