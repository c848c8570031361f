"""A new user's first contact: current README pictures, the user's profile left alone, no litter.

Screenshots change nothing of the user's, and a first start and a clean close leave nothing in
the temporary folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest
from PySide6.QtGui import QImage

from tests.helpers.devnet import timer_paused

REPO = Path(__file__).resolve().parents[2]
EXPLORER = [sys.executable, "-m", "explorer"]
#: The README's pictures and the screenshots they are made from (`make readme-screenshots`).
README_SHOTS = {
    "docs/images/home.png": "home-light.png",
    "docs/images/transaction.png": ("tx-success-light.png"),
}
TILE = 16
TILE_CHANGED = 0.01  # a tile differs when its pixels differ by 1 % on average
#: Live values (ages, the head, request counts) differ between two runs in about 1 % of the
#: tiles; a moved or added row or column changes far more.
MOST_TILES_CHANGED = 0.05


def profile_environment(home: Path, temp: Path) -> dict[str, str]:
    """Return an environment whose user folders are under home and temp folder is temp."""
    temp.mkdir(parents=True, exist_ok=True)
    runtime = home / "runtime"
    runtime.mkdir(parents=True, exist_ok=True, mode=0o700)
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "TMPDIR": str(temp),
        "XDG_RUNTIME_DIR": str(runtime),  # else Qt makes one in /tmp
        **{name: str(home / name.lower()) for name in (
            "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"
        )},
    }  # fmt: skip


def tree(folder: Path) -> dict[str, bytes]:
    """Return every file under folder with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@dataclass(frozen=True)
class Shots:
    """One `--devnet --screenshot` run on a user's profile."""

    folder: Path
    before: dict[str, bytes]
    after: dict[str, bytes]
    temp: Path


#: The whole tour (~200 pictures) on a busy machine: minutes, over the default test timeout.
TOUR_TIMEOUT = 900


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Shots:
    """Take every screenshot once, as a user whose profile has settings, tabs and a log."""
    root = tmp_path_factory.mktemp("first-contact")
    home = root / "home"
    env = profile_environment(home, root / "tmp")
    user_files = {
        "xdg_config_home/explorer/explorer.conf": "[ui]\nopen_tabs=block/5\nwindow_geometry=x\n",
        "xdg_data_home/explorer/labels/labels.json": '{"labels": []}\n',
        "xdg_state_home/explorer/log/explorer.log": "an earlier run\n",
    }
    for name, text in user_files.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text)
    before = tree(home)
    folder = root / "shots"
    with timer_paused():  # minutes, not a hang (no stacks at 280 s): bounded by its timeout
        run = subprocess.run(
            [*EXPLORER, "--devnet", "--screenshot", str(folder)],
            env=env,
            capture_output=True,
            text=True,
            timeout=TOUR_TIMEOUT,
        )
    assert run.returncode == 0, run.stderr[-2000:]
    return Shots(folder, before, tree(home), root / "tmp")


@pytest.mark.tour
@pytest.mark.timeout(TOUR_TIMEOUT + 60)  # the tour, in the first test's set-up
def test_screenshots_change_nothing_of_the_user_s(shots: Shots) -> None:
    assert shots.after == shots.before  # no settings, tabs, geometry, log, caches or data
    assert list(shots.temp.iterdir()) == []


def scan_line(image: QImage, y: int, width: int) -> bytes:
    """Return the grey values of one row of a picture."""
    return cast(memoryview, image.constScanLine(y)).tobytes()[:width]


def changed_tiles(made: Path, shown: Path) -> float:
    """Return the share of 16-px tiles that differ between two pictures of the same size."""
    images = [
        QImage(str(path)).convertToFormat(QImage.Format.Format_Grayscale8) for path in (made, shown)
    ]
    width, height = images[0].width(), images[0].height()
    rows = [[scan_line(image, y, width) for y in range(height)] for image in images]
    changed = total = 0
    for top in range(0, height, TILE):
        for left in range(0, width, TILE):
            difference = pixels = 0
            for y in range(top, min(top + TILE, height)):
                a, b = rows[0][y][left : left + TILE], rows[1][y][left : left + TILE]
                difference += sum(abs(p - q) for p, q in zip(a, b, strict=True))
                pixels += len(a)
            total += 1
            changed += difference / pixels / 255 > TILE_CHANGED
    return changed / total


@pytest.mark.tour
@pytest.mark.timeout(TOUR_TIMEOUT + 60)  # the tour, in the first test's set-up
def test_the_readme_shows_the_current_home_and_transaction_pages(shots: Shots) -> None:
    readme = (REPO / "README.md").read_text()
    for shown, made in README_SHOTS.items():
        assert re.search(rf"!\[[^\]]+\]\({re.escape(shown)}\)", readme), f"README lacks {shown}"
        made_image, shown_image = QImage(str(shots.folder / made)), QImage(str(REPO / shown))
        assert made_image.size() == shown_image.size(), f"{shown}: `make readme-screenshots`"
        share = changed_tiles(shots.folder / made, REPO / shown)
        assert share < MOST_TILES_CHANGED, (
            f"{shown} is stale ({share:.0%} changed): `make readme-screenshots`"
        )


def test_the_readme_check_sees_another_page() -> None:
    home, transaction = (REPO / shown for shown in README_SHOTS)
    assert changed_tiles(home, transaction) > MOST_TILES_CHANGED


#: A first start waits for the history its devnet builds at a low priority: on a busy machine
#: (other work at normal priority), minutes.
FIRST_START_TIMEOUT = 1200


@pytest.mark.timeout(FIRST_START_TIMEOUT + 60)
def test_a_first_start_and_a_clean_close_leave_nothing_in_the_temp_folder(
    tmp_path: Path,
) -> None:
    env = profile_environment(tmp_path / "home", tmp_path / "tmp")
    env["EXPLORER_DEVNET_CACHE"] = str(tmp_path / "empty-cache")  # a first start
    run = subprocess.run(
        [*EXPLORER, "--until-home"],
        env=env,
        capture_output=True,
        text=True,
        timeout=FIRST_START_TIMEOUT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "home page shows blocks" in run.stdout
    assert list((tmp_path / "tmp").iterdir()) == []
