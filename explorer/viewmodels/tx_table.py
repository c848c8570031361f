"""A lazy table of a block's transactions: rows in batches, receipts only for rows on screen."""

from __future__ import annotations

import asyncio
import enum
import functools
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt

from explorer.chain.records import Block, Receipt, RecordFormatError, Transaction
from explorer.chain.units import readable_rbtc
from explorer.presentation.format import exact_tooltip
from explorer.presentation.tx_text import address_text, method_text, status_text
from explorer.rpc.errors import RpcError
from explorer.services.networks import Network
from explorer.services.routes import Route, address_route, tx_route
from explorer.viewmodels.batched_table import BatchedTableModel, Index
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.roles import COPY_ROLE, ROUTE_ROLE
from explorer.viewmodels.sorting import Key, SortOrder, sorted_rows, text_key

BATCH = 200
ReceiptFetcher = Callable[[str], Awaitable[Receipt | None]]


class Column(enum.IntEnum):
    """The table's columns."""

    HASH = 0
    FROM = 1
    TO = 2
    VALUE = 3
    FEE = 4
    STATUS = 5
    METHOD = 6


HEADERS = ("Hash", "From", "To", "Value", "Fee", "Status", "Method")


class BlockTransactionsModel(BatchedTableModel):
    """The block's transactions, shown in batches; receipts only for rows on screen.

    Signals:
        receipts_completed(): every transaction's receipt has been read (see `receipts`).
    """

    receipts_completed = TypedSignal[()]()

    headers = HEADERS
    batch = BATCH
    first_row_number = 0  # the row number is the transaction's index in the block

    def __init__(self, network: Network, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._network = network
        self._txs: Sequence[Transaction] = ()
        self.block: Block | None = None
        self._order: list[int] = []  # the transaction shown in each row (index in the block)
        self._rows: dict[str, int] = {}  # a transaction's row
        self._receipts: dict[str, Receipt | None] = {}
        self._asked: set[str] = set()
        self._hashes: Sequence[str] = ()
        self._tasks: set[asyncio.Future[None]] = set()
        self.fetch_receipt: ReceiptFetcher | None = None

    def set_block(self, block: Block) -> None:
        """Show a block's transactions (full objects), first batch only."""
        self.beginResetModel()
        self.block = block
        self._txs = block.transactions or ()
        self._hashes = block.transaction_hashes
        self._arrange(list(range(len(self._txs))))
        self._shown = min(BATCH, len(self._txs))
        self._receipts.clear()
        self._asked.clear()
        self.endResetModel()

    @property
    def receipts(self) -> list[Receipt] | None:
        """Return every transaction's receipt in block order, or None while one is missing."""
        found = [receipt for h in self._hashes if (receipt := self._receipts.get(h)) is not None]
        return found if len(found) == len(self._hashes) else None

    @property
    def total(self) -> int:
        """Return how many transactions the block has."""
        return len(self._txs)

    def available(self) -> int:
        """Return how many rows the block has."""
        return len(self._txs)

    def transaction(self, row: int) -> Transaction:
        """Return the transaction shown in a row."""
        return self._txs[self._order[row]]

    def _arrange(self, order: list[int]) -> None:
        """Show the transactions in this order (indexes in the block)."""
        self._order = order
        self._rows = {self._hashes[index]: row for row, index in enumerate(order)}

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the block's transactions by a column; -1 puts them back in block order.

        Every transaction is read for it; fees and statuses known so far sort, the others go
        last (their receipts are read as their rows show).
        """
        sorting = SortOrder.of(column, order)
        indexes = range(len(self._txs))
        self.beginResetModel()
        if column < 0:
            self._arrange(list(indexes))
        else:
            key = functools.partial(self._key, Column(column))
            self._arrange(sorted_rows(indexes, key, sorting.descending))
        self.endResetModel()

    def _key(self, column: Column, index: int) -> Key:
        """Return a transaction's key in a column (None: not known yet, or malformed)."""
        try:
            tx = self._txs[index]
        except RecordFormatError:
            return None
        if column is Column.VALUE:
            return tx.value
        if column in (Column.FEE, Column.STATUS):
            receipt = self._receipts.get(tx.hash)
            if receipt is None:
                return None
            return receipt.fee(tx.gas_price) if column is Column.FEE else status_text(receipt)
        return text_key(self._text(tx, column))

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Return column titles, and each row's position in the block (whatever the order)."""
        if orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
            return str(self._order[section]) if section < len(self._order) else None
        return super().headerData(section, orientation, role)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text, tooltip or route."""
        if not index.isValid() or index.row() >= self._shown:
            return None
        try:
            tx = self._txs[self._order[index.row()]]  # parsed when first shown
        except RecordFormatError as error:
            malformed = index.column() == Column.HASH and role == Qt.ItemDataRole.DisplayRole
            return f"malformed transaction: {error}" if malformed else None
        column = Column(index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(tx, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(tx, column)
        if role == ROUTE_ROLE:
            return self._route(tx, column)
        if role == COPY_ROLE and column in (Column.VALUE, Column.FEE):
            tip = self._tooltip(tx, column)  # the exact amount, then its wei
            return tip.partition("\n")[0] if tip else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (Column.VALUE, Column.FEE):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _address(self, address: str | None) -> str:
        """Return an address in the network's checksum, with RSK's system labels."""
        return address_text(address, self._network.chain_id)

    def _text(self, tx: Transaction, column: Column) -> str:
        """Return the display text of one cell."""
        if column is Column.HASH:
            return tx.hash
        if column is Column.FROM:
            return self._address(tx.sender)
        if column is Column.TO:
            return self._address(tx.to)
        if column is Column.VALUE:
            return readable_rbtc(tx.value, self._network.currency)
        if column is Column.METHOD:
            return method_text(tx)
        receipt = self._receipt(tx)
        if receipt is None:
            return "…"
        if column is Column.FEE:
            return readable_rbtc(receipt.fee(tx.gas_price), self._network.currency)
        return status_text(receipt)

    def _tooltip(self, tx: Transaction, column: Column) -> str | None:
        """Return a cell's tooltip (exact wei for amounts, full hashes)."""
        if column is Column.VALUE:
            return exact_tooltip(tx.value, self._network.currency)
        if column is Column.FEE and (receipt := self._receipts.get(tx.hash)) is not None:
            return exact_tooltip(receipt.fee(tx.gas_price), self._network.currency)
        if column in (Column.HASH, Column.FROM, Column.TO):
            return self._text(tx, column)
        return None

    def _route(self, tx: Transaction, column: Column) -> Route:
        """Return where a click on a cell leads."""
        if column is Column.FROM:
            return address_route(tx.sender)
        if column is Column.TO and tx.to is not None:
            return address_route(tx.to)
        return tx_route(tx.hash)

    def cancel_reads(self) -> None:
        """Stop reading receipts, in flight or later (the page is going away with this model)."""
        self.fetch_receipt = None
        for task in list(self._tasks):
            task.cancel()

    def _receipt(self, tx: Transaction) -> Receipt | None:
        """Return the row's receipt, asking for it (once) when it is first shown."""
        if tx.hash in self._receipts:
            return self._receipts[tx.hash]
        if self.fetch_receipt is not None and tx.hash not in self._asked:
            self._asked.add(tx.hash)
            self._tasks.add(task := asyncio.ensure_future(self._load_receipt(tx.hash)))
            task.add_done_callback(self._tasks.discard)
        return None

    async def _load_receipt(self, tx_hash: str) -> None:
        """Fetch one receipt and repaint its row."""
        assert self.fetch_receipt is not None
        try:
            receipt = await self.fetch_receipt(tx_hash)
        except RpcError:
            self._asked.discard(tx_hash)  # the cell stays "…" and is asked again when repainted
            return
        self._receipts[tx_hash] = receipt
        row = self._rows.get(tx_hash)
        if row is not None and row < self._shown:
            self.dataChanged.emit(self.index(row, Column.FEE), self.index(row, Column.STATUS))
        if receipt is not None and self.receipts is not None:
            self.receipts_completed.emit()
