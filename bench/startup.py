"""Benchmark start-up: first painted frame against a bare PySide6 window, first runs, sizes.

Prints, from source and (when built) frozen:
- the time from process start to the first painted frame, median of N runs, and its ratio to a
  bare PySide6 window measured in the same run (goal: at most 2x);
- the time until the whole window is up (`--smoke-test` exits);
- the first run with an empty devnet cache: process start until the home page lists blocks
  (goals: 10 s from source, 3 s for the package, which ships the snapshot);
- the sizes of the one-folder build and of the installers in packaging/dist.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def environment(cache: Path | None = None) -> dict[str, str]:
    """Return an environment with fresh settings and logs (and a devnet cache, if given)."""
    home = Path(tempfile.mkdtemp(prefix="explorer-bench-"))
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
    }
    if cache is not None:
        env["EXPLORER_DEVNET_CACHE"] = str(cache)
    return env


def timed(command: list[str], marks: tuple[str, ...], env: dict[str, str]) -> dict[str, float]:
    """Run a command; return the seconds until each mark appeared on stdout, and until exit."""
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
        process.wait()
    seen["exit"] = time.perf_counter() - began
    if process.returncode:
        raise RuntimeError(f"{command[0]} exited with {process.returncode}")
    return seen


def median_of(runs: int, command: list[str], mark: str) -> tuple[float, float]:
    """Return the medians of (time to mark, time to exit) over runs."""
    samples = [timed(command, (mark,), environment()) for _ in range(runs)]
    return (
        statistics.median(sample.get(mark, float("nan")) for sample in samples),
        statistics.median(sample["exit"] for sample in samples),
    )


def first_frames(runs: int) -> None:
    """Print the first-frame times of the bare window, the source and the frozen app."""
    bare, _ = median_of(runs, [sys.executable, "-c", BARE_WINDOW], FIRST_FRAME)
    print(f"bare PySide6 window: first frame {bare:.3f} s (median of {runs})")
    for name, executable in (("source", SOURCE), ("frozen", FROZEN)):
        if not executable.exists():
            print(f"{name}: {executable} not found (make package builds it)")
            continue
        command = [str(executable), "--smoke-test", "--first-frame-modules", os.devnull]
        frame, whole = median_of(runs, command, FIRST_FRAME)
        print(
            f"{name}: first frame {frame:.3f} s = {frame / bare:.2f}x the bare window (goal 2x); "
            f"whole window up and closed {whole:.3f} s = {whole / bare:.2f}x"
        )


def first_run(name: str, executable: Path, goal: float) -> None:
    """Print how long the first start with an empty devnet cache takes to list blocks."""
    if not executable.exists():
        print(f"first run, {name}: {executable} not found")
        return
    with tempfile.TemporaryDirectory(prefix="explorer-empty-cache-") as cache:
        mark = "home page shows blocks"
        seen = timed([str(executable), "--until-home"], (mark,), environment(Path(cache)))
    if mark in seen:
        verdict = "met" if seen[mark] <= goal else f"missed by {seen[mark] - goal:.1f} s"
        took = f"blocks after {seen[mark]:.1f} s (goal {goal:.0f} s: {verdict})"
        print(f"first run, {name}, empty cache: {took}")
    else:
        print(f"first run, {name}: the home page never listed blocks")


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
    args = parser.parse_args()
    first_frames(args.runs)
    if not args.skip_first_run:
        first_run("source", SOURCE, 10.0)
        first_run("package", args.installed or FROZEN, 3.0)
    sizes()


if __name__ == "__main__":
    main()
