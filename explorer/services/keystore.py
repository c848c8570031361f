"""API keys in the operating system's keyring (Secret Service, Keychain, Credential Locker)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

SERVICE = "explorer"  # the keyring's service name for every key of the app
REFERENCE = "@keyring"  # what the settings file holds for a key kept in the keyring


class KeyStoreError(Exception):
    """The keyring refused to read, store or delete a key; the message says why."""


@dataclass(frozen=True)
class KeyringStatus:
    """Whether a system keyring can hold the keys, and which one or why not."""

    available: bool
    backend: str = ""
    reason: str = ""


class KeyVault(Protocol):
    """Where keys go when they are not in the settings file."""

    def status(self) -> KeyringStatus:
        """Tell whether the vault can be used."""

    def get(self, name: str) -> str | None:
        """Return the secret stored under name, or None."""

    def set(self, name: str, secret: str) -> None:
        """Store a secret under name."""

    def delete(self, name: str) -> None:
        """Delete the secret stored under name, if any."""


class KeyringVault:
    """The `keyring` package's default backend; each call may block (a D-Bus round trip)."""

    def status(self) -> KeyringStatus:
        """Tell whether a real keyring backend is available here."""
        import keyring
        from keyring.backends import chainer, fail, null

        try:
            backend = keyring.get_keyring()
        except Exception as error:  # a broken backend's import or probe
            return KeyringStatus(False, reason=f"the keyring could not be loaded ({error})")
        name = getattr(backend, "name", type(backend).__name__)
        if isinstance(backend, fail.Keyring | null.Keyring) or (
            isinstance(backend, chainer.ChainerBackend) and not backend.backends
        ):
            return KeyringStatus(
                False,
                reason="no system keyring was found (no Secret Service, Keychain or "
                "Credential Locker answers here)",
            )
        return KeyringStatus(True, backend=str(name))

    def get(self, name: str) -> str | None:
        """Return the secret stored under name, or None."""
        import keyring
        from keyring.errors import KeyringError

        try:
            return keyring.get_password(SERVICE, name)
        except KeyringError as error:
            raise KeyStoreError(f"the keyring could not be read ({error})") from None

    def set(self, name: str, secret: str) -> None:
        """Store a secret under name."""
        import keyring
        from keyring.errors import KeyringError

        try:
            keyring.set_password(SERVICE, name, secret)
        except KeyringError as error:
            raise KeyStoreError(f"the keyring refused the key ({error})") from None

    def delete(self, name: str) -> None:
        """Delete the secret stored under name, if any."""
        import keyring
        from keyring.errors import KeyringError, PasswordDeleteError

        try:
            keyring.delete_password(SERVICE, name)
        except PasswordDeleteError:
            return
        except KeyringError as error:
            raise KeyStoreError(f"the keyring could not delete a key ({error})") from None
