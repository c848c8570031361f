"""Typed settings keys declared once, stored with QSettings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from PySide6.QtCore import QSettings

T = TypeVar("T", str, int, bool)


@dataclass(frozen=True)
class Key(Generic[T]):
    """One setting: its storage name and typed default."""

    name: str
    default: T


NETWORK = Key("network/current", "")
WINDOW_GEOMETRY = Key("ui/window_geometry", "")


class Settings:
    """Typed access to the application's QSettings."""

    def __init__(self, store: QSettings | None = None) -> None:
        self._store = store or QSettings("explorer", "explorer")

    def get(self, key: Key[T]) -> T:
        """Return the stored value converted to the key's type, or its default."""
        value: object = self._store.value(key.name, key.default)
        if isinstance(key.default, bool):
            return str(value).lower() == "true"
        try:
            return type(key.default)(str(value))
        except ValueError:
            return key.default

    def set(self, key: Key[T], value: T) -> None:
        """Store a value under the key."""
        self._store.setValue(key.name, value)

    def api_key(self, network: str) -> str:
        """Return the API key stored for a network, or an empty string."""
        return str(self._store.value(f"api_keys/{network}", "") or "")

    def set_api_key(self, network: str, key: str) -> None:
        """Store the API key of a network."""
        self._store.setValue(f"api_keys/{network}", key)
