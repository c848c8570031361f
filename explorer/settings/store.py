"""Typed settings keys declared once, stored with QSettings in a file only its owner can read.

API keys live in that file, or, when the user chose it in Settings, in the system keyring
(the file then holds only a reference to each).
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QSettings

from explorer.rpc.calltime import CALL_TIMEOUT_RANGE, DEFAULT_CALL_TIMEOUT
from explorer.services.keystore import (
    REFERENCE,
    KeyringStatus,
    KeyringVault,
    KeyStoreError,
    KeyVault,
)
from explorer.settings import settings_file
from explorer.settings.key import Key, T

# Every setting the app stores, declared once: `Key(name, default, description)`, and its
# bounds where it has some.
# The app's own
NETWORK = Key("network/current", "", "The id of the network chosen last")
WINDOW_GEOMETRY = Key("ui/window_geometry", "", "Where the window was and its size (Qt's form)")
OPEN_TABS = Key("ui/open_tabs", (), "The routes of the tabs open at the last close")
THEME = Key("ui/theme", "system", "The colours (View > Theme)", allowed=("system", "light", "dark"))
RECENT_SEARCHES = Key("search/recent", (), "What was searched lately, newest first")
KEYS_IN_KEYRING = Key("secrets/keyring", False, "API keys are kept in the system keyring")
CUSTOM_NETWORKS = Key("networks/custom", (), "The user's endpoints, one JSON object each (no key)")
USE_PUBLIC_NODE = Key("network/use_public_node", False, "Before per-network choices: public node")
# Bitcoin explorer links (the peg's pages): where "Open in a Bitcoin explorer" goes, one URL
# template per Bitcoin network; {kind} is tx, address or block and {id} the txid, address or hash.
MEMPOOL = "https://mempool.space/"
BTC_EXPLORER_MAIN = Key("bitcoin/explorer_main", MEMPOOL + "{kind}/{id}", "Bitcoin main")
BTC_EXPLORER_TEST = Key(
    "bitcoin/explorer_test", MEMPOOL + "testnet/{kind}/{id}", "Bitcoin test links"
)
BTC_EXPLORERS = {"main": BTC_EXPLORER_MAIN, "test": BTC_EXPLORER_TEST}
API_KEYS = "api_keys"  # the group of the API keys below
NETWORK_GROUP = "networks"  # the group of the per-network choices below

# How long one call to a node may take, all its retries included, before the app gives up and
# says so (Settings). Seconds, within CALL_TIMEOUT_RANGE.
CALL_TIMEOUT = Key(
    "network/call_timeout_seconds",
    round(DEFAULT_CALL_TIMEOUT),
    "Give up on a call after (s)",
    least=CALL_TIMEOUT_RANGE[0],
    most=CALL_TIMEOUT_RANGE[1],
)
GENESIS_PINS = "genesis"  # the group of the genesis pins below


# One per network (or per endpoint-and-key, or day): the same declaration, its name made.
def api_key(network: str) -> Key[str]:
    """Return the key of a network's API key (or a reference to it in the keyring)."""
    return Key(f"{API_KEYS}/{network}", "", "The network's API key, or where the keyring has it")


def genesis_pin(pin_id: str) -> Key[str]:
    """Return the key of block 0's hash an endpoint gave at its first verification."""
    return Key(f"{GENESIS_PINS}/{pin_id}", "", "Block 0's hash this endpoint served first")


# The watchlist (issue 22): its addresses per network (a list of JSON objects), and whether
# the app keeps watching from the system tray when its window is closed.
KEEP_IN_TRAY = Key("ui/keep_in_tray", False, "Closing the window keeps watching from the tray")


# The signature list the user chose in a contract tab (issue 32): its selectors are named too.
SIGNATURE_LIST = Key("contracts/signature_list", "", "A file of signatures naming selectors")


def watchlist(network: str) -> Key[tuple[str, ...]]:
    """Return the key of a network's watched addresses (one JSON object each)."""
    return Key(f"watchlist/{network}", (), "The addresses watched on this network")


def url_v2(network: str) -> Key[bool]:
    """Return the key of a network's URL form choice: True for `/v2/<KEY>`."""
    return Key(f"{NETWORK_GROUP}/{network}/url_v2", False, "The key goes in /v2/<KEY>")


def public_node(network: str, default: bool = False) -> Key[bool]:
    """Return the key of a network's "public node without a key" choice."""
    return Key(f"{NETWORK_GROUP}/{network}/use_public_node", default, "Use the public node")


def daily_quota(network: str, default: int) -> Key[int]:
    """Return the key of a network's daily request quota per key (0: none)."""
    return Key(f"{NETWORK_GROUP}/{network}/daily_quota", default, "Requests a day per key", least=0)


