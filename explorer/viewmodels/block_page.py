"""The block page: verified on load, and verified again once its table read every receipt."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject

from explorer.presentation.verification import with_verdict
from explorer.services.routes import Route
from explorer.services.session import Session
from explorer.viewmodels.page import PageViewModel


class BlockPageViewModel(PageViewModel):
    """A block page whose receipts root is checked as soon as all its receipts are read.

    The table reads the receipts of the rows it shows; for a block whose rows all fit, that is
    every receipt, and the receipts root is recomputed from them without another request (on
    a worker thread: a big block takes a while to hash).
    """

    def __init__(self, session: Session, route: Route, parent: QObject | None = None) -> None:
        super().__init__(session, route, parent)
        self._reverify: asyncio.Task[None] | None = None
        self.transactions.receipts_completed.connect(self._on_receipts_completed)

    def _on_receipts_completed(self) -> None:
        """Verify the shown block again with all its receipts (the page's own task)."""
        if self._reverify is None or self._reverify.done():
            self._reverify = asyncio.ensure_future(self._verify_with_receipts())

    async def _verify_with_receipts(self) -> None:
        """Recompute the verdict with every receipt and show it on the page."""
        block, receipts = self.transactions.block, self.transactions.receipts
        verifier = self.session.reader.verifier
        if block is None or receipts is None or verifier is None:
            return
        verdict = await verifier.block_off_thread(block, receipts)
        if self.document is not None and self.transactions.block is block:
            self._document = with_verdict(self.document, verdict)
            self.document_changed.emit()

    def dispose(self) -> None:
        """Stop the page's work, its verification included."""
        if self._reverify is not None:
            self._reverify.cancel()
        super().dispose()
