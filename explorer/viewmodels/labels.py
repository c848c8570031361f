"""Labels and bookmarks of the current network: a lookup, list models, import/export."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from explorer.chain.checksum import to_checksum_address
from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.services.labels import (
    MAX_TITLE,
    Bookmark,
    ImportData,
    ImportFormatError,
    ImportReport,
    LabelStore,
    LabelStoreError,
    canonical_route,
    clean_text,
    database_path,
    default_title,
    export_text,
    read_import_file,
)
from explorer.services.routes import Route, address_route
from explorer.viewmodels.roles import ROUTE_ROLE

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex
EXPECTED = (LabelStoreError, ImportFormatError, ValueError, OSError)
NOT_OPEN = "Labels and bookmarks are not available until a network is open."


class BookmarksModel(QAbstractListModel):
    """The bookmarks, newest first: title shown, route as tooltip and in ROUTE_ROLE."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bookmarks: list[Bookmark] = []

    def set_bookmarks(self, bookmarks: list[Bookmark]) -> None:
        """Replace every row."""
        self.beginResetModel()
        self._bookmarks = list(bookmarks)
        self.endResetModel()

    def bookmarks(self) -> list[Bookmark]:
        """Return the rows' bookmarks."""
        return list(self._bookmarks)

    def bookmark(self, row: int) -> Bookmark:
        """Return one row's bookmark."""
        return self._bookmarks[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of bookmarks."""
        return 0 if parent.isValid() else len(self._bookmarks)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a row's title, route tooltip or route."""
        if not index.isValid() or not 0 <= index.row() < len(self._bookmarks):
            return None
        bookmark = self._bookmarks[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return bookmark.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return bookmark.route
        if role == ROUTE_ROLE:
            return Route.parse(bookmark.route)
        return None


class LabelsTableModel(QAbstractTableModel):
    """Every label as a row (label, address in the chain's checksum), in the given order."""

    HEADERS = ("Label", "Address")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, str]] = []
        self._chain_id: int | None = None

    def set_labels(self, labels: dict[str, str], chain_id: int | None) -> None:
        """Replace every row (the store hands them over sorted by label)."""
        self.beginResetModel()
        self._rows = list(labels.items())
        self._chain_id = chain_id
        self.endResetModel()

    def address(self, row: int) -> str:
        """Return a row's canonical address."""
        return self._rows[row][0]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of labels."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of columns."""
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Return the column titles."""
        horizontal = orientation == Qt.Orientation.Horizontal
        if role == Qt.ItemDataRole.DisplayRole and horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text, or the row's address route."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        address, label = self._rows[index.row()]
        if role == ROUTE_ROLE:
            return address_route(address)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return label if index.column() == 0 else to_checksum_address(address, self._chain_id)
        return None


class LabelsViewModel(QObject):
    """The user's labels (a dict-like lookup by address) and bookmarks for the open network.

    Every database call runs off the GUI thread (see services.labels); the lookup reads
    an in-memory copy, so widgets can ask for labels while painting.

    Signals:
        labels_changed(): labels were added, changed or removed, or the network changed.
        message_changed(str): the outcome of an import/export or an error, for the user.
    """

    labels_changed = Signal()
    message_changed = Signal(str)

    def __init__(self, directory: Path | None = None, parent: QObject | None = None) -> None:
        """Keep databases under directory (default: the platform's user data dir)."""
        super().__init__(parent)
        self.directory = directory
        self.network_id: str | None = None
        self.chain_id: int | None = None
        self.message = ""
        self.bookmarks = BookmarksModel(self)
        self.table = LabelsTableModel(self)
        self._labels: dict[str, str] = {}
        self._store: LabelStore | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def is_open(self) -> bool:
        """Tell whether a network's database is open (or opening)."""
        return self._store is not None

    # the dict-like lookup

    def get(self, address: str, default: str | None = None) -> str | None:
        """Return the user's label of an address (any letter case), or default."""
        return self._labels.get(address.lower(), default)

    def __getitem__(self, address: str) -> str:
        """Return the label of an address; KeyError when it has none."""
        return self._labels[address.lower()]

    def __contains__(self, address: object) -> bool:
        """Tell whether an address has a label."""
        return isinstance(address, str) and address.lower() in self._labels

    def __iter__(self) -> Iterator[str]:
        """Iterate over the labelled addresses (canonical lowercase)."""
        return iter(dict(self._labels))

    def __len__(self) -> int:
        """Return how many addresses have a label."""
        return len(self._labels)

    def is_bookmarked(self, route: Route) -> bool:
        """Tell whether a route is bookmarked."""
        try:
            canonical = canonical_route(str(route))
        except ValueError:
            return False
        return any(b.route == canonical for b in self.bookmarks.bookmarks())

    # commands

    def open_network(self, network_id: str, chain_id: int | None) -> asyncio.Task[None]:
        """Switch to a network's database (closing the previous one) and load it."""
        self.network_id, self.chain_id = network_id, chain_id
        old, self._store = self._store, LabelStore(database_path(network_id, self.directory))
        self._set_cache({}, [])
        return self._spawn(self._open(self._store, old))

    def set_label(self, address: str, text: str) -> asyncio.Task[None]:
        """Save an address's label (empty text removes it)."""
        return self._spawn(self._set_label(address, text))

    def add_bookmark(self, route: Route, title: str | None = None) -> asyncio.Task[None]:
        """Bookmark a route (with a default title), or retitle its bookmark."""
        return self._spawn(self._save_bookmark(route, title))

    def remove_bookmark(self, route: Route) -> asyncio.Task[None]:
        """Remove a route's bookmark."""
        return self._spawn(self._remove_bookmark(route))

    def export_to(self, path: Path) -> asyncio.Task[str | None]:
        """Write every label and bookmark as JSON; the task returns the message."""
        return self._spawn(self._export(path))

    def read_import(self, path: Path) -> asyncio.Task[ImportData | None]:
        """Read and validate an import file (nothing is imported yet)."""
        return self._spawn(asyncio.to_thread(read_import_file, path))

    def conflicts(self, data: ImportData) -> int:
        """Return how many entries of an import differ from the user's existing ones."""
        titles = {b.route: b.title for b in self.bookmarks.bookmarks()}
        changed = [self._labels.get(a) not in (None, label) for a, label in data.labels.items()]
        changed += [titles.get(r) not in (None, b.title) for r, b in data.bookmarks.items()]
        return sum(changed)

    def apply_import(self, data: ImportData, overwrite: bool) -> asyncio.Task[ImportReport | None]:
        """Merge an import; differing entries replace the user's only when overwrite."""
        return self._spawn(self._import(data, overwrite))

    async def aclose(self) -> None:
        """Finish pending work and close the database."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        store, self._store = self._store, None
        if store is not None:
            await store.aclose()

    # work

    def _spawn(self, coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T | None]:
        """Run a command as a task the model owns; expected errors become the message."""

        async def guarded() -> T | None:
            try:
                return await coroutine
            except EXPECTED as error:
                self._set_message(str(error) or type(error).__name__)
                return None

        task = asyncio.ensure_future(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda _: coroutine.close())  # never started: no warning
        return task

    def _current(self) -> LabelStore:
        """Return the open store; LabelStoreError when there is none."""
        if self._store is None:
            raise LabelStoreError(NOT_OPEN)
        return self._store

    async def _open(self, store: LabelStore, old: LabelStore | None) -> None:
        """Close the previous database, open the new one and load it."""
        if old is not None:
            await old.aclose()
        try:
            await store.open()
        except LabelStoreError:
            if store is self._store:
                self._store = None
            raise
        await self._reload(store)

    async def _reload(self, store: LabelStore) -> None:
        """Reload the in-memory copy from the store, if it is still the current one."""
        labels, bookmarks = await store.labels(), await store.bookmarks()
        if store is self._store:
            self._set_cache(labels, bookmarks)

    def _set_cache(self, labels: dict[str, str], bookmarks: list[Bookmark]) -> None:
        """Replace the in-memory copy and tell the widgets."""
        self._labels = labels
        self.table.set_labels(labels, self.chain_id)
        self.bookmarks.set_bookmarks(bookmarks)
        self.labels_changed.emit()

    async def _set_label(self, address: str, text: str) -> None:
        """Write a label, then update the copy."""
        store = self._current()
        try:
            canonical = parse_address(address)
        except HexFormatError as error:
            raise ValueError(f"Cannot label {address!r}: {error}") from None
        await store.set_label(canonical, text)
        await self._reload(store)

    async def _save_bookmark(self, route: Route, title: str | None) -> None:
        """Write a bookmark, then update the list."""
        store = self._current()
        canonical = canonical_route(str(route))
        text = clean_text(title or "", MAX_TITLE, "title") or default_title(
            canonical, self.chain_id
        )
        existing = next((b for b in self.bookmarks.bookmarks() if b.route == canonical), None)
        created = existing.created if existing is not None else time.time()
        await store.save_bookmark(Bookmark(canonical, text, created))
        await self._reload(store)

    async def _remove_bookmark(self, route: Route) -> None:
        """Delete a bookmark, then update the list."""
        store = self._current()
        await store.remove_bookmark(canonical_route(str(route)))
        await self._reload(store)

    async def _export(self, path: Path) -> str:
        """Write the export file atomically and say what it holds."""
        store = self._current()
        labels, bookmarks = await store.labels(), await store.bookmarks()
        text = await asyncio.to_thread(
            export_text, labels, bookmarks, self.network_id or "", self.chain_id
        )
        await asyncio.to_thread(_write_atomically, path, text)
        message = f"Exported {len(labels)} labels and {len(bookmarks)} bookmarks to {path.name}."
        self._set_message(message)
        return message

    async def _import(self, data: ImportData, overwrite: bool) -> ImportReport:
        """Merge the import, reload, and report the counts."""
        store = self._current()
        report = await store.import_data(data, overwrite=overwrite)
        await self._reload(store)
        message = report.summary()
        if data.network and data.network != self.network_id:
            message += f"\nThe file was exported from network {data.network!r}."
        self._set_message(message)
        return report

    def _set_message(self, text: str) -> None:
        """Publish a message for the user."""
        self.message = text
        self.message_changed.emit(text)


def _write_atomically(path: Path, text: str) -> None:
    """Write text to path through a temporary file in the same directory (blocking)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
