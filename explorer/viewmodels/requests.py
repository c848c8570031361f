"""The Requests view: the last 500 requests (sent, or answered from saved data), filterable."""

from __future__ import annotations

import enum
import json
import time
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from explorer.presentation.document import Tone
from explorer.rpc.journal import KEEP, JournalEntry, RequestJournal
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.roles import TONE_ROLE
from explorer.viewmodels.shell import ShellViewModel

Index = QModelIndex | QPersistentModelIndex
HEADERS = ("Time", "Method", "Parameters", "Size", "Answered by", "Took")
PARAMETERS_SHOWN = 160  # characters of the parameters in the table (all of them when copied)


class Source(enum.Enum):
    """Which requests the view lists."""

    ALL = "All requests"
    NODE = "Sent to the node"
    CACHE = "From saved data"


def size_text(size: int) -> str:
    """Return a byte count as `812 B`, `4.2 kB`, `1.3 MB`."""
    if size < 1000:
        return f"{size} B"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB"
    return f"{size / 1_000_000:.1f} MB"


def cells(entry: JournalEntry) -> tuple[str, ...]:
    """Return an entry's row, as shown."""
    params = entry.params
    if len(params) > PARAMETERS_SHOWN:
        params = params[: PARAMETERS_SHOWN - 1] + "…"
    answered = "saved data" if entry.from_cache else "node"
    if entry.error:
        answered += f" ({entry.error})"
    return (
        time.strftime("%H:%M:%S", time.localtime(entry.at)),
        entry.method,
        params,
        size_text(entry.size) if entry.size else "—",
        answered,
        f"{entry.seconds * 1000:.0f} ms",
    )


class RequestsModel(QAbstractTableModel):
    """The journal's entries as rows, oldest first; new ones are appended as they are made."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.entries: list[JournalEntry] = []
        self._journal: RequestJournal | None = None

    def bind(self, journal: RequestJournal | None) -> None:
        """List another journal's entries (None: none)."""
        if journal is self._journal:
            return
        if self._journal is not None and self._on_entry in self._journal.listeners:
            self._journal.listeners.remove(self._on_entry)
        self._journal = journal
        self.beginResetModel()
        self.entries = journal.entries() if journal is not None else []
        self.endResetModel()
        if journal is not None:
            journal.listeners.append(self._on_entry)

    def _on_entry(self, entry: JournalEntry) -> None:
        """Append a new entry; beyond KEEP the oldest goes."""
        if len(self.entries) >= KEEP:
            self.beginRemoveRows(QModelIndex(), 0, 0)
            del self.entries[0]
            self.endRemoveRows()
        row = len(self.entries)
        self.beginInsertRows(QModelIndex(), row, row)
        self.entries.append(entry)
        self.endInsertRows()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of entries."""
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of columns."""
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text, its full parameters as tooltip, or its tone."""
        if not index.isValid():
            return None
        entry = self.entries[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return cells(entry)[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 2:
            return entry.params
        if role == TONE_ROLE:
            return Tone.BAD if entry.error else Tone.GOOD if entry.from_cache else Tone.NORMAL
        if role == Qt.ItemDataRole.UserRole:
            return entry
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Return the column titles."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def dispose(self) -> None:
        """Stop listening to the journal."""
        self.bind(None)


class RequestFilter(QSortFilterProxyModel):
    """Keeps the entries whose method or parameters contain the text, from the chosen source."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.text = ""
        self.source = Source.ALL

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        """Tell whether an entry matches the text and the source."""
        model = self.sourceModel()
        if not isinstance(model, RequestsModel):
            return True
        entry = model.entries[source_row]
        if self.source is Source.NODE and entry.from_cache:
            return False
        if self.source is Source.CACHE and not entry.from_cache:
            return False
        needle = self.text.lower()
        return not needle or needle in entry.method.lower() or needle in entry.params.lower()

    def choose(self, text: str | None = None, source: Source | None = None) -> None:
        """Filter by another text or source."""
        self.beginFilterChange()
        if text is not None:
            self.text = text
        if source is not None:
            self.source = source
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)


class RequestsViewModel(QObject):
    """The current session's journal (every session's, in the app), filtered; copy as JSON.

    Signals:
        shown_changed(): the rows shown (or their count) changed.
    """

    shown_changed = TypedSignal[()]()

    def __init__(self, shell: ShellViewModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.shell = shell
        self.requests = RequestsModel(self)
        self.shown = RequestFilter(self)
        self.shown.setSourceModel(self.requests)
        for signal in (self.shown.rowsInserted, self.shown.rowsRemoved, self.shown.modelReset):
            signal.connect(self.shown_changed)
        shell.session_changed.connect(self._bind)
        self._bind()

    def _bind(self) -> None:
        """Follow the current session's journal."""
        session = self.shell.session
        self.requests.bind(session.client.journal if session is not None else None)

    def set_text(self, text: str) -> None:
        """Show only entries whose method or parameters contain text."""
        self.shown.choose(text=text.strip())
        self.shown_changed.emit()

    def set_source(self, source: Source) -> None:
        """Show all entries, those sent to the node, or those answered from saved data."""
        self.shown.choose(source=source)
        self.shown_changed.emit()

    @property
    def summary(self) -> str:
        """Return `12 shown of 500 (3 from saved data)`."""
        entries = self.requests.entries
        cached = sum(1 for entry in entries if entry.from_cache)
        return (
            f"{self.shown.rowCount():,} shown of the last {len(entries):,} "
            f"({cached:,} answered from saved data)"
        )

    def shown_entries(self) -> list[JournalEntry]:
        """Return the entries shown, oldest first."""
        rows = range(self.shown.rowCount())
        return [self.shown.data(self.shown.index(row, 0), Qt.ItemDataRole.UserRole) for row in rows]

    def copy_json(self) -> str:
        """Return the entries shown as a JSON array (parameters whole, the key redacted)."""
        return json.dumps([entry.to_json() for entry in self.shown_entries()], indent=2)

    def dispose(self) -> None:
        """Stop listening."""
        self.requests.dispose()
