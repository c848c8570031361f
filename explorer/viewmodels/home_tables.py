"""The home page's two tables: the latest blocks and the latest transactions, newest first."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt

from explorer.chain.checksum import to_checksum_address
from explorer.chain.known import REMASC, known_label
from explorer.chain.records import Block, Transaction
from explorer.chain.units import format_rbtc, readable_rbtc
from explorer.presentation.document import Tone
from explorer.presentation.format import age, exact_tooltip
from explorer.services.routes import Route, address_route, block_route, tx_route
from explorer.viewmodels.batched_table import Index
from explorer.viewmodels.roles import COPY_ROLE, ROUTE_ROLE, TONE_ROLE
from explorer.viewmodels.sorting import Key, SortOrder, sorted_rows

R = TypeVar("R")


@dataclass(frozen=True)
class Cell:
    """One cell: its text, where a click leads, its tooltip and tone."""

    text: str
    route: Route | None = None
    tooltip: str | None = None
    tone: Tone = Tone.NORMAL
    exact: str | None = None  # what Copy gives when the text rounds it (an amount)


class RowsModel(QAbstractTableModel, Generic[R]):
    """A small table of rows, replaced whole; cells come from `cell(row, column)`, made once.

    A repaint asks each cell for several roles; the cells are made on first ask and kept
    until the rows change (or their column is refreshed: the ages tick).
    """

    headers: tuple[str, ...] = ()
    header_tips: tuple[str | None, ...] = ()  # what a short title means, by column
    default_sort = SortOrder()  # newest first (subclasses name their time column)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[R] = []
        self._cells: dict[tuple[int, int], Cell] = {}
        self.sorting = SortOrder()

    def set_rows(self, rows: Sequence[R]) -> None:
        """Show these rows (in the order chosen by a header click, if any)."""
        self.beginResetModel()
        self.rows = self._ordered(rows)
        self._cells.clear()
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the rows by a column (a header click)."""
        self.sorting = SortOrder.of(column, order)
        self.set_rows(self.rows)

    def _ordered(self, rows: Sequence[R]) -> list[R]:
        """Return rows in the chosen order."""
        column, descending = self.sorting.column, self.sorting.descending
        if column < 0:
            return list(rows)
        return sorted_rows(rows, lambda row: self.sort_key(row, column), descending)

    def sort_key(self, row: R, column: int) -> Key:
        """Return a row's key in a column (subclasses)."""
        raise NotImplementedError

    def refresh_column(self, column: int) -> None:
        """Remake and repaint one column (the ages tick)."""
        if self.rows:
            for row in range(len(self.rows)):
                self._cells.pop((row, column), None)
            self.dataChanged.emit(self.index(0, column), self.index(len(self.rows) - 1, column))

    def cell(self, row: R, column: int) -> Cell:
        """Return one cell (subclasses)."""
        raise NotImplementedError

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of rows."""
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of columns."""
        return 0 if parent.isValid() else len(self.headers)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Return the column titles, and what a short one means on hover."""
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.header_tips[section] if section < len(self.header_tips) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text, tooltip, route or tone."""
        read = READERS.get(role)
        if read is None or not index.isValid() or index.row() >= len(self.rows):
            return None
        key = (index.row(), index.column())
        cell = self._cells.get(key)
        if cell is None:
            cell = self._cells[key] = self.cell(self.rows[index.row()], index.column())
        return read(cell)


READERS: dict[int, Callable[[Cell], Any]] = {
    Qt.ItemDataRole.DisplayRole: lambda cell: cell.text,
    Qt.ItemDataRole.ToolTipRole: lambda cell: cell.tooltip,
    ROUTE_ROLE: lambda cell: cell.route,
    TONE_ROLE: lambda cell: cell.tone,
    COPY_ROLE: lambda cell: cell.exact,
}


@dataclass(frozen=True)
class BlockRow:
    """A block shown, and the hash of the block it replaced (a reorganisation), if any."""

    block: Block
    replaced: str | None = None


