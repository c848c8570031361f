"""A keyring backend in memory, installed with keyring's own `set_keyring` for a test."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import keyring
from keyring.backend import KeyringBackend
from keyring.errors import KeyringLocked, PasswordDeleteError, PasswordSetError


class MemoryKeyring(KeyringBackend):
    """Secrets in a dict, as a system keyring would keep them.

    `refuse` makes writes fail, `locked` reads; `read_on` names the thread of each read.
    """

    priority = 1

    def __init__(self) -> None:
        """Start empty."""
        super().__init__()  # type: ignore[no-untyped-call]
        self.secrets: dict[tuple[str, str], str] = {}
        self.refuse = False
        self.locked = False
        self.read_on: list[str] = []

    def get_password(self, service: str, username: str) -> str | None:
        """Return a stored secret (unless locked)."""
        self.read_on.append(threading.current_thread().name)
        if self.locked:
            raise KeyringLocked("the keyring is locked")
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        """Store a secret (unless refusing)."""
        if self.refuse:
            raise PasswordSetError("the keyring is locked")
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        """Delete a stored secret."""
        if self.secrets.pop((service, username), None) is None:
            raise PasswordDeleteError("no such secret")


@contextmanager
def memory_keyring() -> Iterator[MemoryKeyring]:
    """Make a MemoryKeyring the keyring package's backend for the block."""
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)
