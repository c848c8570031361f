"""Typed settings keys declared once, stored with QSettings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
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
USE_PUBLIC_NODE = Key("network/use_public_node", False)
OPEN_TABS = "ui/open_tabs"
RECENT_SEARCHES = "search/recent"
CUSTOM_NETWORKS = "networks/custom"


def url_v2(network: str) -> Key[bool]:
    """Return the key of a network's URL form choice: True for `/v2/<KEY>`."""
    return Key(f"networks/{network}/url_v2", False)


def public_node(network: str, default: bool = False) -> Key[bool]:
    """Return the key of a network's "public node without a key" choice."""
    return Key(f"networks/{network}/use_public_node", default)


def daily_quota(network: str, default: int) -> Key[int]:
    """Return the key of a network's daily request quota per key (0: none)."""
    return Key(f"networks/{network}/daily_quota", default)


def utc_day() -> str:
    """Return today's date in UTC, the day the hosted service counts quotas by."""
    return datetime.now(UTC).date().isoformat()


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

    def get_list(self, name: str) -> list[str]:
        """Return a stored list of strings (empty when absent or malformed)."""
        value = self._store.value(name, [])
        if isinstance(value, str):
            return [value] if value else []
        return [str(item) for item in value] if isinstance(value, list) else []

    def set_list(self, name: str, values: list[str]) -> None:
        """Store a list of strings."""
        self._store.setValue(name, list(values))

    def requests_today(self, usage_id: str) -> int:
        """Return the requests counted today (UTC) for an endpoint-and-key id."""
        value = self._store.value(f"usage/{usage_id}/{utc_day()}", 0)
        try:
            return int(str(value))
        except ValueError:
            return 0

    def add_requests(self, usage_id: str, count: int) -> None:
        """Add requests spent today (UTC) for an endpoint-and-key id."""
        if count > 0:
            total = self.requests_today(usage_id) + count
            self._store.setValue(f"usage/{usage_id}/{utc_day()}", total)

    def api_key(self, network: str) -> str:
        """Return the API key stored for a network, or an empty string."""
        return str(self._store.value(f"api_keys/{network}", "") or "")

    def set_api_key(self, network: str, key: str) -> None:
        """Store the API key of a network."""
        self._store.setValue(f"api_keys/{network}", key)

    def forget_network(self, network: str) -> None:
        """Forget a network's API key and per-network choices."""
        self._store.remove(f"api_keys/{network}")
        self._store.remove(f"networks/{network}")

    def current_network(self) -> str:
        """Return the id of the network chosen last ('' when none)."""
        return self.get(NETWORK)

    def set_current_network(self, network: str) -> None:
        """Remember the chosen network."""
        self.set(NETWORK, network)

    def custom_networks(self) -> list[str]:
        """Return the stored custom endpoints (one JSON object each, no keys)."""
        return self.get_list(CUSTOM_NETWORKS)

    def set_custom_networks(self, entries: list[str]) -> None:
        """Store the custom endpoints."""
        self.set_list(CUSTOM_NETWORKS, entries)

    def url_v2(self, network: str) -> bool:
        """Tell whether a network's key goes in the `/v2/<KEY>` URL form."""
        return self.get(url_v2(network))

    def set_url_v2(self, network: str, v2: bool) -> None:
        """Store a network's URL form choice."""
        self.set(url_v2(network), v2)

    def use_public_node(self, network: str) -> bool:
        """Tell whether a network uses its public node without a key (default: the old global)."""
        return self.get(public_node(network, self.get(USE_PUBLIC_NODE)))

    def set_use_public_node(self, network: str, public: bool) -> None:
        """Store a network's public-node choice."""
        self.set(public_node(network), public)

    def daily_quota(self, network: str, default: int) -> int:
        """Return a network's daily request quota per key (0: none), the default if unset."""
        return max(self.get(daily_quota(network, default)), 0)

    def set_daily_quota(self, network: str, quota: int) -> None:
        """Store a network's daily request quota per key (0: none)."""
        self.set(daily_quota(network, 0), max(quota, 0))
