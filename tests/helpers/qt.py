"""Helpers for running coroutines on the qasync loop from pytest-qt tests."""

from __future__ import annotations

import asyncio


def run_in_qloop(qtbot: object, coro: object, timeout_ms: int = 10_000) -> object:
    """Schedule coro on the running qasync loop, wait for it with qtbot, return its result."""
    future = asyncio.ensure_future(coro)  # type: ignore[arg-type]
    qtbot.waitUntil(future.done, timeout=timeout_ms)  # type: ignore[attr-defined]
    return future.result()
