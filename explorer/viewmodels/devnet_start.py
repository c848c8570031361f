"""The local devnet's start as the window shows it: stage, blocks built, time left."""

from __future__ import annotations

import enum
import re
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from explorer.viewmodels.observable import qproperty

BLOCKS = re.compile(r"block ([\d,]+) of ([\d,]+)")
MIN_ETA_FRACTION = 0.02  # below this the rate says nothing yet


class StartState(enum.Enum):
    """Where the devnet's start is."""

    IDLE = "idle"
    STARTING = "starting"
    BUILDING = "building"
    READY = "ready"
    FAILED = "failed"


class DevnetStartViewModel(QObject):
    """Progress of the devnet child as it loads or builds its history.

    Signals:
        progress_changed(): state, stage, fraction, blocks or time left changed.
    """

    progress_changed = Signal()

    def __init__(self, cache_dir: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.cache_dir = cache_dir
        self._clock = clock
        self._state = StartState.IDLE
        self._stage = ""
        self._fraction = 0.0
        self._blocks = ""
        self._eta = ""
        self._building_since: tuple[float, float] | None = None  # (time, fraction) at start

    def _get_state(self) -> StartState:
        return self._state

    def _get_stage(self) -> str:
        return self._stage

    def _get_fraction(self) -> float:
        return self._fraction

    def _get_blocks(self) -> str:
        return self._blocks

    def _get_eta(self) -> str:
        return self._eta

    state = qproperty(_get_state, progress_changed)
    stage = qproperty(_get_stage, progress_changed)
    fraction = qproperty(_get_fraction, progress_changed)
    blocks = qproperty(_get_blocks, progress_changed)
    eta = qproperty(_get_eta, progress_changed)

    def start(self) -> None:
        """Note that the child was started: nothing is known yet."""
        self._building_since = None
        self._set(StartState.STARTING, "Starting the local devnet…", 0.0, "", "")

    def on_progress(self, network: str, stage: str, fraction: float) -> None:
        """Take one progress line of the child."""
        if "snapshot" in stage:
            self._set(StartState.STARTING, f"{stage.capitalize()}…", fraction, "", "")
            return
        now = self._clock()
        if self._building_since is None:
            self._building_since = (now, fraction)
        match = BLOCKS.search(stage)
        blocks = f"{match.group(1)} of {match.group(2)} blocks built" if match else ""
        text = f"Building the demo chain ({network}) — the first start only"
        self._set(StartState.BUILDING, text, fraction, blocks, self._time_left(now, fraction))

    def _time_left(self, now: float, fraction: float) -> str:
        """Return the estimated time left from the rate so far ('' while unknown)."""
        assert self._building_since is not None
        started, at_start = self._building_since
        done = fraction - at_start
        if done < MIN_ETA_FRACTION or now <= started:
            return "Estimating the time left…"
        seconds = (now - started) * (1.0 - fraction) / done
        return f"About {max(round(seconds), 1)} s left"

    def finish(self) -> None:
        """Note that the devnet is serving."""
        self._set(StartState.READY, "The local devnet is ready", 1.0, self._blocks, "")

    def fail(self, message: str) -> None:
        """Note that the devnet did not start, and why."""
        self._set(StartState.FAILED, message, self._fraction, self._blocks, "")

    def _set(self, state: StartState, stage: str, fraction: float, blocks: str, eta: str) -> None:
        """Change everything at once and announce it."""
        self._state, self._stage, self._fraction = state, stage, min(max(fraction, 0.0), 1.0)
        self._blocks, self._eta = blocks, eta
        self.progress_changed.emit()