class LatestBlocksModel(RowsModel[BlockRow]):
    """The newest blocks first; a replaced block is marked with the hash it replaced."""

    headers = ("Block", "Age", "Txs", "Gas", "Miner", "Note")
    AGE = 1
    NOTE = 5
    header_tips = (None, None, "Transactions in the block", "Gas used, share of the block's limit")
    default_sort = SortOrder(0)

    def __init__(self, chain_id: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chain_id = chain_id

    @property
    def has_notes(self) -> bool:
        """Tell whether a block shown was replaced (a reorganisation): the Note column shows."""
        return any(row.replaced is not None for row in self.rows)

    @property
    def blocks(self) -> list[Block]:
        """Return the blocks shown, newest first."""
        return [row.block for row in self.rows]

    def cell(self, row: BlockRow, column: int) -> Cell:
        """Return one cell of a block's row."""
        block = row.block
        route = block_route(block.number if block.number is not None else str(block.hash))
        if column == 0:
            return Cell(f"{block.number:,}", route, block.hash)
        if column == 1:
            return Cell(age(time.time() - block.timestamp), route)
        if column == 2:
            return Cell(f"{len(block.transaction_hashes):,}", route)
        if column == 3:
            share = block.gas_used / block.gas_limit if block.gas_limit else 0.0
            return Cell(f"{share:.1%}", route, f"{block.gas_used:,} of {block.gas_limit:,} gas")
        if column == 4:
            return self._miner(block)
        return self._note(row, route)

    def sort_key(self, row: BlockRow, column: int) -> Key:
        """Return a block's key in a column (its number breaks ties)."""
        block = row.block
        keys = (
            block.number,
            block.timestamp,
            len(block.transaction_hashes),
            block.gas_used / block.gas_limit if block.gas_limit else 0.0,
            self._miner(block).text.casefold(),
            row.replaced or "",
        )
        return (keys[column], block.number or 0)

    def _note(self, row: BlockRow, route: Route) -> Cell:
        """Return the note: the hash a reorganisation replaced, if any."""
        if row.replaced is None:
            return Cell("", route)
        short = row.replaced[:10] + "…" + row.replaced[-4:]
        return Cell(
            f"reorganised, was {short}",
            block_route(row.replaced),
            f"This height's block changed: it was {row.replaced}",
            Tone.BAD,
        )

    def _miner(self, block: Block) -> Cell:
        """Return the miner in the chain's checksum, with its label if known."""
        if block.miner is None:
            return Cell("—")
        label = known_label(block.miner, self._chain_id)
        shown = to_checksum_address(block.miner, self._chain_id)
        return Cell(f"{label} ({shown})" if label else shown, address_route(block.miner), shown)


@dataclass(frozen=True)
class TxRow:
    """A transaction shown, with its block's time."""

    tx: Transaction
    timestamp: int


class LatestTransactionsModel(RowsModel[TxRow]):
    """The newest transactions first (REMASC's left out: every block has one)."""

    headers = ("Transaction", "Age", "From", "To", "Value")
    AGE = 1
    default_sort = SortOrder(AGE)

    def __init__(self, chain_id: int, currency: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chain_id = chain_id
        self._currency = currency

    def cell(self, row: TxRow, column: int) -> Cell:
        """Return one cell of a transaction's row."""
        tx = row.tx
        if column == 0:
            return Cell(tx.hash, tx_route(tx.hash), tx.hash)
        if column == 1:
            block = f"block #{tx.block_number:,}" if tx.block_number is not None else ""
            return Cell(age(time.time() - row.timestamp), tx_route(tx.hash), block)
        if column == 2:
            return self._address(tx.sender)
        if column == 3:
            if tx.to is None:
                return Cell("(contract creation)", tx_route(tx.hash))
            return self._address(tx.to)
        return Cell(
            readable_rbtc(tx.value, self._currency),
            tx_route(tx.hash),
            exact_tooltip(tx.value, self._currency),
            exact=format_rbtc(tx.value, self._currency),
        )

    def sort_key(self, row: TxRow, column: int) -> Key:
        """Return a transaction's key in a column (newest first among equals)."""
        tx = row.tx
        keys = (
            tx.hash,
            row.timestamp,
            tx.sender,
            tx.to or "",
            tx.value,
        )
        return (keys[column], row.timestamp, tx.block_number or 0, tx.transaction_index or 0)

    def _address(self, address: str) -> Cell:
        """Return an address cell in the chain's checksum."""
        shown = to_checksum_address(address, self._chain_id)
        return Cell(shown, address_route(address), shown)


def latest_transactions(blocks: Sequence[Block], limit: int) -> list[TxRow]:
    """Return up to limit transactions of the blocks read in full, newest block first."""
    rows: list[TxRow] = []
    for block in blocks:
        if block.transactions is None:
            continue
        for tx in block.transactions.well_formed(newest_first=True):
            if tx.to == REMASC:
                continue
            rows.append(TxRow(tx, block.timestamp))
            if len(rows) >= limit:
                return rows
    return rows
