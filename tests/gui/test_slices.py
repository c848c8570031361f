"""Work in slices: one piece per turn of the event loop, a new run replacing what is left."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from explorer.viewmodels.slices import Slices


def test_pieces_run_in_order_one_per_turn(qtbot: QtBot) -> None:
    ran: list[str] = []
    slices = Slices()
    slices.run(
        lambda: ran.append("first"), lambda: ran.append("second"), lambda: ran.append("third")
    )
    assert ran == ["first"]  # the first at once, the others in later turns
    assert slices.pending == 2
    qtbot.waitUntil(lambda: slices.pending == 0, timeout=1_000)
    assert ran == ["first", "second", "third"]


def test_a_new_run_replaces_what_is_left_and_stop_drops_it(qtbot: QtBot) -> None:
    ran: list[str] = []
    slices = Slices()
    slices.run(lambda: ran.append("old"), lambda: ran.append("stale"))
    slices.run(lambda: ran.append("new"), lambda: ran.append("fresh"))
    qtbot.waitUntil(lambda: slices.pending == 0, timeout=1_000)
    assert ran == ["old", "new", "fresh"]
    slices.run(lambda: ran.append("once"), lambda: ran.append("never"))
    slices.stop()
    qtbot.wait(20)
    assert ran[-1] == "once"
