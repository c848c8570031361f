"""The local devnet's start as the window shows it: stage, part built, time left."""

from __future__ import annotations

import enum
import time
from collections.abc import Callable

from PySide6.QtCore import QObject

from explorer.viewmodels.observable import TypedSignal, qproperty

MIN_ETA_FRACTION = 0.05  # below this the rate says nothing yet
LOADED = "loaded the snapshot"  # the child's word once the whole chain is served


def rough_duration(seconds: float) -> str:
    """Return a rounded duration: '40 s', '95 s', '3 min' (a coarse estimate does not flicker)."""
    if seconds < 120:
        return f"{max(5 * round(seconds / 5), 5)} s"
    return f"{round(seconds / 60)} min"


class StartState(enum.Enum):
    """Where the devnet's start is."""

    IDLE = "idle"
    STARTING = "starting"
    BUILDING = "building"
    READY = "ready"
    FILLING = "filling"  # serving the newest blocks while the older history is built behind
    FAILED = "failed"


class DevnetStartViewModel(QObject):
    """Progress of the devnet child as it loads or builds its history.

    One quantity, the part of the build done (its time, as the seed's measured build profile
    weighs it), drives the bar, the percentage and the time left.

    Signals:
        progress_changed(): state, stage, fraction, part built or time left changed.
    """

    progress_changed = TypedSignal[()]()

    def __init__(self, cache_dir: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.cache_dir = cache_dir
        self._clock = clock
        self._state = StartState.IDLE
        self._stage = ""
        self._fraction = 0.0
        self._done = ""
        self._eta = ""
        self._building_since: tuple[float, float] | None = None  # (time, fraction) at start
        self._filled = False  # the older history was just filled in (clear the banner)

    def _get_state(self) -> StartState:
        return self._state

    def _get_stage(self) -> str:
        return self._stage

    def _get_fraction(self) -> float:
        return self._fraction

    def _get_done(self) -> str:
        return self._done

    def _get_eta(self) -> str:
        return self._eta

    state = qproperty(_get_state, progress_changed)
    stage = qproperty(_get_stage, progress_changed)
    fraction = qproperty(_get_fraction, progress_changed)
    done = qproperty(_get_done, progress_changed)
    eta = qproperty(_get_eta, progress_changed)

    def start(self) -> None:
        """Note that the child was started: nothing is known yet."""
        self._building_since = None
        self._set(StartState.STARTING, "Starting the local devnet…", 0.0, "", "")

    @property
    def notice(self) -> str | None:
        """Return the banner's text while the older history is built ('' once done), else None."""
        if self._state is StartState.FILLING:
            return self._stage
        return "" if self._filled else None

    @property
    def status(self) -> str:
        """Return the status bar's text while the devnet starts."""
        if self._state is StartState.BUILDING:
            return f"Local devnet: {self._fraction:.0%} of its history built"
        return self._stage

    def on_progress(self, network: str, stage: str, fraction: float) -> None:
        """Take one progress line of the child."""
        self._filled = False
        if self._state in (StartState.READY, StartState.FILLING):
            self._fill_behind(network, stage, fraction)
            return
        if "snapshot" in stage:
            self._set(StartState.STARTING, f"{stage.capitalize()}…", fraction, "", "")
            return
        now = self._clock()
        if self._building_since is None:
            self._building_since = (now, fraction)
        text = f"Building the demo chain ({network}) — the first start only"
        done = f"{fraction:.0%} built"
        self._set(StartState.BUILDING, text, fraction, done, self._time_left(now, fraction))

    def _fill_behind(self, network: str, stage: str, fraction: float) -> None:
        """Take progress of the older history built while the newest blocks are served."""
        if stage == LOADED:
            self._filled = self._state is StartState.FILLING  # the banner is cleared once
            self._set(StartState.READY, "The local devnet is ready", 1.0, "", "")
            return
        text = (
            f"The local devnet ({network}) is building its older history ({fraction:.0%}): the "
            "newest blocks are here; older blocks, balances and sending wait until it is done."
        )
        self._set(StartState.FILLING, text, fraction, f"{fraction:.0%} built", "")

    def _time_left(self, now: float, fraction: float) -> str:
        """Return the estimated time left from the rate so far ('' while unknown)."""
        assert self._building_since is not None
        started, at_start = self._building_since
        done = fraction - at_start
        if done < MIN_ETA_FRACTION or now <= started:
            return "Estimating the time left…"
        seconds = (now - started) * (1.0 - fraction) / done
        return f"About {rough_duration(seconds)} left"

    def finish(self) -> None:
        """Note that the devnet is serving (its older history may still be built behind)."""
        self._set(StartState.READY, "The local devnet is ready", 1.0, "", "")

    def fail(self, message: str) -> None:
        """Note that the devnet did not start, and why."""
        self._set(StartState.FAILED, message, self._fraction, self._done, "")

    def _set(self, state: StartState, stage: str, fraction: float, done: str, eta: str) -> None:
        """Change everything at once and announce it."""
        self._state, self._stage, self._fraction = state, stage, min(max(fraction, 0.0), 1.0)
        self._done, self._eta = done, eta
        self.progress_changed.emit()
