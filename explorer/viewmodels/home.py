"""The home page: the network at a glance and its latest blocks, following the head."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from explorer.chain.checksum import to_checksum_address
from explorer.chain.known import known_label
from explorer.chain.records import Block
from explorer.chain.units import format_rbtc
from explorer.rpc.errors import RpcError
from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.routes import block_route
from explorer.services.session import Session
from explorer.viewmodels.format import age
from explorer.viewmodels.observable import qproperty
from explorer.viewmodels.roles import ROUTE_ROLE

LATEST = 12
UNCHECKED_MESSAGES: dict[Verification | None, str] = {
    Verification.MISMATCH: "This node serves another chain: nothing from it is shown here.",
    Verification.UNREACHABLE: "The node's chain id could not be checked yet: see the banner.",
    None: "Checking that the node serves this network's chain…",
}
HEADERS = ("Block", "Age", "Transactions", "Miner", "Gas used", "Paid fees")
Index = QModelIndex | QPersistentModelIndex


class LatestBlocksModel(QAbstractTableModel):
    """The newest blocks first; rows link to their block pages."""

    def __init__(self, chain_id: int, currency: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chain_id = chain_id
        self._currency = currency
        self.blocks: list[Block] = []

    def set_blocks(self, blocks: list[Block]) -> None:
        """Show these blocks (newest first)."""
        self.beginResetModel()
        self.blocks = blocks
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of blocks shown."""
        return 0 if parent.isValid() else len(self.blocks)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of columns."""
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Return the column titles."""
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text or the block's route."""
        if not index.isValid() or index.row() >= len(self.blocks):
            return None
        block = self.blocks[index.row()]
        if role == ROUTE_ROLE:
            return None if block.number is None else block_route(block.number)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(block, index.column())
        return None

    def _text(self, block: Block, column: int) -> str:
        """Return one cell's text."""
        if column == 0:
            return f"{block.number:,}"
        if column == 1:
            return age(time.time() - block.timestamp)
        if column == 2:
            return f"{len(block.transaction_hashes):,}"
        if column == 3:
            if block.miner is None:
                return "—"
            label = known_label(block.miner, self._chain_id)
            shown = to_checksum_address(block.miner, self._chain_id)
            return f"{shown} ({label})" if label else shown
        if column == 4:
            share = block.gas_used / block.gas_limit if block.gas_limit else 0.0
            return f"{block.gas_used:,} ({share:.1%})"
        return "—" if block.paid_fees is None else format_rbtc(block.paid_fees, self._currency)


class HomeViewModel(QObject):
    """Loads the latest blocks and keeps them current as the head moves.

    Signals:
        summary_changed(): the summary line or the message changed (the table has its model).
    """

    summary_changed = Signal()

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.blocks = LatestBlocksModel(session.network.chain_id, session.network.currency, self)
        self._message = "Loading the latest blocks…"
        self._task: asyncio.Task[None] | None = None
        self._shown_head: int | None = None
        self._stop_listening = session.checker.listen(self._on_check)

    def _get_message(self) -> str:
        return self._message

    def _get_summary(self) -> str:
        """Return one line about the network and the node."""
        session = self.session
        check = session.check
        parts = [session.network.name, f"chain id {session.network.chain_id}"]
        if check.verified and check.client_version:
            parts.append(check.client_version)
        if session.reader.head is not None:
            parts.append(f"head #{session.reader.head:,}")
        return " · ".join(parts)

    message = qproperty(_get_message, summary_changed)
    summary = qproperty(_get_summary, summary_changed)

    def on_head(self, number: int) -> None:
        """Reload when a newer head than the one shown arrives."""
        idle = self._task is None or self._task.done()
        if self._shown_head != number and idle and self.session.check.verified:
            self._task = asyncio.ensure_future(self._load(number))

    def load(self) -> None:
        """Load the latest blocks now, or once the node's chain is confirmed."""
        check = self.session.check
        if not check.verified:
            self.session.verify()
            self._on_check(check)
        elif self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._load(None))

    def _on_check(self, check: ChainCheck) -> None:
        """Show nothing of a node whose chain is not confirmed; load when it is."""
        if check.verified:
            self.load()
            return
        if self._task is not None:
            self._task.cancel()
        self._shown_head = None
        self.blocks.set_blocks([])
        self._message = UNCHECKED_MESSAGES.get(check.verification, UNCHECKED_MESSAGES[None])
        self.summary_changed.emit()

    async def _load(self, head: int | None) -> None:
        """Fetch the newest blocks concurrently (settled ones come from the reader's cache)."""
        reader = self.session.reader
        try:
            top = head if head is not None else await reader.head_number()
            numbers = range(top, max(top - LATEST, -1), -1)
            found = await asyncio.gather(*(reader.block(n) for n in numbers))
        except RpcError as error:
            self._message = (
                f"Could not load the latest blocks ({error.kind.value}): {error.message}"
            )
            self.summary_changed.emit()
            return
        self._shown_head = top
        self.blocks.set_blocks([block for block in found if block is not None])
        self._message = ""
        self.summary_changed.emit()

    def dispose(self) -> None:
        """Stop loading and following the chain check."""
        self._stop_listening()
        if self._task is not None:
            self._task.cancel()