def user_tokens(network: str) -> Key[tuple[str, ...]]:
    """Return the key of the token contracts the user added on a network."""
    return Key(f"tokens/{network}", (), "Token contracts the user added (Tokens tab)")


def requests_on(usage_id: str, day: str) -> Key[int]:
    """Return the key of the requests an endpoint-and-key spent on a UTC day."""
    return Key(f"usage/{usage_id}/{day}", 0, "Requests this endpoint and key spent that day")


# --- saved data and the request budget (issue 21): the window's choices ----------------------
# (the quota per network is `daily_quota` above; the command line reads the one the window
# last stored in the shared request counts, services/usage.py, so it needs no Qt)
CACHE_SIZE_MB = Key("cache/size_limit_mb", 500, "Saved data of every chain, at most (MB)", least=1)
DEFAULT_CONFIRMATIONS = 12  # blocks on top before a block's data is saved as settled


def confirmations(network: str) -> Key[int]:
    """Return the key of a network's confirmations before its data counts as settled."""
    return Key(
        f"{NETWORK_GROUP}/{network}/confirmations",
        DEFAULT_CONFIRMATIONS,
        "Blocks on top before a block's data is saved as settled",
        least=1,
    )


def utc_day() -> str:
    """Return today's date in UTC, the day the hosted service counts quotas by."""
    return datetime.now(UTC).date().isoformat()


