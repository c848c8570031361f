"""A page's next stage waits for its view to show the last one in full."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot

from explorer.chain.blockverify import BlockVerdict
from explorer.chain.records import Block, Receipt
from explorer.presentation.verification import LABEL
from explorer.services.routes import block_route
from explorer.services.session import Session
from explorer.viewmodels.pacing import ViewPacing
from explorer.views.main_window import MainWindow
from tests.helpers.gui import wait_loaded


def test_a_big_blocks_check_starts_once_its_page_shows_every_section(
    qtbot: QtBot, window: MainWindow, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """A thousand transactions' hashing starts once the page has built every section.

    On a worker it competes with the sections for the interpreter: after them, the window
    never waits on both at once (a stall of 80–100 ms before).
    """
    verifier = session.reader.verifier
    assert verifier is not None
    check = verifier.block_off_thread
    shown_when_checked: list[bool] = []

    async def noting(block: Block, receipts: Sequence[Receipt] | None = None) -> BlockVerdict:
        page = window.current_page()
        shown_when_checked.append(page is not None and page.document_view.is_complete)
        return await check(block, receipts)

    verifier.block_off_thread = noting  # type: ignore[method-assign]
    window.navigator.go(block_route(int(devnet_manifest["big_block"])))
    wait_loaded(qtbot, window, timeout=30_000)
    page = window.current_page()
    assert page is not None
    assert page.model.document is not None
    badge = [f.text for s in page.model.document.sections for f in s.fields if f.label == LABEL]
    assert len(badge) == 1
    assert badge[0].startswith("Verified"), badge
    assert shown_when_checked == [True]


@pytest.mark.parametrize("how", ["cancelled as the view says shown", "view gone"])
def test_a_page_taken_down_while_its_view_shows_a_stage_reads_nothing_more(how: str) -> None:
    """A load closed as its view says "shown", or whose view is deleted, stays cancelled.

    asyncio.wait_for lost the first kind of cancel: the load went on to ask a closed session.
    """

    async def taken_down() -> asyncio.Task[None]:
        pacing, views = ViewPacing(), [QObject()]
        pacing.follow_view(views[0])
        pacing.expect()
        waiting = asyncio.ensure_future(pacing.until_shown())
        await asyncio.sleep(0)
        if how == "view gone":
            views.clear()  # the last reference: the view is destroyed now
        else:
            pacing.shown()
            waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        return waiting

    assert asyncio.run(taken_down()).cancelled()
