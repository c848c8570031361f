"""The Settings dialog's choice of where API keys are kept: the settings file or the keyring."""

from __future__ import annotations

import asyncio
import enum
from typing import Protocol

from PySide6.QtCore import QObject

from explorer.services.keystore import KeyringStatus, KeyStoreError
from explorer.viewmodels.observable import TypedSignal, qproperty


class KeySafe(Protocol):
    """Where keys are kept; explorer.settings.store.Settings is one."""

    @property
    def path(self) -> str:
        """Return where the settings file is."""

    def keys_in_keyring(self) -> bool:
        """Tell whether the keys are in the keyring."""

    def keyring_status(self) -> KeyringStatus:
        """Tell whether a keyring is available (may block)."""

    def set_keys_in_keyring(self, in_keyring: bool) -> None:
        """Move the keys to the keyring or back; KeyStoreError when refused."""


class KeyringState(enum.Enum):
    """Whether a system keyring can be offered."""

    CHECKING = "checking"
    AVAILABLE = "available"
    UNAVAILABLE = "unavailable"


class KeyringOptionViewModel(QObject):
    """The keyring option as a draft until apply(); offered only where a keyring answers.

    Signals:
        changed(): the state, the note or the drafted choice changed.
    """

    changed = TypedSignal[()]()

    def __init__(self, safe: KeySafe | None, parent: QObject | None = None) -> None:
        """Draft the saved choice; look for a keyring off the GUI thread (it may block)."""
        super().__init__(parent)
        self._safe = safe
        self._saved = safe.keys_in_keyring() if safe is not None else False
        self._chosen = self._saved
        self._status: KeyringStatus | None = None
        self._error = ""
        self._probe: asyncio.Future[None] | None = None
        if safe is not None:
            self._probe = asyncio.ensure_future(self._look_for_keyring(safe))

    async def _look_for_keyring(self, safe: KeySafe) -> None:
        """Ask the keyring package for a backend in a worker thread."""
        self._status = await asyncio.to_thread(safe.keyring_status)
        self._probe = None
        self.changed.emit()

    def _get_state(self) -> KeyringState:
        """Return whether the option can be offered."""
        if self._safe is None or (self._status is not None and not self._status.available):
            return KeyringState.UNAVAILABLE
        return KeyringState.CHECKING if self._status is None else KeyringState.AVAILABLE

    def _get_chosen(self) -> bool:
        """Tell whether the draft keeps the keys in the keyring."""
        return self._chosen

    def _get_note(self) -> str:
        """Return the line under the option: where keys are kept, or why there is no choice."""
        if self._error:
            return self._error
        state = self.state
        where = f" {self._safe.path}" if self._safe is not None else ""
        if state is KeyringState.CHECKING:
            return "Looking for a system keyring…"
        if state is KeyringState.UNAVAILABLE:
            reason = self._status.reason if self._status else "no settings store"
            return (
                f"Not available: {reason}. API keys stay in the settings file{where}, which "
                "only you can read."
            )
        backend = self._status.backend if self._status else ""
        if self._chosen:
            return f"Keys go to {backend}; the settings file keeps only a reference to each."
        return f"Keys stay in the settings file{where}, which only you can read ({backend} found)."

    state = qproperty(_get_state, changed)
    chosen = qproperty(_get_chosen, changed)
    note = qproperty(_get_note, changed)

    def choose(self, in_keyring: bool) -> None:
        """Draft where the keys go (saved by apply)."""
        if in_keyring != self._chosen:
            self._chosen = in_keyring
            self._error = ""
            self.changed.emit()

    def apply(self) -> bool:
        """Move the keys as drafted; on a refusal say why and return False."""
        if self._safe is None or self._chosen == self._saved:
            return True
        try:
            self._safe.set_keys_in_keyring(self._chosen)
        except KeyStoreError as error:
            self._error = f"Keys not moved: {error}"
            self.changed.emit()
            return False
        self._saved = self._chosen
        return True

    def dispose(self) -> None:
        """Stop looking for a keyring (the dialog closes)."""
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None
