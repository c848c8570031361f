"""Wait on the running loop: for a condition, and (the start-up benchmark) for blocks on Home.

Light on purpose: `explorer --until-home` imports it at start, and what it imports would be
timed as the window's start (the screenshot tour's modules load every page).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol

from PySide6.QtWidgets import QWidget


async def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Wait on the running loop until condition holds or timeout passes."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


class StartedWindow(Protocol):
    """What the start-up benchmark needs of the app: its window, and whether Home shows blocks."""

    @property
    def window(self) -> QWidget:
        """Return the main window."""
        ...

    def home_shows_blocks(self) -> bool:
        """Return whether the home page lists blocks."""
        ...


async def until_home(app: StartedWindow, started: float, timeout: float) -> None:
    """Wait until the home page lists blocks, say after how long, and close (for benchmarks)."""
    ready = await wait_for(app.home_shows_blocks, timeout=timeout)
    loop = asyncio.get_running_loop()
    print(
        f"home page {'shows blocks' if ready else 'timed out'} after {loop.time() - started:.1f} s"
        f" (the window's process used {time.process_time():.1f} s of CPU time)"
    )
    app.window.close()
