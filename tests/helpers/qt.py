"""Helpers for running coroutines on the qasync loop from pytest-qt tests."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from pytestqt.qtbot import QtBot

T = TypeVar("T")


def run_in_qloop(qtbot: QtBot, coro: Awaitable[T], timeout_ms: int = 10_000) -> T:
    """Schedule coro on the running qasync loop, wait for it with qtbot, return its result."""
    future = asyncio.ensure_future(coro)
    qtbot.waitUntil(future.done, timeout=timeout_ms)
    return future.result()
