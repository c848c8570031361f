"""The event loop view models start their tasks on, while the app still has one."""

from __future__ import annotations

import asyncio


def live_loop() -> asyncio.AbstractEventLoop | None:
    """Return the app's event loop; None once it is gone or closed (the app is shutting down)."""
    try:
        loop = asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:
        return None
    return None if loop.is_closed() else loop
