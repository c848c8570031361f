"""The window's one head poll: eth_blockNumber at the pace its live pages ask, never while idle."""

from __future__ import annotations

import asyncio
import itertools
import statistics
import time
from collections import deque

from PySide6.QtCore import QObject, QTimer

from explorer.rpc.errors import RpcError
from explorer.services.session import Session
from explorer.viewmodels.loop import live_loop
from explorer.viewmodels.observable import TypedSignal, qproperty

PACE_SAMPLES = 5  # head changes the heartbeat's pace is the median of
MIN_IDLE_SECONDS = 2.0  # the heartbeat's shortest interval, however fast the chain


class HeadPoller(QObject):
    """Asks the session's node for its head: once when bound, then as pages want it.

    Pages say how often they want the head (`want(owner, seconds)`), or when next
    (`want_at(owner, seconds_from_now)`: the home page, when the next block is due); the poll
    runs at the earliest wish. With no wish (the home tab hidden, paused) a heartbeat remains
    for the status bar's head: once per block at the chain's pace learned from the heads
    seen, at most every `idle_seconds` (a node gone or changed is noticed too); with the
    window minimised or hidden nothing is asked at all. One poll serves the status bar and
    every page.

    Signals:
        head_changed(int): a newer head than any before was read.
        head_read(int, float): a poll answered: the head and the wall-clock time.
        head_failed(RpcError): a poll failed.
        running_changed(bool): a page started or stopped following the head.
    """

    head_changed = TypedSignal[int]()
    head_read = TypedSignal[int, float]()
    head_failed = TypedSignal[RpcError]()
    running_changed = TypedSignal[bool]()

    def __init__(self, parent: QObject | None = None, idle_seconds: float | None = None) -> None:
        super().__init__(parent)
        self.session: Session | None = None
        self.idle_seconds = idle_seconds
        self.polls = 0
        self._wishes: dict[int, float] = {}
        self._deadlines: dict[int, float] = {}  # owner → monotonic time of the poll it wants
        self._minimised = False
        self._hidden = False  # the window is not on screen (another desktop, covered, hidden)
        self._newest = -1
        self._last_poll = float("-inf")  # monotonic time the last poll was sent
        self._task: asyncio.Task[None] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.poll_now)
        self._running = False
        self._stopped = False  # the window closed: nothing is polled again
        self._changes: deque[tuple[float, int]] = deque(maxlen=PACE_SAMPLES + 1)

    def _get_running(self) -> bool:
        return self._running

    running = qproperty(_get_running, running_changed)

    @property
    def pace(self) -> float | None:
        """Return the seconds per block seen between head changes (None until two are seen)."""
        steps = [
            (later - earlier) / (high - low)
            for (earlier, low), (later, high) in itertools.pairwise(self._changes)
            if high > low
        ]
        return statistics.median(steps) if steps else None

    @property
    def interval(self) -> float | None:
        """Return the seconds between polls now (a page's wish, else the heartbeat), or None."""
        if self._minimised or self._hidden or self.session is None:
            return None
        polled = self._last_poll if self._last_poll > float("-inf") else time.monotonic()
        paces = [*self._wishes.values(), *([self.idle_seconds] if self.idle_seconds else [])]
        paces += [max(at - polled, 0.2) for at in self._deadlines.values()]  # from the last poll
        if self.idle_seconds and self.pace is not None:  # the heartbeat keeps up with the chain
            paces.append(max(self.pace, MIN_IDLE_SECONDS))
        return min(paces) if paces else None

    def bind(self, session: Session | None) -> None:
        """Follow another session's head (None: stop); the first head is read at once."""
        self._cancel()
        if self._stopped:
            session = None
        self.session, self._newest = session, -1
        self._last_poll = float("-inf")
        self._changes.clear()
        if session is not None:
            self.poll_now()
        self._reschedule()

    def want(self, owner: object, seconds: float | None) -> None:
        """Record how often owner wants the head (None: not at all now)."""
        key = id(owner)
        self._deadlines.pop(key, None)
        if seconds is None:
            self._wishes.pop(key, None)
        else:
            self._wishes[key] = max(seconds, 0.2)
        self._reschedule()

    def want_at(self, owner: object, seconds: float | None) -> None:
        """Record that owner wants the next head in seconds from now (None: not at all now)."""
        key = id(owner)
        self._wishes.pop(key, None)
        if seconds is None:
            self._deadlines.pop(key, None)
        else:
            self._deadlines[key] = time.monotonic() + max(seconds, 0.2)
        self._reschedule()

    def set_minimised(self, minimised: bool) -> None:
        """Stop polling while the window is minimised; resume when it is shown again."""
        self._minimised = minimised
        self._reschedule()

    def set_hidden(self, hidden: bool) -> None:
        """Stop polling while the window is not on screen; resume when it shows again."""
        if hidden != self._hidden:
            self._hidden = hidden
            self._reschedule()

    def poll_now(self) -> None:
        """Ask for the head now, unless a poll is already on its way."""
        if self.session is None or (self._task is not None and not self._task.done()):
            return
        if (loop := live_loop()) is None:
            return
        self._last_poll = time.monotonic()
        self._task = loop.create_task(self._poll(self.session))

    async def _poll(self, session: Session) -> None:
        """Read the head once and tell the listeners; then schedule the next poll."""
        self.polls += 1
        try:
            event = await session.read_head()
        except RpcError as error:
            if session is self.session:
                self.head_failed.emit(error)
        else:
            if session is self.session and event.number < self._newest:
                back = f"the head went back from #{self._newest:,} to #{event.number:,}"
                session.checker.suspect(back)  # checked before the lower head is shown
            elif session is self.session:
                if event.number > self._newest:
                    self._newest = event.number
                    self._changes.append((time.monotonic(), event.number))
                    self.head_changed.emit(event.number)
                self.head_read.emit(event.number, time.time())
        finally:
            if session is self.session:
                self._reschedule(poll_done=True)

    def _reschedule(self, poll_done: bool = False) -> None:
        """Start, move or stop the timer after a poll, or when the wishes or the window changed."""
        interval = self.interval
        following = bool(self._wishes or self._deadlines)
        running = following and interval is not None  # a page follows the head
        if interval is None:
            self._timer.stop()
        elif poll_done or self._task is None or self._task.done():
            due = self._last_poll + interval - time.monotonic()
            self._timer.start(max(0, round(due * 1000)))
        if running != self._running:
            self._running = running
            self.running_changed.emit(running)

    def _cancel(self) -> None:
        """Stop the timer and a poll in flight."""
        self._timer.stop()
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def stop(self) -> None:
        """Stop for good (the window closes): a later bind() follows nothing."""
        self._wishes.clear()
        self._deadlines.clear()
        self._stopped = True
        self.bind(None)