class Settings:
    """Typed access to the application's QSettings; every change is saved at once, 0600."""

    def __init__(self, store: QSettings | None = None, vault: KeyVault | None = None) -> None:
        """Use store (default: the app's own file) and vault for keys kept in the keyring."""
        self._store = store or QSettings("explorer", "explorer")
        self._store.setAtomicSyncRequired(True)  # a new file renamed over the old one
        self._vault: KeyVault = vault or KeyringVault()
        self._kept: dict[str, str] = {}  # keys read from the keyring (each read may block)
        self.keyring_error = ""  # why the keyring could not give a key this run, if it could not

    @classmethod
    def for_app(cls, vault: KeyVault | None = None) -> tuple[Settings, list[str]]:
        """Open the app's settings file made private and sound; return it and what was fixed."""
        probe = QSettings("explorer", "explorer")
        name, fmt = probe.fileName(), probe.format()
        if not settings_file.is_file_path(name):
            return cls(probe, vault), []
        unreadable = probe.status() is QSettings.Status.FormatError
        del probe  # Qt caches a parsed file: the real store must read the prepared one
        notices = settings_file.prepare(Path(name), "Qt cannot parse it" if unreadable else "")
        return cls(QSettings(name, fmt), vault), notices

    @property
    def path(self) -> str:
        """Return where the settings are stored."""
        return self._store.fileName()

    def save(self) -> None:
        """Write pending changes now (atomically) and keep the file private."""
        self._store.sync()
        if settings_file.is_file_path(self.path):
            settings_file.tighten(Path(self.path))

    def _put(self, name: str, value: object) -> None:
        """Store one value and save."""
        self._store.setValue(name, value)
        self.save()

    def _remove(self, name: str) -> None:
        """Remove a value (or group) and save."""
        self._store.remove(name)
        self.save()

    def get(self, key: Key[T]) -> T:
        """Return the stored value as the key's type within its bounds, or its default."""
        try:
            return key.bounded(self._typed(key))
        except ValueError:
            return key.default

    def _typed(self, key: Key[T]) -> T:
        """Return the stored value converted to the key's type; ValueError if it is not one."""
        value: object = self._store.value(key.name, key.default)
        default = key.default
        if isinstance(default, tuple):
            if isinstance(value, str):
                return (value,) if value else ()
            return tuple(str(item) for item in value) if isinstance(value, list) else default
        if isinstance(default, bool):
            return str(value).lower() == "true"
        return type(default)(str(value))

    def set(self, key: Key[T], value: T) -> None:
        """Store a value within the key's bounds (a tuple of strings as a list); ValueError."""
        value = key.bounded(value)
        self._put(key.name, list(value) if isinstance(value, tuple) else value)

    def tokens(self, network: str) -> list[str]:
        """Return the token contracts the user added on a network."""
        return list(self.get(user_tokens(network)))

    def set_tokens(self, network: str, tokens: list[str]) -> None:
        """Store the token contracts the user added on a network."""
        self.set(user_tokens(network), tuple(tokens))

    def take_legacy_requests(self, usage_id: str) -> int:
        """Return today's requests of a key counted here by older versions, and forget them.

        Request counts now live in the file every process shares (services/usage.py).
        """
        value = self.get(requests_on(usage_id, utc_day()))
        self._store.beginGroup("usage")
        counted_here = usage_id in self._store.childGroups()
        self._store.endGroup()
        if counted_here:
            self._remove(f"usage/{usage_id}")
        return value

    def api_key(self, network: str) -> str:
        """Return the API key stored for a network, or '' (also when the keyring cannot say)."""
        try:
            return self._stored_key(network)
        except KeyStoreError as error:
            return self._refused(network, error)

    def _stored_key(self, network: str) -> str:
        """Return the API key of a network from the file or the keyring; KeyStoreError."""
        stored = self.get(api_key(network))
        return self._from_keyring(network) if stored == REFERENCE else stored

    def _from_keyring(self, network: str) -> str:
        """Return a network's key from the keyring, read once a run; KeyStoreError."""
        if network not in self._kept:
            self._kept[network] = self._vault.get(keyring_name(network)) or ""
        return self._kept[network]

    def _refused(self, network: str, error: KeyStoreError) -> str:
        """Remember why the keyring gave no key: the network has none this run ('')."""
        self.keyring_error = str(error)
        self._kept[network] = ""
        return ""

    def unread_keyring_keys(self) -> list[str]:
        """Return the networks whose key is in the keyring and not read yet this run."""
        self._store.beginGroup(API_KEYS)
        names = [name for name in self._store.childKeys() if self._store.value(name) == REFERENCE]
        self._store.endGroup()
        return [name for name in names if name not in self._kept]

    def read_keyring_keys(self, networks: list[str]) -> None:
        """Read those networks' keys from the keyring (blocks: run it in a worker thread).

        Only the keyring is touched, never the settings file; a refusal leaves no key and says
        why in keyring_error.
        """
        for network in networks:
            try:
                self._from_keyring(network)
            except KeyStoreError as error:
                self._refused(network, error)

    def set_api_key(self, network: str, key: str) -> None:
        """Store the API key of a network where the user chose; KeyStoreError if refused."""
        stored = api_key(network)
        in_keyring = self.get(stored) == REFERENCE
        if key and self.keys_in_keyring():
            self._vault.set(keyring_name(network), key)
            self._kept[network] = key
            self.set(stored, REFERENCE)
            return
        if in_keyring:
            self._vault.delete(keyring_name(network))
            self._kept.pop(network, None)
        if key:
            self.set(stored, key)
        else:
            self._remove(stored.name)

    def forget_network(self, network: str) -> None:
        """Forget a network's API key and per-network choices."""
        self.set_api_key(network, "")
        self._remove(f"{NETWORK_GROUP}/{network}")

    def keys_in_keyring(self) -> bool:
        """Tell whether API keys are kept in the system keyring rather than in this file."""
        return self.get(KEYS_IN_KEYRING)

    def keyring_status(self) -> KeyringStatus:
        """Tell whether a system keyring can hold the keys (may block: not on the GUI thread)."""
        return self._vault.status()

    def set_keys_in_keyring(self, in_keyring: bool) -> None:
        """Move every stored API key to the keyring or back into this file; KeyStoreError."""
        if in_keyring == self.keys_in_keyring():
            return
        self._store.beginGroup(API_KEYS)
        networks = self._store.childKeys()
        self._store.endGroup()
        keys = {network: self._stored_key(network) for network in networks}  # all, or nothing moves
        self.set(KEYS_IN_KEYRING, in_keyring)
        try:
            for network, key in keys.items():
                self.set_api_key(network, key)
        except KeyStoreError:
            self.set(KEYS_IN_KEYRING, not in_keyring)  # every key back where it was
            for network, key in keys.items():
                with contextlib.suppress(KeyStoreError):
                    self.set_api_key(network, key)
            raise

    def current_network(self) -> str:
        """Return the id of the network chosen last ('' when none)."""
        return self.get(NETWORK)

    def set_current_network(self, network: str) -> None:
        """Remember the chosen network."""
        self.set(NETWORK, network)

    def custom_networks(self) -> list[str]:
        """Return the stored custom endpoints (one JSON object each, no keys)."""
        return list(self.get(CUSTOM_NETWORKS))

    def set_custom_networks(self, entries: list[str]) -> None:
        """Store the custom endpoints."""
        self.set(CUSTOM_NETWORKS, tuple(entries))

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

    def genesis_pin(self, pin_id: str) -> str:
        """Return the genesis hash a custom endpoint gave at its first verification ('')."""
        return self.get(genesis_pin(pin_id))

    def set_genesis_pin(self, pin_id: str, genesis: str) -> None:
        """Remember the genesis hash an endpoint gave at its first verification."""
        self.set(genesis_pin(pin_id), genesis)

    def call_timeout(self) -> int:
        """Return the seconds a call may take, retries included (the wait option's face)."""
        return self.get(CALL_TIMEOUT)

    def set_call_timeout(self, seconds: int) -> None:
        """Store the seconds a call may take (kept within CALL_TIMEOUT's bounds)."""
        self.set(CALL_TIMEOUT, seconds)


def keyring_name(network: str) -> str:
    """Return the keyring's user name of a network's API key."""
    return f"api-key/{network}"
