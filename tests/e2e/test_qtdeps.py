"""`make run` on a fresh desktop: the X11 plugin's missing libraries named with the install line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.app.qtdeps import PLUGIN_VARIABLE, debian_package, xcb_plugin

REPO = Path(__file__).resolve().parents[2]
CHECK = [sys.executable, "-m", "explorer.app.qtdeps"]


@pytest.mark.parametrize(
    ("soname", "package"),
    [
        ("libxcb-cursor.so.0", "libxcb-cursor0"),
        ("libxcb-icccm.so.4", "libxcb-icccm4"),
        ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
        ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
        ("libX11-xcb.so.1", "libx11-xcb1"),
        ("libdbus-1.so.3", "libdbus-1-3"),
        ("libglib-2.0.so.0", "libglib2.0-0"),
        ("libEGL.so.1", "libegl1"),
    ],
)
def test_a_library_is_named_by_its_debian_package(soname: str, package: str) -> None:
    assert debian_package(soname) == package


def environment(**extra: str) -> dict[str, str]:
    """Return the environment of a desktop start (the X11 plugin), with extra variables."""
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    return {**env, **extra}


def install_line(stderr: str) -> str:
    """Return the advice's install line (this machine may lack other libraries too)."""
    return next(
        line for line in stderr.splitlines() if line.startswith("    sudo apt-get install ")
    )


@pytest.fixture
def doctored(tmp_path: Path) -> Path:
    """Return a copy of the X11 plugin that needs a library no system has."""
    if shutil.which("patchelf") is None:
        pytest.skip("patchelf makes the doctored plugin")
    plugin = xcb_plugin()
    assert plugin is not None
    copy = tmp_path / plugin.name
    shutil.copy(plugin, copy)
    rpath = subprocess.run(
        ["patchelf", "--print-rpath", str(plugin)], capture_output=True, text=True, check=True
    ).stdout.strip()  # $ORIGIN-relative: point it at the real plugin's folder
    for change in (
        ["--set-rpath", rpath.replace("$ORIGIN", str(plugin.parent))],
        ["--add-needed", "libexplorer-gone.so.7"],
    ):
        subprocess.run(["patchelf", *change, str(copy)], check=True)
    return copy


def test_a_missing_library_stops_make_run_with_the_install_line(doctored: Path) -> None:
    env = environment(**{PLUGIN_VARIABLE: str(doctored)})
    run = subprocess.run(
        ["make", "--no-print-directory", "run", "ARGS=--smoke-test"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode != 0
    assert "libexplorer-gone.so.7" in run.stderr
    assert "libexplorer-gone7" in install_line(run.stderr)
    if os.geteuid() == 0 and shutil.which("apt-get"):  # it tried, failed, and says why first
        failed = run.stderr.index("explorer: apt-get could not install them: ")
        assert "libexplorer-gone7" in run.stderr[failed:].splitlines()[0]
        assert failed < run.stderr.index("sudo apt-get install")
    assert "window 'Rootstock Explorer' opened" not in run.stdout  # Qt was never started
    healthy = subprocess.run(CHECK, env=environment(), capture_output=True, text=True)
    assert healthy.returncode == 0, healthy.stderr  # this machine has them all


def test_the_explorer_run_directly_checks_too(doctored: Path, tmp_path: Path) -> None:
    """`.venv/bin/explorer`, without `make run`: named with the install line, Qt never started."""
    command = [str(Path(sys.executable).with_name("explorer")), "--smoke-test"]
    cache = str(tmp_path / "cache")
    env = environment(**{PLUGIN_VARIABLE: str(doctored), "XDG_CACHE_HOME": cache})
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert "libexplorer-gone7" in install_line(run.stderr)
    assert "first frame" not in run.stdout
    assert "window 'Rootstock Explorer' opened" not in run.stdout
    env = environment(QT_QPA_PLATFORM="offscreen", XDG_CACHE_HOME=cache)
    fine = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert fine.returncode == 0, fine.stderr  # another platform: no X11 plugin to check


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="hiding a system library needs a mount namespace (root)",
)
def test_a_hidden_system_library_is_caught_before_qt_aborts(tmp_path: Path) -> None:
    library = Path("/lib/x86_64-linux-gnu/libxcb-cursor.so.0")
    if not library.exists():
        pytest.skip(f"{library} is not installed here")
    empty = tmp_path / "empty"
    empty.touch()
    qt = "from PySide6.QtWidgets import QApplication; QApplication([])"
    script = (
        f"mount --bind {empty} {library} && "
        f"{{ {' '.join(CHECK)}; echo check=$?; {sys.executable} -c '{qt}'; echo qt=$?; }}"
    )
    run = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        env=environment(QT_QPA_PLATFORM="xcb"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "check=1" in run.stdout
    assert "    sudo apt-get install libxcb-cursor0\n" in run.stderr
    assert "qt=0" not in run.stdout  # without the check, Qt itself aborts
