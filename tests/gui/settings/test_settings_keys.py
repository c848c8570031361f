"""Every stored setting is declared once in explorer/settings/store.py, typed and described."""

from __future__ import annotations

import re

from PySide6.QtCore import QSettings

from explorer.settings import store as keys
from explorer.settings.store import Key, Settings
from tests.helpers.keyrings import MemoryKeyring, memory_keyring

#: The per-network (per-key, per-day) declarations, with a sample of the names they make.
FAMILIES = (
    keys.api_key("N"),
    keys.url_v2("N"),
    keys.public_node("N"),
    keys.daily_quota("N", 0),
    keys.user_tokens("N"),
    keys.requests_on("N", "D"),
)


def declared() -> list[Key[str] | Key[int] | Key[bool] | Key[tuple[str, ...]]]:
    """Return every key declared at the module's top level."""
    return [value for value in vars(keys).values() if isinstance(value, Key)]


def declares(name: str) -> bool:
    """Tell whether a stored name is a declared key or made by a declared family."""
    if name in {key.name for key in declared()}:
        return True
    patterns = (re.escape(key.name).replace("N", "[^/]+").replace("D", "[^/]+") for key in FAMILIES)
    return any(re.fullmatch(pattern, name) for pattern in patterns)


def test_every_key_is_described_and_typed() -> None:
    for key in [*declared(), *FAMILIES]:
        assert key.description, key.name
        assert isinstance(key.default, str | int | bool | tuple), key.name


def test_everything_the_app_stores_is_a_declared_key(store: QSettings) -> None:
    """Use every setter; each name in the file is declared (none made up where it is used)."""
    with memory_keyring() as backend:
        assert isinstance(backend, MemoryKeyring)
        settings = Settings(store)
        settings.set_current_network("testnet")
        settings.set_api_key("testnet", "k3y")
        settings.set_url_v2("testnet", True)
        settings.set_use_public_node("mainnet", True)
        settings.set_daily_quota("testnet", 100)
        settings.set_custom_networks(['{"name": "Mine"}'])
        settings.set_tokens("devnet", ["0x" + "11" * 20])
        settings.set(keys.requests_on("abc123", keys.utc_day()), 5)  # as older versions did
        settings.set(keys.WINDOW_GEOMETRY, "AAAA")
        settings.set(keys.OPEN_TABS, ("block/1", "tx/0x12"))
        settings.set(keys.RECENT_SEARCHES, ("12",))
        settings.set(keys.THEME, "dark")
        settings.set_keys_in_keyring(True)
        stored = store.allKeys()
    assert len(stored) >= 12
    assert [name for name in stored if not declares(name)] == []
    assert settings.get(keys.OPEN_TABS) == ("block/1", "tx/0x12")
    assert settings.get(keys.RECENT_SEARCHES) == ("12",)  # a list of one comes back a list
    assert settings.tokens("devnet") == ["0x" + "11" * 20]
    assert settings.take_legacy_requests("abc123") == 5  # handed to the shared counts once
    assert settings.take_legacy_requests("abc123") == 0
