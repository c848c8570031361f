"""The transaction page that says why: pending and not-found diagnoses, other networks.

A pending transaction is shown with what holds it; a transaction the node does not return
is not found (the page's NOT_FOUND state) with details: what this app saw of it and what
became of it, or what the other configured networks said. Either keeps being followed while
it may still change: until mined, or until its fate is settled.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

from PySide6.QtCore import QObject

from explorer.presentation.bridge_loaders import pegout_documents
from explorer.presentation.document import Document
from explorer.presentation.loaders import TxMemory, load_tx_stages
from explorer.presentation.missing import Missing, TxSupport
from explorer.presentation.tx_document import tx_document
from explorer.services.elsewhere import Sighting
from explorer.services.routes import Route, tx_position
from explorer.services.session import Session
from explorer.services.trace import tracer_of
from explorer.viewmodels.observable import TypedSignal, qproperty
from explorer.viewmodels.page import PageState, PageViewModel
from explorer.viewmodels.tx_inside import InsideViewModel


class TxPageViewModel(PageViewModel):
    """A transaction page with the support desk's diagnosis.

    Signals:
        details_changed(): the not-found details changed (document, networks that have it).
    """

    details_changed = TypedSignal[()]()

    def __init__(
        self,
        session: Session,
        route: Route,
        support: TxSupport | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, route, parent)
        self.support = support or TxSupport()
        self.memory = TxMemory()
        self._details: Document | None = None
        self._found_elsewhere: tuple[Sighting, ...] = ()
        network = session.network
        self.inside = InsideViewModel(
            lambda: tracer_of(session), network.chain_id, network.currency, self
        )

    def _get_details(self) -> Document | None:
        """Return what the page knows of a transaction the node does not return."""
        return self._details

    def _get_found_elsewhere(self) -> tuple[Sighting, ...]:
        """Return the other networks that have the transaction."""
        return self._found_elsewhere

    details = qproperty(_get_details, details_changed)
    found_elsewhere = qproperty(_get_found_elsewhere, details_changed)

    @property
    def not_found_text(self) -> str:
        """Return the not-found message, naming block and index for a `tx/B/N` route."""
        position = tx_position(self.route)
        if position is None:
            return super().not_found_text
        block, index = position
        shown = f"{block:,}" if isinstance(block, int) else block
        return f"No transaction {index} in block {shown} on {self.session.network.name}."

    async def _fetch_tx(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Load the transaction, its diagnosis, or why it is not found; follow what may change."""
        network = self.session.network
        stages = load_tx_stages(
            self.session.reader,
            network,
            self.route.target,
            self.support,
            self.session.endpoint,
            self.memory,
        )
        async for stage in stages:
            if isinstance(stage, Missing):
                self.inside.set_transaction(None)
                self._show_details(stage)
                yield None, stage.complete and stage.keep_tracking
                continue
            self._show_details(None)
            document = tx_document(
                stage, chain_id=network.chain_id, currency=network.currency, now=time.time()
            )
            mined = stage.complete and not stage.tx.is_pending
            self.inside.set_transaction(stage.tx.hash if mined else None)
            yield document, stage.complete and stage.tx.is_pending
            if stage.complete and not stage.tx.is_pending:  # a peg-out's stages follow
                reader = self.session.reader
                pegout = pegout_documents(reader, network, document, stage.tx, stage.receipt)
                async for with_stages in pegout:
                    yield with_stages, False

    def _show_details(self, missing: Missing | None) -> None:
        """Publish the not-found details of a stage (None: the node returns it)."""
        details = None
        if missing is not None and not missing.asked_for:
            details = missing.document(self.session.network, time.time())
        found = missing.found_elsewhere if missing is not None else ()
        if details != self._details or found != self._found_elsewhere:
            self._details, self._found_elsewhere = details, found
            self.details_changed.emit()

    def dispose(self) -> None:
        """Stop all work, the Inside tab's trace too."""
        self.inside.dispose()
        super().dispose()

    def on_open_on(self, network_id: str) -> None:
        """Switch the window to another network, where this transaction was found."""
        if self.support.switch_network is not None:
            self.support.switch_network(network_id)

    def on_refresh(self) -> None:
        """Look again; a not-found page stays as it is meanwhile (no loading skeleton)."""
        if self.state is not PageState.NOT_FOUND or not self.session.check.verified:
            super().on_refresh()
            return
        self.dispose_task()
        self._task = asyncio.get_event_loop().create_task(self._run())
