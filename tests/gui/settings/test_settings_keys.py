"""Every stored setting is declared once in explorer/settings/store.py, typed and described."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import pytest
from PySide6.QtCore import QSettings

from explorer.settings import store as keys
from explorer.settings.key import Key
from explorer.settings.store import Settings
from explorer.views.main_menus import THEMES
from tests.helpers.keyrings import MemoryKeyring, memory_keyring

#: The per-network (per-key, per-day) declarations, with a sample of the names they make.
FAMILIES = (
    keys.api_key("N"),
    keys.url_v2("N"),
    keys.public_node("N"),
    keys.daily_quota("N", 0),
    keys.user_tokens("N"),
    keys.requests_on("N", "D"),
    keys.confirmations("N"),
    keys.genesis_pin("N"),
    keys.watchlist("N"),
)
AnyKey = Key[str] | Key[int] | Key[bool] | Key[tuple[str, ...]]


def declared() -> list[AnyKey]:
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
        settings.set(keys.daily_quota("testnet", 0), 100)
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


def bounded() -> list[AnyKey]:
    """Return every declared key (and family) that bounds its values."""
    keys_ = [*declared(), *FAMILIES]
    return [key for key in keys_ if (key.least, key.most, key.allowed) != (None, None, ())]


def test_the_keys_that_bound_their_values() -> None:
    """The call timeout, quota, size and confirmations are clamped; the theme is one of three."""
    assert {key.name: (key.least, key.most, key.allowed) for key in bounded()} == {
        "network/call_timeout_seconds": (1, 600, ()),
        "networks/N/daily_quota": (0, None, ()),
        "cache/size_limit_mb": (1, None, ()),
        "networks/N/confirmations": (1, None, ()),
        "ui/theme": (None, None, tuple(name for name, _ in THEMES)),
    }


def written(path: Path, name: str, text: str) -> Settings:
    """Write a raw value into the settings file as another program would; reopen it."""
    other = QSettings(str(path), QSettings.Format.IniFormat)
    other.setValue(name, text)
    other.sync()
    return Settings(QSettings(str(path), QSettings.Format.IniFormat))


def numbers() -> list[Key[int]]:
    """Return the keys whose numbers are clamped."""
    return [
        cast(Key[int], key) for key in bounded() if key.least is not None or key.most is not None
    ]


def texts() -> list[Key[str]]:
    """Return the keys that allow only some texts."""
    return [cast(Key[str], key) for key in bounded() if key.allowed]


@pytest.mark.parametrize("key", numbers(), ids=lambda key: key.name)
def test_a_number_out_of_bounds_is_read_and_stored_as_the_bound(
    tmp_path: Path, key: Key[int]
) -> None:
    """Too small or too large in the file reads as the bound, and is stored as it."""
    path = tmp_path / "settings.ini"
    assert written(path, key.name, "many").get(key) == key.default  # not a number
    for bound, beyond in ((key.least, -1), (key.most, 1)):
        if bound is None:
            continue
        settings = written(path, key.name, str(bound + beyond * 10**9))
        assert settings.get(key) == bound
        settings.set(key, bound + beyond)
        assert str(QSettings(str(path), QSettings.Format.IniFormat).value(key.name)) == str(bound)


@pytest.mark.parametrize("key", texts(), ids=lambda key: key.name)
def test_a_text_the_key_does_not_allow_is_refused(tmp_path: Path, key: Key[str]) -> None:
    """A text outside the allowed ones reads as the default and is never stored."""
    path = tmp_path / "settings.ini"
    assert written(path, key.name, "purple").get(key) == key.default
    settings = written(path, key.name, key.allowed[-1])
    assert settings.get(key) == key.allowed[-1]
    with pytest.raises(ValueError, match="purple"):
        settings.set(key, "purple")
    assert settings.get(key) == key.allowed[-1]
