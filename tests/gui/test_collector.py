"""The GUI-thread collector: survivors of start-up frozen, later garbage still collected."""

from __future__ import annotations

import gc
import weakref

from pytestqt.qtbot import QtBot

from explorer.views.collector import MainThreadCollector


class Node:
    """An object that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


def test_frozen_survivors_are_skipped_and_new_cycles_still_collected(qtbot: QtBot) -> None:
    """After freezing, a cycle made later is collected by the timer; stop() unfreezes."""
    was_enabled = gc.isenabled()
    collector = MainThreadCollector()
    try:
        assert not gc.isenabled()
        collector.freeze_survivors()
        assert gc.get_freeze_count() > 0
        first, second = Node(), Node()
        first.other, second.other = second, first
        gone = weakref.ref(first)
        del first, second
        assert gone() is not None  # no automatic collection
        qtbot.waitUntil(lambda: gone() is None, timeout=5_000)
    finally:
        collector.stop()
        if not was_enabled:
            gc.disable()
    assert gc.get_freeze_count() == 0
