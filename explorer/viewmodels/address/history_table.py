"""The History table: entries as rows, sortable by any column, filtered by kind and asset.

Rows keep their arrival order in the source model; the filter model sorts them (newest first
by default) through sort keys that Qt compares in C++ (zero-padded strings for numbers that
do not fit 64 bits), so that rows streaming in stay cheap to place and to paint.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

from explorer.chain.checksum import to_checksum_address
from explorer.chain.history import NATIVE, EntryKind, HistoryEntry
from explorer.chain.known import known_label
from explorer.presentation.history_text import (
    amount_text,
    inside_text,
    kind_text,
    rbtc_text,
    time_text,
)
from explorer.services.routes import Route, address_route, block_route, tx_route
from explorer.viewmodels.roles import COPY_ROLE, ROUTE_ROLE

Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole + 10
OFFSET = 1 << 255  # signed amounts as non-negative numbers that sort as text
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class Column(enum.IntEnum):
    """The table's columns."""

    TIME = 0
    BLOCK = 1
    KIND = 2
    COUNTERPARTY = 3
    AMOUNT = 4
    FEE = 5
    BALANCE = 6
    TX = 7


HEADERS = ("Time (UTC)", "Block", "Kind", "Counterparty", "Amount", "Fee", "Balance after", "Tx")
NUMERIC = frozenset({Column.BLOCK, Column.AMOUNT, Column.FEE, Column.BALANCE})


def padded(number: int) -> str:
    """Return a number (any sign, any size) as text that sorts like the number."""
    return f"{number + OFFSET:0>80d}"


def place_key(entry: HistoryEntry) -> str:
    """Return the entry's place in the chain as sortable text."""
    block, order, log_index = entry.sort_key
    return f"{block:012d}{min(order, (1 << 32) - 1):010d}{log_index:08d}"


