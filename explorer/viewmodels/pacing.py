"""A page stage paced by its view: a block's verdict is computed once its rows are shown."""

from __future__ import annotations

import asyncio
import contextlib

from PySide6.QtCore import QObject

#: A view that never says it has shown a stage holds the next one no longer than this.
SHOWN_WAIT_CAP_SECONDS = 0.25


class ViewPacing:
    """Lets a page wait, between stages, until its view has shown the last one in full.

    A view builds a document's sections over several event-loop turns. A stage that is
    read meanwhile (a thousand transactions hashed on a worker thread) would compete with
    them for the interpreter and stall the window; read after them, it stalls nothing.
    A page without a view (a test, the command line) is not paced.
    """

    def __init__(self) -> None:
        self._followed = False
        self._gone = False
        self._shown = asyncio.Event()

    def follow_view(self, view: QObject) -> None:
        """Pace the page by a view, which calls `shown` each time it has shown a stage."""
        self._followed = True
        view.destroyed.connect(self._view_gone)

    def _view_gone(self) -> None:
        """Stop waiting for a view that is gone."""
        self._gone = True
        self._shown.set()

    def shown(self) -> None:
        """Note that the view has shown the current stage."""
        self._shown.set()

    def expect(self) -> None:
        """Note that a stage is about to be handed to the view."""
        self._shown.clear()

    async def until_shown(self) -> None:
        """Return once the view has shown the stage handed to it (at once when unpaced).

        A view gone meanwhile means the page is being taken down: the load is cancelled.
        """
        if self._followed and not self._shown.is_set():
            with contextlib.suppress(TimeoutError):  # a view that says nothing: go on
                async with asyncio.timeout(SHOWN_WAIT_CAP_SECONDS):  # (wait_for can lose a
                    await self._shown.wait()  # cancel that comes as the event is set)
        if self._gone:
            raise asyncio.CancelledError
