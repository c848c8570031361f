"""Benchmark start-up: first painted frame against a bare PySide6 window, first runs, sizes.

Prints, from source and (when built) frozen:
- the time from process start to the first painted frame, median of N runs, and its ratio to a
  bare PySide6 window measured in the same run (goal: at most 2x);
- the time until the whole window is up (`--smoke-test` exits);
- the first run with an empty profile and an empty devnet cache: process start until the home
  page lists blocks (goals: 10 s from source, where the devnet serves its shipped newest blocks
  while it builds the rest, and 3 s for the package, which ships the whole snapshot), on the
  machine as it is and with BUSY processes spinning beside it (a busy machine);
- later starts from source: with the snapshot cached, and with the chain the devnet kept;
- the sizes of the one-folder build and of the installers in packaging/dist.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from _machine import busy_machine  # bench/_machine.py, beside this script

BUSY = 2  # processes spinning beside the app for the busy first run

REPO = Path(__file__).resolve().parents[1]
DIST = REPO / "packaging" / "dist"
FROZEN = DIST / "explorer" / "explorer"
SOURCE = Path(sys.executable).with_name("explorer")
FIRST_FRAME = "first frame painted"
BARE_WINDOW = f"""
import sys
from PySide6.QtWidgets import QApplication, QMainWindow
class Window(QMainWindow):
    def paintEvent(self, event):
        super().paintEvent(event)
        print({FIRST_FRAME!r}, flush=True)
        QApplication.exit(0)
app = QApplication(sys.argv[:1])
window = Window()
window.setWindowTitle("bare")
window.resize(1200, 800)
window.show()
app.exec()
"""


@contextlib.contextmanager
def environment(devnet_cache: bool = False) -> Iterator[dict[str, str]]:
    """Yield an environment with a fresh profile (settings, data, logs), removed after.

    With devnet_cache, an empty devnet snapshot cache of its own too.
    """
    with tempfile.TemporaryDirectory(prefix="explorer-bench-") as folder:
        home = Path(folder)
        env = {
            **os.environ,
            "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_STATE_HOME": str(home / "state"),
            "XDG_DATA_HOME": str(home / "data"),  # the devnet's kept chain
        }
        if devnet_cache:
            env["EXPLORER_DEVNET_CACHE"] = str(home / "devnet-cache")
        yield env


def timed(
    command: list[str],
    marks: tuple[str, ...],
    env: dict[str, str],
    lines: dict[str, str] | None = None,
) -> dict[str, float]:
    """Run a command; return the seconds until each mark appeared on stdout, and until exit.

    lines, when given, receives each mark's whole line.
    """
    seen: dict[str, float] = {}
    began = time.perf_counter()
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            for mark in marks:
                if mark in line and mark not in seen:
                    seen[mark] = time.perf_counter() - began
                    if lines is not None:
                        lines[mark] = line.strip()
        process.wait()
    seen["exit"] = time.perf_counter() - began
    if process.returncode:
        raise RuntimeError(f"{command[0]} exited with {process.returncode}")
    return seen


def sample(command: list[str], mark: str) -> dict[str, float]:
    """Return one run's times to mark and to exit, on a fresh profile."""
    with environment() as env:
        return timed(command, (mark,), env)


def first_frames(runs: int) -> None:
    """Print the first-frame times of the bare window, the source and the frozen app.

    The three run in turn, round after round, and each ratio is taken within a round: the
    load of a shared machine changes over a minute, and would tilt ratios of separate series.
    """
    commands = {"bare": [sys.executable, "-c", BARE_WINDOW]}
    for name, executable in (("source", SOURCE), ("frozen", FROZEN)):
        if executable.exists():
            commands[name] = [str(executable), "--smoke-test", "--first-frame-modules", os.devnull]
        else:
            print(f"{name}: {executable} not found (make package builds it)")
    rounds = [
        {name: sample(command, FIRST_FRAME) for name, command in commands.items()}
        for _ in range(runs)
    ]
    bare = statistics.median(r["bare"][FIRST_FRAME] for r in rounds)
    print(f"bare PySide6 window: first frame {bare:.3f} s (median of {runs}, in turn with the app)")
    for name in [name for name in commands if name != "bare"]:
        frame = statistics.median(r[name][FIRST_FRAME] for r in rounds)
        ratio = statistics.median(r[name][FIRST_FRAME] / r["bare"][FIRST_FRAME] for r in rounds)
        whole = statistics.median(r[name]["exit"] for r in rounds)
        verdict = "met" if ratio <= 2 else f"missed by {ratio - 2:.2f}x"
        print(
            f"{name}: first frame {frame:.3f} s, {ratio:.2f}x the bare window's in the same round "
            f"(median; goal 2x: {verdict}); whole window up and closed {whole:.3f} s"
        )