class HistoryTableModel(QStandardItemModel):
    """The entries found so far; `add` inserts new ones and updates known ones in place.

    Each cell is a QStandardItem holding its text, sort key, tooltip and route, made once
    when its entry arrives: a paint asks every visible cell for a dozen roles, answered in
    C++ without calling back into Python.
    """

    def __init__(self, chain_id: int, currency: str, parent: QObject | None = None) -> None:
        super().__init__(0, len(HEADERS), parent)
        headers = dict(enumerate(HEADERS))
        headers[Column.FEE] = f"Fee ({currency})"  # always the chain's coin: said once, above
        self.setHorizontalHeaderLabels(list(headers.values()))
        self.chain_id = chain_id
        self.currency = currency
        self.entries: list[HistoryEntry] = []
        self.units: dict[str, tuple[int, str]] = {}
        self.labels: dict[str, str] = {}
        self._rows: dict[tuple[object, ...], int] = {}

    def clear(self) -> None:
        """Remove every entry (the headers stay)."""
        self.removeRows(0, self.rowCount())
        self.entries, self._rows = [], {}

    def add(self, entries: Iterable[HistoryEntry]) -> None:
        """Insert entries not shown yet and update those already shown."""
        for entry in entries:
            row = self._rows.get(entry.identity)
            if row is None:
                self._rows[entry.identity] = len(self.entries)
                self.entries.append(entry)
                self.appendRow(self.items(entry))
            elif self.entries[row] != entry:
                self.entries[row] = entry
                self._refresh(row, range(len(HEADERS)))

    def explain(self, entries: Iterable[HistoryEntry], blocks: Iterable[int]) -> list[HistoryEntry]:
        """Put explained entries in the rows of their blocks' provisional ones (no row moves).

        Return the entries left to add: a block's entries beyond its one provisional row, and
        entries of blocks that had none. A provisional row no entry took is removed.
        """
        rows = {e.block: i for i, e in enumerate(self.entries) if e.provisional}
        rest = []
        for entry in entries:
            row = rows.pop(entry.block, None) if entry.is_native else None
            if row is None:
                rest.append(entry)
                continue
            del self._rows[self.entries[row].identity]
            self._rows[entry.identity] = row
            self.entries[row] = entry
            self._refresh(row, range(len(HEADERS)))
        empty = sorted((row for block, row in rows.items() if block in set(blocks)), reverse=True)
        for row in empty:
            self.removeRow(row)
            del self.entries[row]
        if empty:
            self._rows = {entry.identity: row for row, entry in enumerate(self.entries)}
        return rest

    def items(self, entry: HistoryEntry) -> list[QStandardItem]:
        """Return the cells of one entry's row."""
        row = []
        for column in Column:
            item = QStandardItem()
            item.setEditable(False)
            self._fill(item, entry, column)
            if column in NUMERIC:
                item.setTextAlignment(RIGHT)
            row.append(item)
        return row

    def _fill(self, item: QStandardItem, entry: HistoryEntry, column: Column) -> None:
        """Set a cell's text, sort key, tooltip and route."""
        item.setText(self.text(entry, column))
        item.setData(self.sort_key(entry, column), SORT_ROLE)
        item.setToolTip(self.tooltip(entry, column))
        if column in (Column.AMOUNT, Column.FEE, Column.BALANCE):
            item.setData(self.tooltip(entry, column).partition("\n")[0], COPY_ROLE)
        route = self.route(entry, column)
        if route is not None:
            item.setData(route, ROUTE_ROLE)

    def _refresh(self, row: int, columns: Iterable[int]) -> None:
        """Fill cells of a row again from its entry."""
        for column in columns:
            item = self.item(row, column)
            if item is not None:
                self._fill(item, self.entries[row], Column(column))

    def set_units(self, units: Mapping[str, tuple[int, str]]) -> None:
        """Learn tokens' decimals and symbols and redraw the amounts."""
        if not units.items() <= self.units.items():
            self.units.update(units)
            for row, entry in enumerate(self.entries):
                if not entry.is_native:
                    self._refresh(row, (Column.AMOUNT,))

    def label(self, address: str | None) -> str:
        """Return an address's label (the user's, else a well-known one), or ''."""
        if address is None:
            return ""
        return self.labels.get(address) or known_label(address, self.chain_id) or ""

    def text(self, entry: HistoryEntry, column: Column) -> str:
        """Return the text of one cell."""
        if column is Column.TIME:
            return time_text(entry.timestamp).removesuffix(" UTC")  # the title says UTC
        if column is Column.BLOCK:
            return f"{entry.block:,}"
        if column is Column.KIND:
            return kind_text(entry)
        if column is Column.COUNTERPARTY:
            other = entry.counterparty
            label = self.label(other)
            shown = to_checksum_address(other, self.chain_id) if other else "—"
            return f"{label} · {shown}" if label else shown
        if column is Column.AMOUNT:
            return amount_text(entry, self.units, self.currency)
        if column is Column.FEE:  # its unit in the title leaves the addresses their room
            return rbtc_text(entry.fee, self.currency).removesuffix(f" {self.currency}")
        if column is Column.BALANCE:
            return rbtc_text(entry.balance_after, self.currency)
        return entry.tx_hash or ""

    def sort_key(self, entry: HistoryEntry, column: Column) -> Any:
        """Return what a column sorts by (ties keep the chain's order)."""
        if column is Column.TIME:
            return f"{entry.timestamp or 0:012d}{place_key(entry)}"
        if column is Column.BLOCK:
            return place_key(entry)
        if column is Column.KIND:
            return f"{entry.kind.value}{place_key(entry)}"
        if column is Column.COUNTERPARTY:
            return f"{self.label(entry.counterparty)}{entry.counterparty or ''}"
        if column is Column.AMOUNT:
            return padded(entry.signed_amount + (entry.fee or 0))
        if column is Column.FEE:
            return padded(entry.fee or 0)
        if column is Column.BALANCE:
            return padded(entry.balance_after if entry.balance_after is not None else -1)
        return entry.tx_hash or ""

    def tooltip(self, entry: HistoryEntry, column: Column) -> str:
        """Return a cell's tooltip: the whole address or hash, exact amounts, the asset."""
        if column is Column.COUNTERPARTY and entry.counterparty:
            return to_checksum_address(entry.counterparty, self.chain_id)
        if column is Column.AMOUNT:
            exact = amount_text(entry, self.units, self.currency, exact=True)
            if entry.is_native:
                return f"{exact}\n{entry.amount:,} wei"
            return f"{exact}\ntoken {to_checksum_address(entry.asset, self.chain_id)}"
        if column is Column.FEE:
            return rbtc_text(entry.fee, self.currency, exact=True)
        if column is Column.BALANCE:
            return rbtc_text(entry.balance_after, self.currency, exact=True)
        if column is Column.KIND and entry.kind is EntryKind.CONTRACT:
            found = inside_text(entry, self.currency, self.chain_id, self.label(entry.counterparty))
            return (
                found[:1].upper() + found[1:] + "."
                if found
                else "Value moved inside a contract's execution: no transaction of this address."
            )
        return self.text(entry, column)

    @staticmethod
    def route(entry: HistoryEntry, column: Column) -> Route | None:
        """Return where a cell links to."""
        if column is Column.BLOCK:
            return block_route(entry.block)
        if column is Column.TX and entry.tx_hash:
            return tx_route(entry.tx_hash)
        if column is Column.COUNTERPARTY and entry.counterparty:
            return address_route(entry.counterparty)
        if column is Column.AMOUNT and not entry.is_native:
            return address_route(entry.asset)
        return None


class HistoryFilter(QSortFilterProxyModel):
    """Sorts the History table and shows only the chosen kind and asset (None: all)."""

    def __init__(self, source: HistoryTableModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.table = source
        self.kind: EntryKind | None = None
        self.asset: str | None = None
        self.setSourceModel(source)
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)
        self.sort(Column.BLOCK, Qt.SortOrder.DescendingOrder)

    def choose(self, kind: EntryKind | None, asset: str | None) -> None:
        """Show only entries of this kind and asset (None: any)."""
        self.beginFilterChange()
        self.kind, self.asset = kind, asset
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        """Keep rows of the chosen kind and asset."""
        entry = self.table.entries[source_row]
        return (self.kind is None or entry.kind is self.kind) and (
            self.asset is None or entry.asset == self.asset
        )

    def shown(self) -> list[HistoryEntry]:
        """Return the entries shown, in the order shown."""
        rows = (self.mapToSource(self.index(row, 0)).row() for row in range(self.rowCount()))
        return [self.table.entries[row] for row in rows]


def assets_of(entries: Sequence[HistoryEntry]) -> list[str]:
    """Return the assets of entries: RBTC first, then the tokens in order of appearance."""
    tokens = dict.fromkeys(entry.asset for entry in entries if entry.asset != NATIVE)
    return [NATIVE, *tokens] if any(e.asset == NATIVE for e in entries) else list(tokens)
