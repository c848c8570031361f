"""Labels and bookmarks of the current network: a lookup, list models, import and export."""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject

from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.services.label_entries import (
    MAX_TITLE,
    Bookmark,
    canonical_route,
    clean_text,
    default_title,
)
from explorer.services.labels import LabelStore, LabelStoreClosed, LabelStoreError, database_path
from explorer.services.labels_file import (
    ImportData,
    ImportFormatError,
    ImportReport,
    read_import_file,
    write_export_file,
)
from explorer.services.routes import Route
from explorer.viewmodels.label_models import BookmarksModel, LabelsTableModel
from explorer.viewmodels.observable import TypedSignal, qproperty

T = TypeVar("T")
EXPECTED = (LabelStoreError, ImportFormatError, ValueError, OSError)
NOT_OPEN = "Labels and bookmarks are not available until a network is open."
IMPORT_CANCELLED = "Import cancelled; nothing was changed."


class Overwrite(enum.Enum):
    """The user's answer when an import differs from existing entries."""

    REPLACE = "replace"
    KEEP = "keep"
    CANCEL = "cancel"


ChooseFile = Callable[[], Path | None]  # which file (None: the user changed their mind)
ChooseOverwrite = Callable[[int], Overwrite]  # what to do with this many differing entries


class LabelsViewModel(QObject):
    """The user's labels (a dict-like lookup by address) and bookmarks for the open network.

    Every database call runs off the GUI thread (see services.labels); the lookup reads
    an in-memory copy, so widgets can ask for labels while painting.

    The import flow (which file, read it, ask before replacing differing entries, merge,
    report) and the export flow run here; a view only supplies the questions to the user.

    Signals:
        labels_changed(): labels were added, changed or removed, or the network changed.
        message_changed(str): the outcome of an import/export or an error, for the user.
    """

    labels_changed = TypedSignal[()]()
    message_changed = TypedSignal[str]()

    def __init__(self, directory: Path | None = None, parent: QObject | None = None) -> None:
        """Keep databases under directory (default: the platform's user data dir)."""
        super().__init__(parent)
        self.directory = directory
        self.network_id: str | None = None
        self.chain_id: int | None = None
        self._message = ""
        self.bookmarks = BookmarksModel(self)
        self.table = LabelsTableModel(self)
        self._labels: dict[str, str] = {}
        self._store: LabelStore | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def _get_message(self) -> str:
        """Return the latest outcome or error for the user."""
        return self._message

    message = qproperty(_get_message, message_changed)

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

    @staticmethod
    def can_bookmark(route: Route) -> bool:
        """Tell whether a route's page can be bookmarked (a block, transaction or address)."""
        return bookmarkable(route) is not None

    def is_bookmarked(self, route: Route) -> bool:
        """Tell whether a route is bookmarked."""
        canonical = bookmarkable(route)
        return canonical is not None and any(
            b.route == canonical for b in self.bookmarks.bookmarks()
        )

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

    def export_asking(self, ask_path: ChooseFile) -> asyncio.Task[str | None] | None:
        """Ask where to save, then export; None when the user gave no file."""
        path = ask_path()
        return None if path is None else self.export_to(path)

    def import_asking(
        self, ask_path: ChooseFile, ask_overwrite: ChooseOverwrite
    ) -> asyncio.Task[ImportReport | None] | None:
        """Ask which file, read and validate it, merge it, and report the counts.

        Differing entries are replaced only when the user agrees. None when the user gave no
        file.
        """
        path = ask_path()
        return None if path is None else self._spawn(self._import_file(path, ask_overwrite))

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
        except LabelStoreClosed:
            return  # a quicker switch to another network closed it: that one is shown
        except LabelStoreError:
            if store is self._store:
                self._store = None
            raise
        await self._reload(store)

    async def _reload(self, store: LabelStore) -> None:
        """Reload the in-memory copy from the store, if it is still the current one."""
        try:
            labels, bookmarks = await store.labels(), await store.bookmarks()
        except LabelStoreClosed:
            return  # replaced by another network's meanwhile
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
        canonical = canonical_route(route)
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
        await store.remove_bookmark(canonical_route(route))
        await self._reload(store)

    async def _export(self, path: Path) -> str:
        """Write the export file atomically and say what it holds."""
        store = self._current()
        labels, bookmarks = await store.labels(), await store.bookmarks()
        await asyncio.to_thread(
            write_export_file, path, labels, bookmarks, self.network_id or "", self.chain_id
        )
        message = f"Exported {len(labels)} labels and {len(bookmarks)} bookmarks to {path.name}."
        self._set_message(message)
        return message

    async def _import_file(self, path: Path, ask_overwrite: ChooseOverwrite) -> ImportReport | None:
        """Read a file, ask about its differing entries (if any), then merge it."""
        data = await asyncio.to_thread(read_import_file, path)
        conflicts = self.conflicts(data)
        answer = ask_overwrite(conflicts) if conflicts else Overwrite.KEEP
        if answer is Overwrite.CANCEL:
            self._set_message(IMPORT_CANCELLED)
            return None
        return await self._import(data, overwrite=answer is Overwrite.REPLACE)

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
        self._message = text
        self.message_changed.emit(text)


def bookmarkable(route: Route) -> Route | None:
    """Return a route's bookmarkable form, or None when its page cannot be bookmarked."""
    try:
        return canonical_route(route)
    except ValueError:
        return None