HOME_MARK = "home page shows blocks"
CPU_USED = re.compile(r"used ([0-9.]+) s of CPU time")  # what --until-home says of its process


def verdict(seconds: float, goal: float) -> str:
    """Return 'met' or by how much the goal was missed."""
    return "met" if seconds <= goal else f"missed by {seconds - goal:.1f} s"


def first_run(name: str, executable: Path, goal: float, spinning: int = 0) -> None:
    """Print how long the first start with an empty devnet cache takes to list blocks."""
    if not executable.exists():
        print(f"first run, {name}: {executable} not found")
        return
    with environment(devnet_cache=True) as env, busy_machine(spinning, seconds=900):
        load = os.getloadavg()[0]
        said: dict[str, str] = {}
        seen = timed([str(executable), "--until-home"], (HOME_MARK,), env, said)
    beside = f"{spinning} busy processes beside it" if spinning else "nothing more beside it"
    where = f"{beside}, load average {load:.1f} on {os.cpu_count()} cores at the start"
    if HOME_MARK in seen:
        took, goal_text = seen[HOME_MARK], f"goal {goal:.0f} s: {verdict(seen[HOME_MARK], goal)}"
        cpu = CPU_USED.search(said[HOME_MARK])
        used = f"; the window's process used {cpu.group(1)} s of CPU time" if cpu else ""
        print(
            f"first run, {name}, empty profile and devnet cache ({where}): blocks after "
            f"{took:.1f} s ({goal_text}{used})"
        )
    else:
        print(f"first run, {name} ({where}): the home page never listed blocks")


def later_runs(runs: int) -> None:
    """Print how long later starts from source take to list blocks.

    Once with the seeded history's snapshot in the cache (built here first), then with the
    chain the devnet kept when the window was last closed.
    """
    with environment(devnet_cache=True) as env:
        prebuild = [str(SOURCE), "devnet", "--prebuild-only", "--network", "test"]
        subprocess.run(prebuild, env=env, check=True, capture_output=True)  # into its cache
        command = [str(SOURCE), "--until-home"]
        loaded = timed(command, (HOME_MARK,), env)[HOME_MARK]  # and the chain is kept
        kept = [timed(command, (HOME_MARK,), env)[HOME_MARK] for _ in range(runs)]
    print(
        f"later start, source: blocks after {loaded:.1f} s from the cached snapshot; "
        f"{statistics.median(kept):.1f} s from the kept chain (median of {runs})"
    )


def size(path: Path) -> str:
    """Return a file's or folder's size in MB."""
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files if not p.is_symlink())  # links: counted once
    return f"{total / 1e6:.1f} MB ({total / 2**20:.1f} MiB)"


def sizes() -> None:
    """Print the sizes of the one-folder build and the installers."""
    folder = DIST / "explorer"
    print(f"one-folder build: {size(folder) if folder.exists() else 'not built'} (goal 150 MB)")
    for installer in sorted([*DIST.glob("*.deb"), *DIST.glob("*.tar.gz")]):
        print(f"installer {installer.name}: {size(installer)} (goal 70 MB)")


def main() -> None:
    """Run the benchmarks chosen on the command line (all by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per first-frame median")
    parser.add_argument("--installed", type=Path, help="an installed explorer to time too")
    parser.add_argument("--skip-first-run", action="store_true", help="skip the cold starts")
    parser.add_argument("--first-runs", type=int, default=3, help="cold starts of each kind")
    parser.add_argument(
        "--quick", action="store_true", help="one run of each from source (a smoke test)"
    )
    args = parser.parse_args()
    runs, first_runs = (1, 1) if args.quick else (args.runs, args.first_runs)
    first_frames(runs)
    if not args.skip_first_run:
        for spinning in (0, BUSY):
            for _ in range(first_runs):
                first_run("source", SOURCE, 10.0, spinning)
        if not args.quick:
            first_run("package", args.installed or FROZEN, 3.0)
            later_runs(3)
    sizes()


if __name__ == "__main__":
    main()
